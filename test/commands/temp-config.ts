// A private config folder for the commands that write profiles (auth login and logout, config set and unset).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** An environment whose TRK_CONFIG_DIR is a new temporary folder. */
export const tempEnv = () => ({ TRK_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'trk-cfg-')) });
