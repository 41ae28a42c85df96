// A damaged mirror, as both engines say it (sqlite.ts, postgres.ts): what is damaged, and the way out, a new one,
// synced. Which files were found damaged is remembered by the mirror's opening (src/mirror/damaged-files.ts).

import { TrkError } from '../core/errors.js';

const WAY_OUT = {
  file:
    'make a new one with "trk sync --full --db NEW.db" and read that, or move this one aside and run ' +
    '"trk sync --full"',
  database: 'fill a new database with "trk sync --full --db postgres://.../NEW" and read that (an index: REINDEX)',
};

/** The mirror found damaged (`subject`: "the mirror FILE", or its database), with the way out: a new one, synced. */
export function damagedMirror(subject: string, detail: string, kind: keyof typeof WAY_OUT = 'file'): TrkError {
  return new TrkError(`${subject} is damaged (${detail})`, { hint: WAY_OUT[kind] });
}
