import { stripVTControlCharacters } from 'node:util';
import { Chalk } from 'chalk';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestIO, type TestIO } from '../test-io.js';
import {
  createRowWriter,
  printItemResults,
  printObject,
  printRows,
  resolveFormat,
  type Column,
} from '../../src/output/render.js';
import { ITEM_COLUMNS, QUOTA_FIELDS, REGISTER_ITEM_COLUMNS } from '../../src/output/columns.js';
import { fixture } from './fixtures.js';
import { loadTextWidths } from '../../src/output/width.js';

interface Row {
  id: number;
  name: string;
  when: string | null;
  ok: boolean;
}

const COLUMNS: Column<Row>[] = [
  { key: 'id', header: 'ID', value: (r) => r.id },
  { key: 'name', header: 'NAME', value: (r) => r.name, style: (t, _r, c) => c.red(t) },
  { key: 'when', header: 'WHEN', value: (r) => r.when, display: (r) => (r.when ? r.when.slice(0, 10) : '') },
  { key: 'ok', header: 'OK', value: (r) => r.ok },
];

const ROWS: Row[] = [
  { id: 1, name: 'alpha', when: '2026-06-30T18:01:12Z', ok: true },
  { id: 2, name: 'beta, "quoted"', when: null, ok: false },
];
const RAW = [
  { id: 1, extra: { nested: [1, 2] } },
  { id: 2, extra: null },
];

/** A test IO whose stdout chunks are counted, and with a chosen colour level. */
function capture(opts: { tty: boolean; level?: 0 | 1 | 2 | 3; columns?: number }): TestIO & { chunks: string[] } {
  const base = createTestIO({ tty: opts.tty, columns: opts.columns ?? 100 });
  const chunks: string[] = [];
  return {
    ...base,
    color: new Chalk({ level: opts.level ?? 0 }),
    out: (t: string) => {
      chunks.push(t);
      base.out(t);
    },
    chunks,
  };
}

const ESC = '\x1b';

// Widths as a terminal draws them, as for a command laying out text for people (src/cli.ts loads them).
beforeAll(loadTextWidths);

describe('format resolution', () => {
  it('automatic is a table on a terminal and TSV when piped', () => {
    expect(resolveFormat(createTestIO({ tty: true }), undefined)).toBe('table');
    expect(resolveFormat(createTestIO({ tty: false }), undefined)).toBe('tsv');
    expect(resolveFormat(createTestIO({ tty: false }), 'table')).toBe('table');
    expect(resolveFormat(createTestIO({ tty: true }), 'json')).toBe('json');
  });
});

describe('printRows', () => {
  it('on a terminal: a table with header, display text, and colour from io.color', async () => {
    const io = capture({ tty: true, level: 1 });
    await printRows(io, ROWS, COLUMNS, undefined, RAW);
    const out = io.stdoutText();
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('ID');
    expect(lines[0]).toContain('NAME');
    expect(out).toContain(`${ESC}[31malpha${ESC}[39m`);
    expect(out).toContain('2026-06-30');
    expect(out).not.toContain('18:01:12');
  });

  it('table without colour when io.color has no level', async () => {
    const io = capture({ tty: true, level: 0 });
    await printRows(io, ROWS, COLUMNS, undefined);
    expect(io.stdoutText()).not.toContain(ESC);
    expect(io.stdoutText()).toMatch(/^ID\s+NAME\s+WHEN\s+OK\n1\s+alpha\s+2026-06-30\s+true\n/);
  });

  it('piped: tab-separated rows, no header, no colour, values as sent (ISO times)', async () => {
    const io = capture({ tty: false, level: 0 });
    await printRows(io, ROWS, COLUMNS, undefined, RAW);
    expect(io.stdoutText()).toBe('1\talpha\t2026-06-30T18:01:12Z\ttrue\n2\tbeta, "quoted"\t\tfalse\n');
  });

  it('TSV is streamed per write and never has a header, even when empty', async () => {
    const io = capture({ tty: false });
    const w = createRowWriter(io, COLUMNS, undefined);
    w.write([ROWS[0]!]);
    expect(io.stdoutText()).toBe('1\talpha\t2026-06-30T18:01:12Z\ttrue\n');
    await w.end();
    const empty = capture({ tty: false });
    await printRows(empty, [], COLUMNS, undefined);
    expect(empty.stdoutText()).toBe('');
  });

  it('table forced when piped: header, no colour unless io.color has a level', async () => {
    const plain = capture({ tty: false, level: 0 });
    await printRows(plain, ROWS, COLUMNS, 'table');
    expect(plain.stdoutText().split('\n')[0]).toMatch(/^ID\s+NAME/);
    expect(plain.stdoutText()).not.toContain(ESC);
    const forced = capture({ tty: false, level: 1 });
    await printRows(forced, ROWS, COLUMNS, 'table');
    expect(forced.stdoutText()).toContain(`${ESC}[31m`);
  });

  it('an empty table prints nothing', async () => {
    const io = capture({ tty: true });
    await printRows(io, [], COLUMNS, undefined);
    expect(io.stdoutText()).toBe('');
  });

  it('json: the raw items pretty-printed with 2 spaces', async () => {
    const io = capture({ tty: true });
    await printRows(io, ROWS, COLUMNS, 'json', RAW);
    expect(io.stdoutText()).toBe(`${JSON.stringify(RAW, null, 2)}\n`);
  });

  it('json without raw items prints the columns by key', async () => {
    const io = capture({ tty: false });
    await printRows(io, ROWS, COLUMNS, 'json');
    expect(JSON.parse(io.stdoutText())).toEqual([
      { id: 1, name: 'alpha', when: '2026-06-30T18:01:12Z', ok: true },
      { id: 2, name: 'beta, "quoted"', when: null, ok: false },
    ]);
  });

  it('json: an empty list is []', async () => {
    const io = capture({ tty: false });
    await printRows(io, [], COLUMNS, 'json', []);
    expect(io.stdoutText()).toBe('[]\n');
  });

  it('json streams one valid array across many writes, without holding it back', async () => {
    const io = capture({ tty: false });
    const w = createRowWriter(io, COLUMNS, 'json');
    const all: unknown[] = [];
    for (let page = 0; page < 50; page++) {
      const raw = Array.from({ length: 40 }, (_, i) => ({ n: page * 40 + i, s: `x${i}`, deep: { a: [i] } }));
      const rows = raw.map((r) => ({ id: r.n, name: r.s, when: null, ok: true }));
      all.push(...raw);
      w.write(rows, raw);
      if (page === 0) expect(io.stdoutText().startsWith('[\n  {')).toBe(true);
    }
    // Output grew page by page, not in one piece at the end.
    expect(io.chunks.length).toBeGreaterThanOrEqual(50);
    await w.end();
    const text = io.stdoutText();
    expect(JSON.parse(text)).toEqual(all);
    expect(text).toBe(`${JSON.stringify(all, null, 2)}\n`);
  });

  it('ndjson: one compact raw item per line', async () => {
    const io = capture({ tty: true });
    const w = createRowWriter(io, COLUMNS, 'ndjson');
    w.write([ROWS[0]!], [RAW[0]]);
    w.write([ROWS[1]!], [RAW[1]]);
    await w.end();
    const lines = io.stdoutText().split('\n');
    expect(lines).toEqual([JSON.stringify(RAW[0]), JSON.stringify(RAW[1]), '']);
  });

  it('csv: header of column keys, quoting by csv-stringify, booleans as true/false', async () => {
    const io = capture({ tty: true });
    await printRows(io, ROWS, COLUMNS, 'csv', RAW);
    const text = io.stdoutText();
    expect(text.split('\n')[0]).toBe('id,name,when,ok');
    expect(text).toContain('"beta, ""quoted"""');
    expect(parse(text, { columns: true })).toEqual([
      { id: '1', name: 'alpha', when: '2026-06-30T18:01:12Z', ok: 'true' },
      { id: '2', name: 'beta, "quoted"', when: '', ok: 'false' },
    ]);
  });

  it('csv: an empty list still has the header', async () => {
    const io = capture({ tty: false });
    await printRows(io, [], COLUMNS, 'csv');
    expect(io.stdoutText()).toBe('id,name,when,ok\n');
  });

  it('csv streams: rows appear as they are written, the header once', async () => {
    const io = capture({ tty: false });
    const w = createRowWriter(io, COLUMNS, 'csv');
    w.write([ROWS[0]!]);
    // csv-stringify loads lazily; once it has, every write goes straight out.
    await vi.waitFor(() => expect(io.stdoutText()).toBe('id,name,when,ok\n1,alpha,2026-06-30T18:01:12Z,true\n'), {
      timeout: 5000,
      interval: 5,
    });
    for (let i = 0; i < 20; i++) w.write([{ ...ROWS[0]!, id: 100 + i }]);
    const before = io.chunks.length;
    expect(before).toBeGreaterThanOrEqual(21);
    await w.end();
    const records = parse(io.stdoutText(), { columns: true }) as { id: string }[];
    expect(records.map((r) => r.id)).toEqual(['1', ...Array.from({ length: 20 }, (_, i) => String(100 + i))]);
  });

  it('terminal text is sanitised in tables and TSV; JSON and CSV keep the data', async () => {
    const evil: Row = {
      id: 9,
      name: 'a\x1b]8;;https://evil.example/\x1b\\b\x1b]8;;\x1b\\\x1b[31mc\u202ed\x9b2J\te\nf',
      when: null,
      ok: true,
    };
    const table = capture({ tty: true, level: 0 });
    await printRows(table, [evil], COLUMNS, undefined);
    expect(table.stdoutText()).not.toContain(ESC);
    expect(table.stdoutText()).not.toContain('\x9b');
    expect(table.stdoutText()).not.toContain('\u202e');
    expect(table.stdoutText()).not.toContain('evil.example');
    expect(table.stdoutText()).toContain('abcd e f');

    const tsv = capture({ tty: false });
    await printRows(tsv, [evil], COLUMNS, undefined);
    expect(tsv.stdoutText()).toBe('9\tabcd e f\t\ttrue\n');

    const json = capture({ tty: false });
    await printRows(json, [evil], COLUMNS, 'json', [{ name: evil.name }]);
    expect(json.stdoutText()).not.toContain(ESC);
    expect(JSON.parse(json.stdoutText())).toEqual([{ name: evil.name }]);

    const csv = capture({ tty: false });
    await printRows(csv, [evil], COLUMNS, 'csv');
    expect((parse(csv.stdoutText(), { columns: true }) as { name: string }[])[0]!.name).toBe(evil.name);
  });

  it('csv printed straight to a terminal is sanitised; redirected it keeps the data', async () => {
    const evil: Row = { id: 9, name: 'x\x1b[31mEVIL\x1b]0;title\x07\u202ey', when: null, ok: true };
    const onTerminal = capture({ tty: true });
    await printRows(onTerminal, [evil], COLUMNS, 'csv');
    expect(onTerminal.stdoutText()).not.toContain(ESC);
    expect(onTerminal.stdoutText()).not.toContain('\u202e');
    expect((parse(onTerminal.stdoutText(), { columns: true }) as { name: string }[])[0]!.name).toBe('xEVILy');
    const toFile = capture({ tty: false });
    await printRows(toFile, [evil], COLUMNS, 'csv');
    expect((parse(toFile.stdoutText(), { columns: true }) as { name: string }[])[0]!.name).toBe(evil.name);
  });

  it('colours only our own styling: carrier text cannot inject escape codes into a coloured table', async () => {
    const io = capture({ tty: true, level: 1 });
    await printRows(io, [{ ...ROWS[0]!, name: 'x\x1b[5my' }], COLUMNS, undefined);
    expect(io.stdoutText()).toContain(`${ESC}[31mxy${ESC}[39m`);
    expect(io.stdoutText()).not.toContain(`${ESC}[5m`);
  });

  it('drops ranked columns, highest rank first, when the table is wider than the terminal', async () => {
    const cols: Column<Row>[] = [
      { key: 'id', header: 'ID', value: (r) => r.id },
      { key: 'name', header: 'NAME', value: () => 'n'.repeat(20), wide: 1 },
      { key: 'when', header: 'WHEN', value: () => 'w'.repeat(20), wide: 2 },
      { key: 'ok', header: 'OK', value: () => '', wide: 3 },
    ];
    const narrow = capture({ tty: true, columns: 30 });
    await printRows(narrow, ROWS, cols, undefined);
    const head = narrow.stdoutText().split('\n')[0]!;
    expect(head).toMatch(/^ID\s+NAME$/);
    // Empty ranked columns are left out even when there is room; CSV keeps every column.
    const wide = capture({ tty: true, columns: 200 });
    await printRows(wide, ROWS, cols, undefined);
    expect(wide.stdoutText().split('\n')[0]).toMatch(/^ID\s+NAME\s+WHEN$/);
    const csv = capture({ tty: true, columns: 30 });
    await printRows(csv, ROWS, cols, 'csv');
    expect(csv.stdoutText().split('\n')[0]).toBe('id,name,when,ok');
  });

  it('shortens a long cell with … instead of exceeding the width', async () => {
    const io = capture({ tty: true, columns: 40 });
    const long = 'word '.repeat(30).trim();
    const cols: Column<Row>[] = [COLUMNS[0]!, { ...COLUMNS[1]!, shrink: 8 }];
    await printRows(io, [{ ...ROWS[0]!, name: long }], cols, undefined);
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^1 +word word .*…$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });
});

describe('printItemResults', () => {
  const results = fixture('doc-v2/register_mixed.json').data;

  it('json: {"accepted":[...],"rejected":[...]} as sent', async () => {
    const io = capture({ tty: true });
    await printItemResults(io, results, REGISTER_ITEM_COLUMNS, 'json');
    expect(io.stdoutText()).toBe(
      `${JSON.stringify({ accepted: results.accepted, rejected: results.rejected }, null, 2)}\n`,
    );
  });

  it('ndjson: one line per item with result first', async () => {
    const io = capture({ tty: false });
    await printItemResults(io, results, REGISTER_ITEM_COLUMNS, 'ndjson');
    const lines = io
      .stdoutText()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({ result: 'accepted', ...results.accepted[0] });
    expect(Object.keys(lines[0])[0]).toBe('result');
    expect(lines[1]).toMatchObject({ result: 'rejected', number: '1234', error: { code: -18010012 } });
  });

  it('csv: stable columns, one row per item, errors on rejected rows', async () => {
    const io = capture({ tty: false });
    await printItemResults(io, results, REGISTER_ITEM_COLUMNS, 'csv');
    const records = parse(io.stdoutText(), { columns: true });
    expect(io.stdoutText().split('\n')[0]).toBe('number,carrier,origin,result,error_code,error_message,tag');
    expect(records).toEqual([
      {
        number: 'AA123456789BR',
        carrier: '2151',
        origin: '2',
        result: 'accepted',
        error_code: '',
        error_message: '',
        tag: 'order-1042',
      },
      {
        number: '1234',
        carrier: '0',
        origin: '',
        result: 'rejected',
        error_code: '-18010012',
        error_message: "The format of '1234' is invalid.",
        tag: '',
      },
    ]);
  });

  it('piped automatic: TSV lines; a terminal: table with coloured results', async () => {
    const tsv = capture({ tty: false });
    await printItemResults(tsv, results, ITEM_COLUMNS, undefined);
    expect(tsv.stdoutText()).toBe(
      "AA123456789BR\t2151\taccepted\t\t\torder-1042\n1234\t0\trejected\t-18010012\tThe format of '1234' is " +
        'invalid.\t\n',
    );
    const tty = capture({ tty: true, level: 1 });
    await printItemResults(tty, results, ITEM_COLUMNS, undefined);
    expect(tty.stdoutText()).toContain(`${ESC}[32maccepted${ESC}[39m`);
    expect(tty.stdoutText()).toContain(`${ESC}[31mrejected${ESC}[39m`);
    expect(stripVTControlCharacters(tty.stdoutText()).split('\n')[0]).toMatch(
      /^NUMBER\s+CARRIER\s+RESULT\s+ERROR\s+MESSAGE/,
    );
    expect(tty.stdoutText()).toContain(`${ESC}[1mNUMBER${ESC}[22m`);
  });

  it('reads carrier codes sent as strings, and v1 items without carrier or tag', async () => {
    const io = capture({ tty: false });
    const yanwen = fixture('doc-v2/gettrackinfo_yanwen_190012.json').data;
    await printItemResults(io, { accepted: [], rejected: yanwen.rejected }, ITEM_COLUMNS, 'csv');
    expect(parse(io.stdoutText(), { columns: true })[0]).toMatchObject({ carrier: '3011', error_code: '-18019902' });
    const v1 = capture({ tty: false });
    await printItemResults(v1, fixture('real-v1/register_existing_response.json').data, ITEM_COLUMNS, undefined);
    expect(v1.stdoutText()).toMatch(/^1234567890\t\trejected\t-18019901\t/);
  });

  it('adds result columns to a column set that lacks them', async () => {
    const io = capture({ tty: false });
    const cols: Column<{ number?: unknown }>[] = [{ key: 'number', header: 'NUMBER', value: (r) => String(r.number) }];
    await printItemResults(
      io,
      { accepted: [{ number: 'A1' }], rejected: [{ number: 'B2', error: { code: -1, message: 'no' } }] },
      cols,
      'csv',
    );
    expect(io.stdoutText()).toBe('number,result,error_code,error_message\nA1,accepted,,\nB2,rejected,-1,no\n');
  });
});

describe('printObject', () => {
  const quota = fixture('doc-v2/getquota.json').data;

  it('json: the object as sent; ndjson: one line', async () => {
    const io = capture({ tty: true });
    await printObject(io, quota, QUOTA_FIELDS, 'json');
    expect(io.stdoutText()).toBe(`${JSON.stringify(quota, null, 2)}\n`);
    const nd = capture({ tty: true });
    await printObject(nd, { ...quota, later_field: 1 }, QUOTA_FIELDS, 'ndjson');
    expect(nd.stdoutText()).toBe(`${JSON.stringify({ ...quota, later_field: 1 })}\n`);
  });

  it('terminal: field/value table with headers in words', async () => {
    const io = capture({ tty: true });
    await printObject(io, quota, QUOTA_FIELDS, undefined);
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^FIELD\s+VALUE$/);
    expect(lines).toContainEqual(expect.stringMatching(/^Quota left\s+1,098$/));
    expect(lines).toHaveLength(QUOTA_FIELDS.length + 1);
  });

  it('piped: key<TAB>value lines', async () => {
    const io = capture({ tty: false });
    await printObject(io, quota, QUOTA_FIELDS, undefined);
    expect(io.stdoutText().split('\n')).toContain('quota_remain\t1098');
    expect(io.stdoutText().split('\n')[0]).toBe('quota_total\t1100');
  });

  it('csv: header of keys and one row', async () => {
    const io = capture({ tty: false });
    await printObject(io, quota, QUOTA_FIELDS, 'csv');
    expect(parse(io.stdoutText(), { columns: true })).toEqual([
      Object.fromEntries(Object.entries(quota).map(([k, v]) => [k, String(v)])),
    ]);
  });

  it('a daily limit of 0 reads "no limit" on a terminal and 0 elsewhere', async () => {
    const io = capture({ tty: true });
    await printObject(io, { ...quota, max_track_daily: 0 }, QUOTA_FIELDS, undefined);
    expect(io.stdoutText()).toMatch(/Daily limit\s+no limit/);
    const tsv = capture({ tty: false });
    await printObject(tsv, { ...quota, max_track_daily: 0 }, QUOTA_FIELDS, undefined);
    expect(tsv.stdoutText()).toContain('max_track_daily\t0\n');
  });
});

describe('narrow terminals', () => {
  it('keep the first (identifying) column whole while others are shortened', async () => {
    const io = createTestIO({ tty: true, columns: 40 });
    const cols: Column<Row>[] = [
      { key: 'id', header: 'NUMBER', value: () => 'YT2616912345678901' },
      { key: 'name', header: 'TEXT', value: (r) => r.name, shrink: 8 },
    ];
    await printRows(io, [{ ...ROWS[0]!, name: 'a fairly long description that must be cut' }], cols, undefined);
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[1]).toMatch(/^YT2616912345678901 {2}a fairly .*…$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
  });
});
