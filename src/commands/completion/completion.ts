// trk completion bash|zsh|fish|powershell: the completion script for a shell. The build generates each from the
// command tree itself (src/build/write-completions.ts) into completions/, shipped in the package, so it can never
// drift from the commands (a test fails when the files are stale); this prints the shell's file, without declaring
// every command: `source <(trk completion bash)` runs at every start of a shell. The values that only exist at run
// time come from `trk __complete` (complete.ts), which the scripts call.

import type { Context } from '../../context/context.js';
import { TrkError } from '../../core/errors.js';
import { nodeFs } from '../../core/node.js';
import { COMPLETION_FILES, SHELLS, type Shell } from '../../completion/shells.js';
import { packageFile } from '../../package-files.js';
import { Argument, examples, prints, running, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export async function runCompletion(opts: { shell: Shell }, ctx: Context): Promise<number> {
  const file = `completions/${COMPLETION_FILES[opts.shell]}`;
  let script: string;
  try {
    script = nodeFs().readFileSync(packageFile(file), 'utf8');
  } catch (err) {
    throw new TrkError(`trk's ${opts.shell} completion script (${file}) cannot be read: ${(err as Error).message}`, {
      hint: 'reinstall trk (in a checkout: npm run build)',
    });
  }
  ctx.io.out(script);
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
    .action((shell) => running(invoke, (ctx) => runCompletion({ shell }, ctx)));
