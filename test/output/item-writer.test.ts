// Item results written as chunks settle: the same bytes as printing them in one go, in flat memory; a failed run
// leaves output that cannot pass for a complete one.
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ItemResults } from '@trk/service/types.js';
import { createTestIO } from '../test-io.js';
import { ITEM_COLUMNS } from '../../src/output/columns.js';
import { createItemResultsWriter, printItemResults } from '../../src/output/render.js';
import { Spill } from '../../src/output/spill.js';

const item = (n: number) => ({ number: `RR${String(n).padStart(9, '0')}CN`, carrier: 3011, tag: `t${n}` });
const rejected = (n: number) => ({
  number: `LX${String(n).padStart(9, '0')}CN`,
  error: { code: -18019902, message: 'not registered' },
});

/** Three chunks' worth, accepted and rejected mixed as answers come. */
const CHUNKS: ItemResults[] = [
  { accepted: [item(1), item(2)], rejected: [rejected(1)] },
  { accepted: [], rejected: [rejected(2)] },
  { accepted: [item(3)], rejected: [] },
];
const merged = (chunks: readonly ItemResults[]): ItemResults => ({
  accepted: chunks.flatMap((c) => c.accepted),
  rejected: chunks.flatMap((c) => c.rejected),
});

async function streamed(
  format: 'json' | 'ndjson' | 'csv' | 'table' | undefined,
  chunks: readonly ItemResults[],
  tty = false,
) {
  const io = createTestIO({ tty });
  const writer = createItemResultsWriter(io, ITEM_COLUMNS, format);
  for (const c of chunks) writer.write(c);
  await writer.end();
  return io.stdoutText();
}

async function inOneGo(format: 'json' | 'ndjson' | 'csv' | 'table' | undefined, results: ItemResults, tty = false) {
  const io = createTestIO({ tty });
  await printItemResults(io, results, ITEM_COLUMNS, format);
  return io.stdoutText();
}

describe('item results written as they come', () => {
  it('JSON is exactly JSON.stringify of the merged results, accepted first', async () => {
    const out = await streamed('json', CHUNKS);
    expect(out).toBe(`${JSON.stringify(merged(CHUNKS), null, 2)}\n`);
    expect(await streamed('json', [{ accepted: [], rejected: [rejected(5)] }])).toBe(
      `${JSON.stringify({ accepted: [], rejected: [rejected(5)] }, null, 2)}\n`,
    );
    expect(await streamed('json', [])).toBe(`${JSON.stringify({ accepted: [], rejected: [] }, null, 2)}\n`);
  });

  it.each([['ndjson'], ['csv'], ['table'], [undefined]] as const)(
    '%s: the same as printing the merged results in one go',
    async (format) => {
      for (const tty of [false, true])
        expect(await streamed(format, CHUNKS, tty)).toBe(await inOneGo(format, merged(CHUNKS), tty));
    },
  );

  it('accepted items go out as their chunk settles; rejected ones at the end', async () => {
    const io = createTestIO();
    const writer = createItemResultsWriter(io, ITEM_COLUMNS, 'ndjson');
    writer.write(CHUNKS[0]!);
    expect(
      io
        .stdoutText()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).result),
    ).toEqual(['accepted', 'accepted']);
    await writer.end();
    expect(
      io
        .stdoutText()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).result),
    ).toEqual(['accepted', 'accepted', 'rejected']);
  });

  it('abort: JSON left open, CSV left in an open quote, nothing at all when nothing was written', async () => {
    const json = createTestIO();
    const jw = createItemResultsWriter(json, ITEM_COLUMNS, 'json');
    jw.write(CHUNKS[0]!);
    await jw.abort();
    expect(json.stdoutText()).toMatch(/^\{\n {2}"accepted": \[/);
    expect(() => JSON.parse(json.stdoutText())).toThrow();
    expect(json.stdoutText()).not.toContain('LX');

    const csv = createTestIO();
    const cw = createItemResultsWriter(csv, ITEM_COLUMNS, 'csv');
    cw.write(CHUNKS[0]!);
    await cw.abort();
    expect(() => parse(csv.stdoutText())).toThrow();

    for (const format of ['json', 'csv', 'ndjson', undefined] as const) {
      const io = createTestIO();
      const w = createItemResultsWriter(io, ITEM_COLUMNS, format);
      w.write({ accepted: [], rejected: [rejected(1)] });
      await w.abort();
      expect(io.stdoutText(), String(format)).toBe('');
    }
  });
});

describe('numbers already in the state asked for', () => {
  const already = (n: number) => ({
    number: `RA${String(n).padStart(9, '0')}CN`,
    carrier: 3011,
    error: { code: -18019901, message: 'registered already' },
  });
  const WRITES: ItemResults[] = [
    { accepted: [item(1)], already: [already(1)], rejected: [rejected(1)] },
    { accepted: [item(2)], already: [already(2)], rejected: [] },
  ];

  async function written(format: 'json' | 'ndjson' | 'csv' | 'table' | 'ids' | undefined, tty = false) {
    const io = createTestIO({ tty });
    const writer = createItemResultsWriter(io, ITEM_COLUMNS, format, undefined, { already: true });
    for (const c of WRITES) writer.write(c);
    await writer.end();
    return io.stdoutText();
  }

  it('JSON: their own array between the accepted and the rejected, always there for a write', async () => {
    expect(JSON.parse(await written('json'))).toEqual({
      accepted: [item(1), item(2)],
      already: [already(1), already(2)],
      rejected: [rejected(1)],
    });
    const io = createTestIO();
    const writer = createItemResultsWriter(io, ITEM_COLUMNS, 'json', undefined, { already: true });
    await writer.end();
    expect(JSON.parse(io.stdoutText())).toEqual({ accepted: [], already: [], rejected: [] });
  });

  it('NDJSON, CSV and tables: result "already", after the accepted, before the rejected; not among ids', async () => {
    const lines = (await written('ndjson')).trim().split('\n');
    expect(lines.map((l) => [JSON.parse(l).result, JSON.parse(l).number])).toEqual([
      ['accepted', item(1).number],
      ['accepted', item(2).number],
      ['already', already(1).number],
      ['already', already(2).number],
      ['rejected', rejected(1).number],
    ]);
    const rows = parse(await written('csv'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.result)).toEqual(['accepted', 'accepted', 'already', 'already', 'rejected']);
    expect(rows[2]).toMatchObject({ error_code: '-18019901', error_message: 'registered already' });
    expect(await written(undefined)).toMatch(/^RA000000001CN\t3011\talready\t-18019901\t/m);
    expect(await written('table', true)).toMatch(/^RA000000001CN +3011 +already +-18019901 /m);
    expect(await written('ids')).not.toContain('RA0');
  });
});

describe('held-back items', () => {
  it('beyond the memory ceiling go to a private file, come back in order, and the file goes', async () => {
    const spill = new Spill(200);
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('trk-output-')).length;
    for (let n = 0; n < 50; n++) spill.push(rejected(n));
    const files = readdirSync(tmpdir()).filter((f) => f.startsWith('trk-output-'));
    expect(files.length).toBe(before + 1);
    const back: unknown[] = [];
    for await (const x of spill.drain()) back.push(x);
    expect(back).toEqual(Array.from({ length: 50 }, (_, n) => rejected(n)));
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('trk-output-')).length).toBe(before);
  });

  it('discard removes the file of an aborted output', () => {
    const spill = new Spill(10);
    spill.push(rejected(1));
    spill.push(rejected(2));
    const dir = readdirSync(tmpdir()).filter((f) => f.startsWith('trk-output-'));
    spill.discard();
    for (const d of dir) expect(existsSync(`${tmpdir()}/${d}/items.ndjson`)).toBe(false);
  });
});
