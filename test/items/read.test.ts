import { chmodSync, existsSync, linkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import { UsageError } from '../../src/core/errors.js';
import { createTestIO } from '../test-io.js';
import { parseColumnMapping, type ItemOperation } from '../../src/items/fields.js';
import { openRows, rowValues, type InputRow } from '../../src/items/read.js';
import { argumentsSource, openSource } from '../../src/items/source.js';
import { tempDir, textSource, writeInput } from './helpers.js';

interface ReadOpts {
  operation?: ItemOperation;
  version?: ApiVersion;
  columns?: string[];
}

async function read(text: string | Buffer, opts: ReadOpts = {}) {
  const opened = await openRows(textSource(text), {
    operation: opts.operation ?? 'register',
    version: opts.version ?? 'v2',
    mapping: opts.columns ? parseColumnMapping(opts.columns) : undefined,
  });
  const rows: InputRow[] = [];
  for await (const row of opened.rows) rows.push(row);
  const other: string[] = [];
  const values = rows.map((r) =>
    rowValues(r, opened.layout, (field, since) => other.push(`${r.line}:${field}:${since}`)),
  );
  return { layout: opened.layout, rows, values, other };
}

async function refusal(text: string, opts: ReadOpts = {}): Promise<UsageError> {
  const err = await read(text, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe('CSV input', () => {
  it('reads a header named after the API fields, case-insensitive and trimmed', async () => {
    const { layout, values, rows } = await read(' Number ,CARRIER, Tag \nRR000000001CN,3011,shop a\nRR000000002CN,,\n');
    expect(layout.format).toBe('csv');
    expect(layout.header).toEqual(['Number', 'CARRIER', 'Tag']);
    expect(values).toEqual([{ number: 'RR000000001CN', carrier: '3011', tag: 'shop a' }, { number: 'RR000000002CN' }]);
    expect(rows.map((r) => r.line)).toEqual([2, 3]);
  });

  it('handles a BOM, CRLF, quoted fields and blank lines, keeping line numbers', async () => {
    const text =
      '\ufeffnumber,tag,remark\r\n\r\nRR000000001CN,"a, b","two\r\nlines"\r\n  \r\n,,\r\nRR000000002CN,"say ' +
      '""hi""",x\r\n';
    const { values, rows } = await read(text, { version: 'v2.1' });
    expect(values).toEqual([
      { number: 'RR000000001CN', tag: 'a, b', remark: 'two\r\nlines' },
      { number: 'RR000000002CN', tag: 'say "hi"', remark: 'x' },
    ]);
    expect(rows.map((r) => r.line)).toEqual([3, 7]);
  });

  it('takes line endings per line: a CRLF header above LF rows', async () => {
    const { values, rows } = await read('number,carrier\r\nRR000000001CN,3011\nRR000000002CN,3011\n');
    expect(values).toEqual([
      { number: 'RR000000001CN', carrier: '3011' },
      { number: 'RR000000002CN', carrier: '3011' },
    ]);
    expect(rows.map((r) => r.line)).toEqual([2, 3]);
  });

  it('counts lines right after several quoted line breaks', async () => {
    const text = 'number,tag\n"RR000000001CN","a\nb"\nRR000000002CN,"c\r\nd\r\ne"\nRR000000003CN,z\n';
    const { rows } = await read(text);
    expect(rows.map((r) => r.line)).toEqual([2, 4, 7]);
  });

  it('reads a plain list, one number a line, and NUMBER,CARRIER rows, with no header', async () => {
    const list = await read('RR000000001CN\nRR000000002CN\n\nRR000000003CN');
    expect(list.layout.format).toBe('list');
    expect(list.values.map((v) => v.number)).toEqual(['RR000000001CN', 'RR000000002CN', 'RR000000003CN']);
    expect(list.rows.map((r) => r.line)).toEqual([1, 2, 4]);
    const pairs = await read('RR000000001CN,3011\nRR000000002CN,21051\n');
    expect(pairs.values[1]).toEqual({ number: 'RR000000002CN', carrier: '21051' });
  });

  it('ignores columns the operation does not use, for every command alike, with their names', async () => {
    const { layout, values } = await read(
      'number,carrier,tag,colour,error_code,error_message\nRR000000001CN,3011,x,red,-1,bad\n',
      {
        operation: 'stoptrack',
      },
    );
    expect(layout.ignored).toEqual(['tag', 'colour', 'error_code', 'error_message']);
    expect(values).toEqual([{ number: 'RR000000001CN', carrier: '3011' }]);
    const reg = await read('number,colour,size\nRR000000001CN,red,2\n');
    expect(reg.layout.ignored).toEqual(['colour', 'size']);
  });

  it('refuses a column that looks like a misspelling of a field the command uses', async () => {
    const reg = await refusal('number,carier,tga\nRR000000001CN,3011,x\n');
    expect(reg.message).toBe('in.csv: unknown columns carier (carrier?), tga (tag?)');
    expect(reg.hint).toContain('--column');
    const stop = await refusal('numbr,carrier\nRR000000001CN,3011\n', { operation: 'stoptrack' });
    expect(stop.message).toBe('in.csv: unknown column numbr (number?)');
  });

  it('takes a field of another API version only when a row has a value in it', async () => {
    const { values, other } = await read('number,order_no,remark\nRR000000001CN,,\nRR000000002CN,A-7,\n', {
      version: 'v2',
    });
    expect(values).toEqual([{ number: 'RR000000001CN' }, { number: 'RR000000002CN' }]);
    expect(other).toEqual(['3:order_no:v2.1']);
    const v1 = await read('number,lang\nRR000000001CN,en\n', { version: 'v1', operation: 'changeinfo' });
    expect(v1.other).toEqual(['2:lang:v2']);
  });

  it('maps a shop export with --column NAME=FIELD', async () => {
    const { values } = await read('Order,Sendungsnummer,Paketdienst\n1042,RR000000001CN,3011\n', {
      columns: ['sendungsnummer=number', 'Paketdienst=carrier', 'order=order_no'],
      version: 'v2.1',
    });
    expect(values).toEqual([{ number: 'RR000000001CN', carrier: '3011', order_no: '1042' }]);
    expect(() => parseColumnMapping(['x=colour'])).toThrow(/NAME=FIELD/);
  });

  it('needs a number column, and a header for wider CSV', async () => {
    const noNumber = await refusal('carrier,tag\n3011,x\n');
    expect(noNumber.message).toBe('in.csv: no column of tracking numbers among "carrier", "tag"');
    expect(noNumber.hint).toBe('add a column "number" of tracking numbers; nothing was sent');
    expect((await refusal('RR000000001CN,abc,def\n')).message).toBe(
      'in.csv: the first line holds no column names ("RR000000001CN", "abc", "def")',
    );
  });

  it('reports broken CSV with its line', async () => {
    const err = await refusal('number,tag\nRR000000001CN,ok\nRR000000002CN,"never closed\n');
    expect(err.message).toBe('in.csv is not valid CSV at line 3: a quoted field is never closed');
  });
});

describe("trk's own output as input", () => {
  it('reads piped `trk list` (tab-separated, no header): number first, carrier second, the rest ignored', async () => {
    const line = (n: string) =>
      [n, '3011', '', 'Exception', 'Tracking', '2026-11-20T10:00:00Z', ...Array(18).fill('x, y')].join('\t');
    const { layout, values } = await read(`${line('RR000000001CN')}\n${line('RR000000002CN')}\n`, {
      operation: 'push',
    });
    expect(layout.format).toBe('tsv');
    expect(layout.note).toBe(
      'in.csv: tab-separated rows without a header: the first column is read as the number, the second as the ' +
        'carrier (22 more columns ignored)',
    );
    expect(values).toEqual([
      { number: 'RR000000001CN', carrier: '3011' },
      { number: 'RR000000002CN', carrier: '3011' },
    ]);
  });

  it('reads `-o ids` lines, with or without the carrier', async () => {
    expect((await read('RR000000001CN\t3011\nRR000000002CN\t\n', { operation: 'stoptrack' })).values).toEqual([
      { number: 'RR000000001CN', carrier: '3011' },
      { number: 'RR000000002CN' },
    ]);
  });

  it('reads TSV with a header (a spreadsheet export)', async () => {
    const { layout, values } = await read('number\ttag\tcomment\nRR000000001CN\ta, b\tx\n');
    expect(layout.format).toBe('tsv');
    expect(layout.ignored).toEqual(['comment']);
    expect(values).toEqual([{ number: 'RR000000001CN', tag: 'a, b' }]);
  });

  it('reads `trk list --csv`: its non-field columns are ignored, empty v2.1 columns do not block v2', async () => {
    const header = 'number,carrier,final_carrier,status,tracking,registered,tag,order_no,remark';
    const { layout, values } = await read(
      `${header}\nRR000000001CN,3011,,Delivered,Stopped,2026-11-01T00:00:00Z,shop,,\n`,
    );
    expect(layout.ignored).toEqual(['status', 'tracking', 'registered']);
    expect(values).toEqual([{ number: 'RR000000001CN', carrier: '3011', tag: 'shop' }]);
  });

  it('reads a JSON array of records (trk list --json), streamed element by element', async () => {
    const records = [
      {
        number: 'RR000000001CN',
        carrier: 3011,
        final_carrier: 0,
        tag: null,
        package_status: 'Exception',
        track_info: { a: [1, { b: '],' }] },
      },
      {
        number: 'RR000000002CN',
        carrier: 21051,
        final_carrier: 0,
        tag: 'x',
        package_status: 'Delivered',
        track_info: null,
      },
    ];
    const { layout, values, rows } = await read(JSON.stringify(records, null, 2), { operation: 'stoptrack' });
    expect(layout.format).toBe('json');
    expect(layout.ignored).toEqual(['final_carrier', 'tag', 'package_status', 'track_info']);
    expect(values).toEqual([
      { number: 'RR000000001CN', carrier: '3011' },
      { number: 'RR000000002CN', carrier: '21051' },
    ]);
    expect(rows.map((r) => r.line)).toEqual([2, 17]);
  });

  it('reads NDJSON and v1 details (carrier under track.w1)', async () => {
    const first = JSON.stringify({ number: 'RR000000001CN', track: { w1: 3011, z0: {} } });
    const text = `${first}\n\n${JSON.stringify({ number: 'RR000000002CN', track: { w1: 190012 } })}\n`;
    const { values, rows } = await read(text, { operation: 'gettrackinfo', version: 'v1' });
    expect(values).toEqual([
      { number: 'RR000000001CN', carrier: '3011' },
      { number: 'RR000000002CN', carrier: '190012' },
    ]);
    expect(rows.map((r) => r.line)).toEqual([1, 3]);
  });

  it('reads an array of plain numbers, and refuses JSON it cannot read', async () => {
    expect((await read('["RR000000001CN", "RR000000002CN"]')).values).toEqual([
      { number: 'RR000000001CN' },
      { number: 'RR000000002CN' },
    ]);
    expect((await refusal('[{"number": "RR000000001CN"},\n{"number": ')).message).toBe(
      'in.csv is not valid JSON at line 2: the array is never closed',
    );
    expect((await refusal('{"number": "RR1"}\n{oops}\n')).message).toMatch(/^in\.csv is not valid JSON at line 2: /);
  });
});

describe('sources', () => {
  it('spools stdin to a private file read as often as needed, and removes it', async () => {
    const dir = tempDir();
    const io = createTestIO({ stdin: Readable.from(['number\n', 'RR000000001CN\n']) });
    const src = await openSource({ numbers: [] }, io, dir);
    expect(src.kind).toBe('stdin');
    expect(src.display).toBe('stdin');
    expect((await src.head()).toString()).toBe('number\nRR000000001CN\n');
    await src.cleanup();
  });

  it('removes spool copies left by killed runs (their process is gone) when it makes a new one', async () => {
    const dir = tempDir();
    const orphan = writeInput(dir, 'stdin-999999999-abc.csv', 'number\n');
    const mine = writeInput(dir, `stdin-${process.pid}-abc.csv`, 'number\n');
    const src = await openSource({ numbers: [] }, createTestIO({ stdin: Readable.from(['RR000000001CN\n']) }), dir);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(mine)).toBe(true);
    await src.cleanup();
  });

  it('refuses a missing, unreadable or directory input file in one line', async () => {
    const dir = tempDir();
    const io = createTestIO();
    await expect(openSource({ numbers: [], file: path.join(dir, 'missing.csv') }, io, dir)).rejects.toThrow(
      /no such file/,
    );
    await expect(openSource({ numbers: [], file: dir }, io, dir)).rejects.toThrow(/it is a directory/);
    const locked = writeInput(dir, 'locked.csv', 'number\n');
    chmodSync(locked, 0o000);
    if (process.getuid?.() !== 0)
      await expect(openSource({ numbers: [], file: locked }, io, dir)).rejects.toThrow(/permission denied/);
  });

  it('arguments, a terminal with nothing given, and both sources at once', async () => {
    const args = argumentsSource(['RR000000001CN', 'RR000000002CN']);
    expect(args.locate(2)).toBe('argument 2');
    const tty = createTestIO({ tty: true });
    await expect(openSource({ numbers: [] }, tty, tempDir())).rejects.toThrow('no tracking numbers given');
    await expect(openSource({ numbers: ['RR000000001CN'], file: 'x.csv' }, tty, tempDir())).rejects.toThrow(
      /as arguments or with -f, not both/,
    );
  });

  it('knows its own file by link and by path, so --rejects can never overwrite it', async () => {
    const dir = tempDir();
    const file = writeInput(dir, 'in.csv', 'number\n');
    linkSync(file, path.join(dir, 'hard.csv'));
    symlinkSync(file, path.join(dir, 'soft.csv'));
    const src = await openSource({ numbers: [], file }, createTestIO(), dir);
    expect(src.isSameFile(path.join(dir, 'hard.csv'))).toBe(true);
    expect(src.isSameFile(path.join(dir, 'soft.csv'))).toBe(true);
    expect(src.isSameFile(path.join(dir, '.', 'in.csv'))).toBe(true);
    expect(src.isSameFile(path.join(dir, 'other.csv'))).toBe(false);
  });
});
