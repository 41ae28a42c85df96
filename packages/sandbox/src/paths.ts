// Where the sandbox keeps its state: in trk's state folder (`TRK_STATE_DIR`, else `$XDG_STATE_HOME/trk`,
// else `~/.local/state/trk`; see src/config/paths.ts). State rather than config or cache: it is data the
// user made and would miss, but that nobody edits by hand. The product names the folder: the emulator reads none
// of its settings.

import { join } from 'node:path';

export const SANDBOX_STATE_FILE = 'sandbox.json';

/** The state file shared by `trk sandbox start` and `--sandbox` on any command, in trk's state folder. */
export function sandboxStateFile(stateDir: string): string {
  return join(stateDir, SANDBOX_STATE_FILE);
}
