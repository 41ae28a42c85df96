// Files that hold customers' data or the API key are their owner's alone: 0600, in a 0700 folder, whether trk
// creates them or finds them otherwise (a mirror copied with cp, a folder made by hand or by an older trk). Every
// writer of such a file goes through here.
//
// The rule (a decision):
//   - a file trk writes that holds personal data (the profiles file, the mirror and its -wal and -shm, saved
//     notifications, the forward queue, journals, run records, rows logs, what a file's runs sent, rejects files,
//     the copy of stdin) is created 0600, and set to 0600 when trk finds it open to others;
//   - a folder trk owns (the folders it keeps such files in: its config folder, the mirrors/ of its data folder,
//     the journals/, runs/, sent/, spool/, rejects/ and webhook-queue/ of its state folder; a --save folder it
//     creates) is created 0700, and set to 0700 when found open to others (ownFolder);
//   - a folder the user named that was there already (the folder of `--db FILE` or `--rejects FILE`, a --save
//     folder that exists) is left as it is: it may hold other things, shared on purpose. What trk writes in it is
//     0600 all the same. A missing one is created 0700, its missing parents too (ensureFolder).
// A mode changed is said in one warning naming the path and its mode before and after; the next run finds it
// private and says nothing. Modes are set with chmod where a umask could leave them otherwise. Windows has no such
// modes: nothing is checked there.

import path from 'node:path';
import { fileReason } from './errors.js';
import { nodeFs } from './node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { chmodSync, mkdirSync, statSync } = nodeFs();

/** Where a warning goes: stderr, shown even with --quiet. */
export type Warn = (line: string) => void;

/** A file of personal data: its owner reads and writes it, no one else. */
export const PRIVATE_FILE_MODE = 0o600;
/** A folder of such files: its owner alone lists and enters it. */
export const PRIVATE_FOLDER_MODE = 0o700;

/** What the warning says a file holds, unless told otherwise. */
const CUSTOMER_DATA = "customers' data";

/**
 * Sets a file or folder that others may read or enter to 0600 (a folder to 0700), and says so through `warn`;
 * `what` names it (`mirror file`). Nothing is done when it is missing or private already.
 */
export function keepPrivate(target: string, what: string, warn: Warn, holds = CUSTOMER_DATA): void {
  if (process.platform === 'win32') return;
  let current: number;
  let mode: number;
  try {
    const st = statSync(target);
    current = st.mode & 0o777;
    mode = st.isDirectory() ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
  } catch {
    return;
  }
  if ((current & 0o077) === 0) return;
  const was = `the ${what} ${target} could be read by others (mode ${octal(current)}), and it holds ${holds}`;
  try {
    chmodSync(target, mode);
    warn(`warning: ${was}: set to ${octal(mode)}`);
  } catch (err) {
    const fix = `chmod ${octal(mode)} ${target}`;
    warn(`warning: ${was}; it could not be set to ${octal(mode)} (${fileReason(err)}): ${fix}`);
  }
}

/** A folder trk owns: created 0700 with its missing parents, or set to 0700 when found open to others. */
export function ownFolder(dir: string, what: string, warn: Warn): string {
  if (!createFolder(dir)) keepPrivate(dir, what, warn);
  return dir;
}

/** A folder that may be the user's: created 0700 when missing (its missing parents too), else left as it is. */
export function ensureFolder(dir: string): string {
  createFolder(dir);
  return dir;
}

/** Creates `dir` and its missing parents, each 0700 whatever the umask; false when `dir` was there already. */
function createFolder(dir: string): boolean {
  const target = path.resolve(dir);
  const first = mkdirSync(target, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  if (first === undefined) return false;
  // mkdir's mode passes through the umask: each folder made here is set exactly, from the deepest up.
  for (let d = target; ; d = path.dirname(d)) {
    chmodSync(d, PRIVATE_FOLDER_MODE);
    if (d === first || path.dirname(d) === d) break;
  }
  return true;
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
