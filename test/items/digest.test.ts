import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { chunkDigest, LineHashes, textHash } from '../../src/items/digest.js';
import { tempDir } from './helpers.js';

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

  it('keeps the hashes of a long input in a temporary file, read back in any order, and removes it', () => {
    const dir = tempDir();
    const hashes = new LineHashes(dir);
    const lines = Array.from({ length: 400_000 }, (_, i) => 1 + i * 3); // up to line 1,199,998: 19 blocks
    for (const line of lines) hashes.set(line, textHash(`row ${line}`));
    expect(readdirSync(dir)).toHaveLength(1);
    const sample = [...lines.slice(0, 50), ...lines.slice(-50), ...lines.filter((_, i) => i % 997 === 0).reverse()];
    for (const line of sample) expect(hashes.get(line)).toBe(textHash(`row ${line}`));
    expect(hashes.get(lines[200_000]! + 1)).toBe(0);
    expect(hashes.get(5_000_000)).toBe(0);
    hashes.dispose();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps a short input in memory', () => {
    const dir = tempDir();
    const hashes = new LineHashes(dir);
    for (let line = 1; line <= 200_000; line++) hashes.set(line, line);
    expect(hashes.get(199_999)).toBe(199_999);
    expect(readdirSync(dir)).toEqual([]);
  });
});
