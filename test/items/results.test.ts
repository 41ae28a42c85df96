import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../src/items/chunker.js';
import { InOrder } from '../../src/items/in-order.js';
import type { InputLayout } from '../../src/items/read.js';
import { ResultSink } from '../../src/items/results.js';
import type { ItemResults } from '@trk/service/types.js';
import { tempDir } from './helpers.js';

const layout = { format: 'csv', header: ['number'], hasHeader: true, width: 1, columns: ['number'], ignored: [] };

function chunk(index: number, numbers: string[]): Chunk {
  return {
    index,
    rows: numbers.map((n, i) => ({ line: index * 10 + i + 2, cells: [n], item: { number: n }, key: n })),
  };
}

const rejected = (number: string) => ({ number, error: { code: -18019903, message: 'carrier' } });

describe('ResultSink', () => {
  it("prints and writes the rejects file in the input's order, whichever request was answered first", async () => {
    const printed: ItemResults[] = [];
    const rejectsFile = path.join(tempDir(), 'rejects.csv');
    const sink = new ResultSink({
      warn: () => {},
      operation: 'register',
      layout: layout as unknown as InputLayout,
      total: 6,
      collect: false,
      rejectsFile,
      locate: (line) => `line ${line}`,
      onItems: (items) => printed.push(items),
    });
    await sink.open();
    const settle = (index: number, [ok, bad]: [string, string]) =>
      sink.settle(
        chunk(index, [ok, bad]),
        { accepted: [{ number: ok }], rejected: [rejected(bad)], already: [] },
        false,
      );
    // The second request answers first, as it does when it is the smaller one; the third, the last of all.
    settle(1, ['C', 'D']);
    expect(printed).toEqual([]);
    settle(0, ['A', 'B']);
    settle(2, ['E', 'F']);
    await sink.close();
    expect(printed.flatMap((p) => p.accepted.map((a) => a.number))).toEqual(['A', 'C', 'E']);
    expect(printed.flatMap((p) => p.rejected.map((r) => r.number))).toEqual(['B', 'D', 'F']);
    expect(
      readFileSync(rejectsFile, 'utf8')
        .split('\n')
        .slice(1, 4)
        .map((l) => l.split(',')[0]),
    ).toEqual(['B', 'D', 'F']);
    expect(sink.counts()).toEqual({ done: 6, total: 6, rejected: 3 });
  });

  it.each([
    [
      'Windows-1252: what the code page cannot hold in trk\'s own columns becomes "?"',
      { encoding: 'windows-1252', bom: false, delimiter: ';', lineEnding: '\r\n' },
      Buffer.from('number;input_line;error_code;error_message\r\nn\xb0 1;2;invalid;Y?lmaz ? \x80\r\n', 'latin1'),
    ],
    [
      'tab-separated: cells as they are, a tab or line break in a message a space',
      { encoding: 'utf-8', bom: false, delimiter: '\t', lineEnding: '\n' },
      Buffer.from('number\tinput_line\terror_code\terror_message\nn° 1\t2\tinvalid\t"=a" b c Yılmaz → €\n'),
    ],
  ] as const)("a rejects file in its input's dialect, %s", async (_what, dialect, bytes) => {
    const rejectsFile = path.join(tempDir(), 'rejects.csv');
    const sink = new ResultSink({
      warn: () => {},
      operation: 'register',
      layout: { ...layout, dialect } as unknown as InputLayout,
      total: 1,
      collect: false,
      rejectsFile,
      locate: (line) => `line ${line}`,
    });
    await sink.open();
    sink.invalid({ line: 2, cells: ['n° 1'] }, dialect.delimiter === '\t' ? '"=a"\tb\r\nc Yılmaz → €' : 'Yılmaz → €');
    await sink.close();
    expect(readFileSync(rejectsFile).toString('latin1')).toBe(bytes.toString('latin1'));
  });

  it('lets out at its end what waited for a request that never came (a chunk given up)', async () => {
    const sink = new ResultSink({
      warn: () => {},
      operation: 'register',
      layout: layout as unknown as InputLayout,
      total: 4,
      collect: true,
      locate: (line) => `line ${line}`,
    });
    sink.settle(
      chunk(1, ['C', 'D']),
      { accepted: [{ number: 'C' }, { number: 'D' }], rejected: [], already: [] },
      false,
    );
    expect(sink.results.accepted).toEqual([]);
    await sink.close();
    expect(sink.results.accepted.map((a) => a.number)).toEqual(['C', 'D']);
  });
  it('hands on numbers already in the state asked for as their own outcome, never as rejected', async () => {
    const rejectsFile = path.join(tempDir(), 'rejects.csv');
    const sink = new ResultSink({
      warn: () => {},
      operation: 'register',
      layout: layout as unknown as InputLayout,
      total: 3,
      collect: true,
      rejectsFile,
      locate: (line) => `line ${line}`,
    });
    await sink.open();
    const registered = { number: 'B', error: { code: -18019901, message: 'registered already' } };
    sink.settle(
      chunk(0, ['A', 'B', 'C']),
      { accepted: [{ number: 'A' }], rejected: [rejected('C')], already: [registered] },
      false,
    );
    await sink.close();
    expect(sink.results).toEqual({ accepted: [{ number: 'A' }], already: [registered], rejected: [rejected('C')] });
    expect(readFileSync(rejectsFile, 'utf8')).not.toMatch(/^B,/m);
    expect(sink.summary(0)).toMatchObject({ accepted: 1, already: 1, rejected: 1 });
  });
});

describe('InOrder', () => {
  it('releases each chunk once every earlier one is released; a late one as it comes', () => {
    const out: number[] = [];
    const order = new InOrder<number>((v) => out.push(v), 5);
    order.add(2, 2, 1);
    order.add(1, 1, 1);
    expect(out).toEqual([]);
    order.add(0, 0, 1);
    expect(out).toEqual([0, 1, 2]);
    // Chunk 3 held up: 4 to 9 wait until more than 5 items do, then go in their order; 3 goes when it comes.
    for (const i of [5, 4, 6, 7, 8]) order.add(i, i, 1);
    expect(out).toEqual([0, 1, 2]);
    order.add(9, 9, 1);
    expect(out).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
    order.add(3, 3, 1);
    order.add(10, 10, 1);
    expect(out).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9, 3, 10]);
  });

  it('never loses a chunk told twice (the part of a chunk sent again after a replay)', () => {
    const out: string[] = [];
    const order = new InOrder<string>((v) => out.push(v));
    order.add(1, 'replayed', 2);
    order.add(1, 'sent again', 1);
    order.add(0, 'first', 2);
    order.flush();
    expect(out.sort()).toEqual(['first', 'replayed', 'sent again']);
  });
});
