import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSha256, sha256Hex } from '../src/sha256.js';

describe('sha256Hex', () => {
  it('matches the standard examples', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('matches node:crypto at every length around the block boundaries, and for text beyond ASCII', () => {
    for (let n = 0; n <= 200; n++) {
      const text = 'x'.repeat(n);
      expect(sha256Hex(text), `length ${n}`).toBe(createHash('sha256').update(text).digest('hex'));
    }
    for (const text of ['https://api.example.test\u0000ABCDEF0123456789', 'Größe 📦 配送', '\u0000'.repeat(64)]) {
      expect(sha256Hex(text)).toBe(createSha256().update(text).digest('hex'));
    }
  });
});
