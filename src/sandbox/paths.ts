// Where the sandbox keeps its state: in trk's state folder (`TRK_STATE_DIR`, else `$XDG_STATE_HOME/trk`,
// else `~/.local/state/trk`; see src/config/paths.ts). State rather than config or cache: it is data the
// user made and would miss, but that nobody edits by hand.

import { join } from 'node:path';
import { stateDir } from '../config/paths.js';

export const SANDBOX_STATE_FILE = 'sandbox.json';

/** The state file shared by `trk sandbox start` and `--sandbox` on any command. */
export function sandboxStateFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), SANDBOX_STATE_FILE);
}
