import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../src/items/chunker.js';
import type { InputLayout } from '../../src/items/read.js';
import { ResultSink } from '../../src/items/results.js';

const layout = { format: 'csv', header: ['number'], hasHeader: true, width: 1, columns: ['number'], ignored: [] };

function chunk(index: number, numbers: string[]): Chunk {
  return {
    index,
    rows: numbers.map((n, i) => ({ line: index * 10 + i + 2, cells: [n], item: { number: n }, key: n })),
  };
}

describe('ResultSink', () => {
  it("lists the items in the input's order, whichever request was answered first", () => {
    const sink = new ResultSink({
      operation: 'register',
      layout: layout as unknown as InputLayout,
      total: 4,
      collect: true,
      locate: (line) => `line ${line}`,
    });
    const rejected = (number: string) => ({ number, error: { code: -18019903, message: 'carrier' } });
    // The second request answers first, as it does when it is the smaller one.
    sink.settle(chunk(1, ['C', 'D']), { accepted: [{ number: 'C' }], rejected: [rejected('D')], already: [] }, false);
    sink.settle(chunk(0, ['A', 'B']), { accepted: [{ number: 'A' }], rejected: [rejected('B')], already: [] }, false);
    expect(sink.results.accepted.map((a) => a.number)).toEqual(['A', 'C']);
    expect(sink.results.rejected.map((r) => r.number)).toEqual(['B', 'D']);
  });
});
