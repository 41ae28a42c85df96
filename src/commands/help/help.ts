// trk help [command...] | trk help exit-codes: help for a command (as `trk <command> --help`), or a topic.

import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { EXIT_CODE_HELP } from '../../exit-codes.js';

export interface HelpOptions {
  topic: readonly string[];
  /** The command tree, to find the command asked about. */
  program: Command;
}

export const HELP_TOPICS = ['exit-codes'] as const;

export function exitCodeText(): string {
  const lines = EXIT_CODE_HELP.map(([code, text]) => `  ${String(code).padEnd(4)} ${text}`);
  return `Exit codes of trk:\n\n${lines.join('\n')}\n`;
}

export async function runHelp(opts: HelpOptions, ctx: Context): Promise<number> {
  const topic = opts.topic.join(' ').trim();
  if (topic === 'exit-codes') {
    ctx.io.out(exitCodeText());
    return 0;
  }
  let cmd = opts.program;
  for (const name of opts.topic) {
    const sub = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (!sub) {
      throw new UsageError(`no help for "${topic}"`, `run "trk --help" for the commands, or "trk help ${HELP_TOPICS.join('|')}"`);
    }
    cmd = sub;
  }
  cmd.outputHelp();
  return 0;
}
