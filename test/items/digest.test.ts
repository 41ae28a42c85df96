import { describe, expect, it } from 'vitest';
import { chunkDigest, LineHashes, textHash } from '../../src/items/digest.js';

describe('LineHashes', () => {
  it('keeps a hash per line across its blocks, 0 for a line never set', () => {
    const hashes = new LineHashes();
    const lines = [0, 1, 65_535, 65_536, 65_537, 300_000];
    for (const line of lines) hashes.set(line, textHash(`row ${line}`));
    for (const line of lines) expect(hashes.get(line)).toBe(textHash(`row ${line}`));
    expect(hashes.get(2)).toBe(0);
    expect(hashes.get(10_000_000)).toBe(0);
  });

  it('gives the chunk digests that the hashes themselves give', () => {
    const hashes = new LineHashes();
    const texts = Array.from({ length: 70_000 }, (_, i) => `number=RR${i}CN\u001f`);
    texts.forEach((t, i) => {
      hashes.set(i, textHash(t));
    });
    const chunk = Array.from({ length: 40 }, (_, i) => 65_520 + i);
    expect(chunkDigest(chunk.map((l) => hashes.get(l)))).toBe(chunkDigest(chunk.map((l) => textHash(texts[l]!))));
    expect(chunkDigest(chunk.map((l) => hashes.get(l)))).not.toBe(chunkDigest(chunk.map((l) => hashes.get(l + 1))));
  });
});
