// What a command's file says of itself for `trk --help` (its `listing`), and the sections that page groups the
// commands in (as gh's "CORE COMMANDS"). The build copies each file's listing into listed.ts
// (scripts/write-lists.mjs), so a new command is its file: no list names it by hand.

import type { Declare } from './define.js';

/** The sections of `trk --help`, in its order, with their headings. */
export const SECTIONS = {
  numbers: 'Tracking numbers:',
  mirror: 'The mirror (what trk keeps of the account):',
  account: 'Account and set-up:',
  more: 'Reference and scripting:',
} as const;

export type Section = keyof typeof SECTIONS;

/** A command's line in `trk --help`; a literal of strings and booleans, as the build copies it. */
export interface Listing {
  name: string;
  summary: string;
  section: Section;
  /** Has subcommands: gets a `help` subcommand worded like trk's own. */
  group?: true;
  hidden?: true;
}

/** A listing as the build gathered it, with the import of its file. */
export interface Listed extends Listing {
  declaration: () => Promise<{ declaration: Declare }>;
}
