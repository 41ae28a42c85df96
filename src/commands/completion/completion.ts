// trk completion bash|zsh|fish: the completion script for a shell, generated from the command tree itself,
// so it can never drift from the commands. `trk __complete profiles` (hidden) lists values that only exist
// at run time, for the scripts to call.

import type { Command } from 'commander';
import { commandSpec } from '../../completion/spec.js';
import { generateCompletion, type Shell } from '../../completion/scripts.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

export interface CompletionOptions {
  shell: Shell;
  /** The command tree to describe. */
  program: Command;
}

export async function runCompletion(opts: CompletionOptions, ctx: Context): Promise<number> {
  ctx.io.out(generateCompletion(opts.shell, commandSpec(opts.program)));
  return 0;
}

export const COMPLETE_KINDS = ['profiles'] as const;

export interface CompleteValuesOptions {
  kind: string;
}

export async function runCompleteValues(opts: CompleteValuesOptions, ctx: Context): Promise<number> {
  if (opts.kind !== 'profiles') throw new UsageError(`nothing to complete for "${opts.kind}"`, `use one of: ${COMPLETE_KINDS.join(', ')}`);
  const { openProfileStore } = await import('../../config/profiles.js');
  const names = new Set(['sandbox', ...openProfileStore(ctx.env).list()]);
  ctx.io.out([...names].map((n) => `${n}\n`).join(''));
  return 0;
}
