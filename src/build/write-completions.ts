// Build step (`npm run build`): writes the completion scripts into completions/ from the command tree, so the
// files shipped in the package always match the commands. A test fails when the committed files are stale.

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildProgram } from '../commands/registry.js';
import { HELP_TOPIC_DESCRIPTIONS } from '../commands/help/help.js';
import { completionTree } from '../completion/spec.js';
import { generateCompletion, SHELLS, type Shell } from '../completion/scripts.js';
import { COMPLETION_FILES } from '../completion/shells.js';

export { COMPLETION_FILES };

/** The scripts as the current command tree generates them. */
export async function completionScripts(): Promise<Record<Shell, string>> {
  // The version and the action runner play no part in completions.
  const spec = completionTree(await buildProgram(async () => {}, '0.0.0'), HELP_TOPIC_DESCRIPTIONS);
  return Object.fromEntries(SHELLS.map((shell) => [shell, generateCompletion(shell, spec)])) as Record<Shell, string>;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = new URL('../../completions/', import.meta.url);
  for (const [shell, text] of Object.entries(await completionScripts())) {
    writeFileSync(new URL(COMPLETION_FILES[shell as Shell], dir), text);
  }
}
