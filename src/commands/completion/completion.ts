// trk completion bash|zsh|fish: the completion script for a shell, generated from the command tree itself,
// so it can never drift from the commands. The values that only exist at run time come from `trk __complete`
// (complete.ts), which the scripts call.

import type { Command } from 'commander';
import { completionTree } from '../../completion/spec.js';
import { generateCompletion, type Shell } from '../../completion/scripts.js';
import type { Context } from '../../context/context.js';
import { HELP_TOPIC_DESCRIPTIONS } from '../help/help.js';
import { SHELLS } from '../../completion/shells.js';
import { Argument, examples, prints, rootOf, running, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export interface CompletionOptions {
  shell: Shell;
  /** The command tree to describe. */
  program: Command;
}

export async function runCompletion(opts: CompletionOptions, ctx: Context): Promise<number> {
  ctx.io.out(generateCompletion(opts.shell, completionTree(opts.program, HELP_TOPIC_DESCRIPTIONS)));
  return 0;
}

export const listing = {
  name: 'completion',
  summary: 'print the completion script for bash, zsh, fish or PowerShell (see the README to install it)',
  section: 'more',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      examples(
        'mkdir -p ~/.local/share/bash-completion/completions && ' +
          'trk completion bash > ~/.local/share/bash-completion/completions/trk',
        'mkdir -p ~/.config/fish/completions && trk completion fish > ~/.config/fish/completions/trk.fish',
        'trk completion powershell | Out-String | Invoke-Expression   # in $PROFILE',
      ),
    )
    .action((shell) => running(invoke, (ctx) => runCompletion({ shell, program: rootOf(cmd) }, ctx)));
