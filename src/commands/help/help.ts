// trk help [command...] | trk help exit-codes | trk help options: help for a command (as `trk <command> --help`),
// or a topic, laid out for the terminal's width like every help page.

import type { Command } from 'commander';
import type { Command as TypedCommand } from '@commander-js/extra-typings';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { EXIT_CODE_HELP } from '../../core/exit-codes.js';
import { HELP_WIDTH } from '../../help-pages.js';
import { globalOptionsPage, layoutItems, pageWidth } from '../help-layout.js';
import { examples, prints, rootOf, running, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export interface HelpOptions {
  topic: readonly string[];
  /** The command tree, to find the command asked about. */
  program: Command;
}

export const HELP_TOPICS = ['exit-codes', 'options'] as const;

/** The topics with what each shows, for completions. */
export const HELP_TOPIC_DESCRIPTIONS: readonly { name: (typeof HELP_TOPICS)[number]; description: string }[] = [
  { name: 'exit-codes', description: 'what each exit code of trk means' },
  { name: 'options', description: 'the options every command takes' },
];

export function exitCodeText(width: number = HELP_WIDTH): string {
  return `Exit codes of trk:\n\n${layoutItems(
    EXIT_CODE_HELP.map(([code, text]) => [String(code), text] as const),
    width,
  )}\n`;
}

export async function runHelp(opts: HelpOptions, ctx: Context): Promise<number> {
  const topic = opts.topic.join(' ').trim();
  const program = opts.program as unknown as TypedCommand;
  const width = pageWidth({ error: false, command: program });
  if (topic === 'exit-codes') {
    ctx.io.out(exitCodeText(width));
    return 0;
  }
  if (topic === 'options') {
    ctx.io.out(globalOptionsPage(program, width));
    return 0;
  }
  let cmd = opts.program;
  for (const name of opts.topic) {
    const sub = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!sub) {
      throw new UsageError(
        `no help for "${topic}"`,
        `run "trk --help" for the commands, or "trk help ${HELP_TOPICS.join('|')}"`,
      );
    }
    cmd = sub;
  }
  cmd.outputHelp();
  return 0;
}

export const listing = {
  name: 'help',
  summary: 'show help for a command, or a topic: exit-codes, options',
  section: 'more',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .argument(
      '[topic...]',
      'a command (e.g. "list", "auth login"), "exit-codes", or "options" (the options every command takes)',
    )
    .addHelpText('after', examples('trk help list', 'trk help auth login', 'trk help exit-codes', 'trk help options'))
    .action((topic) => running(invoke, (ctx) => runHelp({ topic, program: rootOf(cmd) }, ctx)));
