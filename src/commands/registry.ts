// The command tree, assembled from the commands' listings (listed.ts, which the build writes from each file's
// `listing`: commands/<noun>/<verb>.ts, declaration and action; a group's file takes in its subcommands'). Only the
// command being run is declared in full: `trk stop ...` loads stop's file and nothing else, and `trk --help` lists
// the commands from the listings alone. `trk help`, `trk completion` and the tests ask for the whole tree.

import { Command } from './commander.js';
import type { Command as PlainCommand } from 'commander';
import type { AddHelpTextContext } from '@commander-js/extra-typings';
import { GLOBAL_VALUE_FLAGS, globalOptions, type BareCommand, type Invoker } from './define.js';
import { globalOptionsLine, HELP_CONFIGURATION, layoutItems, pageWidth } from './help-layout.js';
import { LISTED } from './listed.js';
import { type Listed, SECTIONS, type Section } from './listing.js';

export type { Invoker, Runner } from './define.js';

/** Every command, in the order of `trk --help`: by section, then by name. */
export const COMMANDS: readonly Listed[] = (Object.keys(SECTIONS) as Section[]).flatMap((section) =>
  LISTED.filter((c) => c.section === section),
);

/** What `trk --help` opens with: the first three things a newcomer does. */
export const GETTING_STARTED = [
  ['trk register RR123456789CN --sandbox', 'try trk on its emulator (no account)'],
  ['trk list --sandbox', '...and see what the sandbox tracks'],
  ['trk auth login', 'save your API key (verified first)'],
  ['trk list', 'the numbers your account tracks'],
  ['trk help COMMAND', 'what a command does and takes'],
] as const;

const gettingStarted = (context: AddHelpTextContext) =>
  `Getting started:\n${layoutItems(GETTING_STARTED, pageWidth(context))}\n`;

/** Commands that need the whole tree: help about any command. */
const WHOLE_TREE = new Set(['help']);

/**
 * The words of an argument list that name its command and subcommand (`webhook listen`), at most two: those that
 * are not options nor values of global options; after `--`, whatever follows.
 */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return [...words, ...argv.slice(i + 1)].slice(0, 2);
    if (arg.startsWith('-')) {
      if (GLOBAL_VALUE_FLAGS.has(arg)) i += 1;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/**
 * The command an argument list runs (its first word that is not a global option or the value of one), `all`
 * when that command needs the whole tree, or null for none (`trk`, `trk --help`, `trk --version`).
 */
export function commandOf(argv: readonly string[]): string | null {
  const [command] = commandWords(argv);
  if (command === undefined) return null;
  return WHOLE_TREE.has(command) ? 'all' : command;
}

/**
 * The program with every command named and described, and `declare` ones declared in full: a command name,
 * `all` (the default), or null for none.
 */
export async function buildProgram(
  invoke: Invoker,
  version: string,
  declare: string | null = 'all',
): Promise<PlainCommand> {
  const program = new Command('trk')
    .description(
      'Operate a parcel-tracking service account: register, list, inspect, stop, retrack, delete and push ' +
        'tracking numbers.',
    )
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .configureHelp(HELP_CONFIGURATION)
    .addHelpText('before', gettingStarted)
    .addHelpText('afterAll', globalOptionsLine);
  for (const option of globalOptions()) program.addOption(option);
  for (const entry of COMMANDS) {
    const cmd: BareCommand = program
      .command(entry.name, { hidden: entry.hidden === true })
      .description(entry.summary)
      .helpGroup(SECTIONS[entry.section]);
    if (entry.group) cmd.helpCommand('help [command]', 'show help for a command');
    if (declare === 'all' || declare === entry.name) {
      (await entry.declaration()).declaration(cmd, invoke);
    }
  }
  return program as unknown as PlainCommand;
}
