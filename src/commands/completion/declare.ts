// Declarations of `trk completion SHELL` and the hidden `trk __complete KIND` the scripts call.

import type { Command as PlainCommand } from 'commander';
import { SHELLS } from '../../completion/shells.js';
import { Argument, examples, lazy, prints, type BareCommand, type Declare } from '../define.js';

/** The program a command belongs to (fully declared when completion or help runs: see the registry). */
export function rootOf(cmd: BareCommand): PlainCommand {
  let at = cmd as unknown as PlainCommand;
  while (at.parent) at = at.parent;
  return at;
}

const completion: Declare = (cmd, invoke) =>
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
    .action((shell) =>
      lazy(
        invoke,
        () => import('./completion.js'),
        (m, ctx) => m.runCompletion({ shell, program: rootOf(cmd) }, ctx),
      ),
    );

const complete: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .argument('<kind>')
    .action((kind) =>
      lazy(
        invoke,
        () => import('./completion.js'),
        (m, ctx) => m.runCompleteValues({ kind }, ctx),
      ),
    );

export const declarations: Readonly<Record<string, Declare>> = { completion, __complete: complete };
