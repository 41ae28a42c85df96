// Tests of file modes run under a umask of 0, which leaves open to all whatever trk does not set exactly: what they
// find is trk's doing, whatever the machine's umask.
import { statSync } from 'node:fs';
import { afterEach, beforeEach } from 'vitest';

/** Sets the umask to 0 around every test of the file that calls it. */
export function underOpenUmask(): void {
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
  });
}

/** The permission bits of a file or folder. */
export const modeOf = (p: string): number => statSync(p).mode & 0o777;
