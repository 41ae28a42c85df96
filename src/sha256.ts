// SHA-256, with node:crypto taken through process.getBuiltinModule: an ES module's `import` of node:crypto
// builds its whole namespace, Web Crypto included, which costs every command that sends a request some 2 ms
// and 2 MB at start-up.

import type * as Crypto from 'node:crypto';

/** A SHA-256 hash to feed with update() and read with digest('hex'). */
export function createSha256(): Crypto.Hash {
  return (process.getBuiltinModule('node:crypto') as typeof Crypto).createHash('sha256');
}
