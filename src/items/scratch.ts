// Scratch files of a long input's checking pass (the repeat finder's partitions, the line hashes): each in a
// private folder of its own inside the run's spool folder, which is made first where it is missing (a file
// input never made it). A folder that cannot be made or written is named in one line, with what to do.

import path from 'node:path';
import { tmpdir } from 'node:os';
import { ensureFolder } from '../core/private-files.js';
import { TrkError } from '../core/errors.js';
import { nodeFs } from '../core/node.js';
import { isAlive, pruneFiles } from './leftovers.js';
import { fsReason } from './source.js';

const NAME = /^trk-(?:rows|lines)-(\d+)-/;
/** A dead run's folder older than this goes even if its process id was taken since. */
const PRUNE_MS = 24 * 3600 * 1000;

/** A new private folder in `parent` (the system's temporary folder by default): `trk-<what>-<pid>-<suffix>`. */
export function scratchDir(parent: string | undefined, what: 'rows' | 'lines'): string {
  const base = parent ?? tmpdir();
  try {
    // The system's temporary folder by default: anyone's, so never changed; what is made in it is private.
    ensureFolder(base);
    pruneDeadRuns(base);
    return nodeFs().mkdtempSync(path.join(base, `trk-${what}-${process.pid}-`));
  } catch (err) {
    throw cannotKeep(base, err);
  }
}

function pruneDeadRuns(dir: string): void {
  pruneFiles(dir, (name, st) => {
    const pid = Number(NAME.exec(name)?.[1]);
    return pid > 0 && pid !== process.pid && (!isAlive(pid) || Date.now() - st.mtimeMs > PRUNE_MS);
  });
}

/** Writes `data` at `position` of a scratch file in `dir`. */
export function scratchWrite(dir: string, fd: number, data: NodeJS.ArrayBufferView, bytes: number, position: number) {
  try {
    nodeFs().writeSync(fd, data, 0, bytes, position);
  } catch (err) {
    throw cannotKeep(path.dirname(dir), err);
  }
}

function cannotKeep(dir: string, err: unknown): TrkError {
  return new TrkError(`cannot keep the checking pass's temporary files in ${dir}: ${fsReason(err)}`, {
    hint: 'free some space there, or set TRK_STATE_DIR to another folder',
  });
}
