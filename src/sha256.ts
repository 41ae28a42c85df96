// SHA-256. Streams (the digest of an input file, which names its run) use node:crypto, taken through
// process.getBuiltinModule: an ES module's `import` of node:crypto builds its whole namespace, Web Crypto included.
// Even so, loading node:crypto costs a start 2-3 ms, which every request would pay for the name of the rate budget's
// file alone; short texts such as that one are hashed here instead, by the standard's own steps (FIPS 180-4),
// and a test checks them against node:crypto.

import type * as Crypto from 'node:crypto';

/** A SHA-256 hash to feed with update() and read with digest('hex'). */
export function createSha256(): Crypto.Hash {
  return (process.getBuiltinModule('node:crypto') as typeof Crypto).createHash('sha256');
}

/** The first 32 bits of the fractional part of `x`. */
const fraction32 = (x: number): number => Math.floor((x - Math.floor(x)) * 2 ** 32) >>> 0;
const PRIMES = (() => {
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  return primes;
})();
/** Round constants: cube roots of the first 64 primes. */
const K = Uint32Array.from(PRIMES, (p) => fraction32(Math.cbrt(p)));
/** Initial hash value: square roots of the first 8 primes. */
const H0 = Uint32Array.from(PRIMES.slice(0, 8), (p) => fraction32(Math.sqrt(p)));

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** SHA-256 of the UTF-8 bytes of a short text, as hex; meant for texts of a few hundred bytes (no streaming). */
export function sha256Hex(text: string): string {
  const data = Buffer.from(text, 'utf8');
  // The message, a 1 bit, zeros, and its length in bits as 64 bits: a whole number of 64-byte blocks.
  const blocks = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  blocks.set(data);
  blocks[data.length] = 0x80;
  const view = new DataView(blocks.buffer);
  view.setUint32(blocks.length - 8, Math.floor(data.length / 2 ** 29));
  view.setUint32(blocks.length - 4, (data.length * 8) >>> 0);
  const h = Uint32Array.from(H0);
  const w = new Uint32Array(64);
  for (let at = 0; at < blocks.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15]!, 7) ^ rotr(w[i - 15]!, 18) ^ (w[i - 15]! >>> 3);
      const s1 = rotr(w[i - 2]!, 17) ^ rotr(w[i - 2]!, 19) ^ (w[i - 2]! >>> 10);
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    // Uint32Array keeps each sum modulo 2^32.
    [a, b, c, d, e, f, g, hh].forEach((v, i) => (h[i] = h[i]! + v));
  }
  return Array.from(h, (x) => x.toString(16).padStart(8, '0')).join('');
}
