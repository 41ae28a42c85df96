import { describe, expect, it } from 'vitest';
import { keysIn, pieces, upsertRecords } from '../../src/store/sql.js';

describe('statements of many rows', () => {
  it('cuts rows into pieces of 64 and powers of two, in order, each row once', () => {
    const rows = Array.from({ length: 205 }, (_, i) => i);
    const cut = pieces(rows);
    expect(cut.map((p) => p.length)).toEqual([64, 64, 64, 8, 4, 1]);
    expect(cut.flat()).toEqual(rows);
    expect(pieces([])).toEqual([]);
  });

  it('gives every count of rows one of a few shapes of statement', () => {
    const shapes = new Set<string>();
    for (let n = 1; n <= 300; n++)
      for (const p of pieces(Array.from({ length: n }))) shapes.add(upsertRecords(p.length));
    expect(shapes.size).toBe(7);
  });

  it('pads a list of keys to a power of two with its last key', () => {
    const keys = [1, 2, 3, 4, 5].map((i) => ({ number: `N${i}`, carrier: i }));
    const { where, params } = keysIn(keys);
    expect(where.match(/\(\?, CAST\(\? AS INTEGER\)\)/g)).toHaveLength(8);
    expect(params).toEqual(['N1', 1, 'N2', 2, 'N3', 3, 'N4', 4, 'N5', 5, 'N5', 5, 'N5', 5, 'N5', 5]);
    const shapes = new Set(
      Array.from({ length: 200 }, (_, n) => keysIn(keys.slice(0, 1).concat(Array(n).fill(keys[1]))).where),
    );
    expect(shapes.size).toBe(9);
  });
});
