import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openRows, prepareInput, rowValues, type InputRow } from '../../src/items/input.js';
import type { BulkOperation } from '../../src/items/fields.js';
import type { ApiVersion } from '../../src/api/spec.js';
import { UsageError } from '../../src/errors.js';
import { tempDir, writeInput } from './helpers.js';

async function read(text: string | Buffer, opts: { operation?: BulkOperation; version?: ApiVersion } = {}) {
  const opened = await openRows(Readable.from([text]), {
    operation: opts.operation ?? 'register',
    version: opts.version ?? 'v2',
    display: 'in.csv',
  });
  const rows: InputRow[] = [];
  for await (const row of opened.rows) rows.push(row);
  return { layout: opened.layout, rows, values: rows.map((r) => rowValues(r, opened.layout)) };
}

async function refusal(text: string, opts: { operation?: BulkOperation; version?: ApiVersion } = {}): Promise<UsageError> {
  const err = await read(text, opts).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe('bulk input', () => {
  it('reads a header named after the API fields, case-insensitive and trimmed', async () => {
    const { layout, values, rows } = await read(' Number ,CARRIER, Tag \nRR000000001CN,3011,shop a\nRR000000002CN,,\n');
    expect(layout.kind).toBe('csv');
    expect(layout.header).toEqual(['Number', 'CARRIER', 'Tag']);
    expect(values).toEqual([{ number: 'RR000000001CN', carrier: '3011', tag: 'shop a' }, { number: 'RR000000002CN' }]);
    expect(rows.map((r) => r.line)).toEqual([2, 3]);
  });

  it('handles a BOM, CRLF, quoted fields and blank lines, keeping line numbers', async () => {
    const text = '\ufeffnumber,tag,remark\r\n\r\nRR000000001CN,"a, b","two\r\nlines"\r\n  \r\n,,\r\nRR000000002CN,"say ""hi""",x\r\n';
    const { values, rows } = await read(text, { version: 'v2.1' });
    expect(values).toEqual([
      { number: 'RR000000001CN', tag: 'a, b', remark: 'two\r\nlines' },
      { number: 'RR000000002CN', tag: 'say "hi"', remark: 'x' },
    ]);
    // The quoted field spans lines 3-4; the blank, whitespace-only and empty-cells lines are 2, 5 and 6.
    expect(rows.map((r) => r.line)).toEqual([3, 7]);
  });

  it('counts lines right after several quoted line breaks', async () => {
    const text = 'number,tag\n"RR000000001CN","a\nb"\nRR000000002CN,"c\r\nd\r\ne"\nRR000000003CN,z\n';
    const { rows } = await read(text);
    expect(rows.map((r) => r.line)).toEqual([2, 4, 7]);
  });

  it('reads a plain list, one number a line, with no header', async () => {
    const { layout, values, rows } = await read('RR000000001CN\nRR000000002CN\n\nRR000000003CN');
    expect(layout.kind).toBe('list');
    expect(values.map((v) => v.number)).toEqual(['RR000000001CN', 'RR000000002CN', 'RR000000003CN']);
    expect(rows.map((r) => r.line)).toEqual([1, 2, 4]);
  });

  it('reads NUMBER,CARRIER rows without a header', async () => {
    const { layout, values } = await read('RR000000001CN,3011\nRR000000002CN,21051\n');
    expect(layout.header).toEqual(['number', 'carrier']);
    expect(values[1]).toEqual({ number: 'RR000000002CN', carrier: '21051' });
  });

  it('refuses columns no version knows, naming them', async () => {
    const err = await refusal('number,colour,size\nRR000000001CN,red,2\n');
    expect(err.message).toBe('in.csv: unknown columns colour, size');
  });

  it('refuses columns the API version does not know, and says which version does', async () => {
    const v1 = await refusal('number,lang\nRR000000001CN,en\n', { version: 'v1' });
    expect(v1.message).toContain('the v1 API does not know lang');
    expect(v1.hint).toContain('--api-version v2');
    const v2 = await refusal('number,remark,order_no\nRR000000001CN,x,y\n', { version: 'v2' });
    expect(v2.message).toContain('does not know remark, order_no');
    expect(v2.hint).toContain('--api-version v2.1');
  });

  it('ignores known columns an operation does not use, and the error columns of a rejects file', async () => {
    const { layout, values } = await read('number,carrier,tag,error_code,error_message\nRR000000001CN,3011,x,-1,bad\n', {
      operation: 'stoptrack',
    });
    expect(layout.ignored).toEqual(['tag']);
    expect(values).toEqual([{ number: 'RR000000001CN', carrier: '3011' }]);
  });

  it('needs a number column and a header for wider files', async () => {
    expect((await refusal('carrier,tag\n3011,x\n')).message).toBe('in.csv: no number column');
    expect((await refusal('RR000000001CN,abc,def\n')).message).toBe('in.csv line 1: no header row');
  });

  it('reports broken CSV with its line', async () => {
    const err = await refusal('number,tag\nRR000000001CN,ok\nRR000000002CN,"never closed\n');
    expect(err.message).toBe('in.csv is not valid CSV at line 3: a quoted field is never closed');
  });

  it('spools stdin to a file and names it by its content', async () => {
    const dir = tempDir();
    const a = await prepareInput('-', Readable.from(['number\nRR000000001CN\n']), dir);
    const b = await prepareInput('-', Readable.from(['number\n', 'RR000000001CN\n']), dir);
    expect(a.display).toBe('stdin');
    expect(a.identity).toBe(b.identity);
    await a.cleanup();
    await b.cleanup();
    const file = writeInput(dir, 'x.csv', 'number\n');
    const f = await prepareInput(file, Readable.from([]), dir);
    expect(f.identity).toMatch(/^file .*x\.csv 7 \d+$/);
    await expect(prepareInput(`${dir}/missing.csv`, Readable.from([]), dir)).rejects.toThrow(/no such file/);
  });
});
