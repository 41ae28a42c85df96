// Reading what shops and spreadsheets write: column names in several languages, delimiters, encodings, and the
// bounds on what is read (a line, a pipe, a device).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { createTestIO } from '../test-io.js';
import { fieldOfName, parseColumnMapping, type ItemField } from '../../src/items/fields.js';
import { FIELDS, ITEM_FIELDS } from '@trk/service/fields.js';
import { openRows, rowValues, type InputRow } from '../../src/items/read.js';
import { detectDelimiter, parseDelimiter } from '../../src/items/read-text.js';
import { openSource } from '../../src/items/source.js';
import { tempDir, textSource, writeInput } from './helpers.js';

async function read(
  text: string | Buffer,
  opts: { columns?: string[]; delimiter?: ',' | ';' | '\t' | '|'; version?: 'v2' | 'v2.1' } = {},
) {
  const opened = await openRows(textSource(text), {
    operation: 'register',
    version: opts.version ?? 'v2',
    mapping: opts.columns ? parseColumnMapping(opts.columns) : undefined,
    delimiter: opts.delimiter,
  });
  const rows: InputRow[] = [];
  for await (const row of opened.rows) rows.push(row);
  return { layout: opened.layout, values: rows.map((r) => rowValues(r, opened.layout)) };
}

async function refusal(promise: Promise<unknown>): Promise<UsageError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe('column names shops use', () => {
  const names = ITEM_FIELDS.flatMap((field: ItemField) =>
    (('columns' in FIELDS[field] ? FIELDS[field].columns : []) as readonly string[]).map(
      (name) => [name, field] as const,
    ),
  );
  it.each(names)('%s is read as %s', async (name, field) => {
    expect(fieldOfName(name)).toBe(field);
    if (field !== 'number') return;
    const { values } = await read(`"${name}",Other\nRR000000001CN,x\n`);
    expect(values).toEqual([{ number: 'RR000000001CN' }]);
  });

  it("leaves out an order column on v2 (its field is v2.1's), naming the version, not refusing rows", async () => {
    const { layout, values } = await read('Order ID,Tracking Number\n1042,RR000000001CN\n');
    expect(values).toEqual([{ number: 'RR000000001CN' }]);
    expect(layout.ignored).toEqual([]);
    expect(layout.laterVersion).toEqual([{ column: 'Order ID', field: 'order_no', since: 'v2.1' }]);
    const v21 = await read('Order ID,Tracking Number\n1042,RR000000001CN\n', { version: 'v2.1' });
    expect(v21.values).toEqual([{ number: 'RR000000001CN', order_no: '1042' }]);
  });

  it("reads Shopify's Name as the order number beside its Lineitem name, and nowhere else", async () => {
    const shopify = 'Name,Email,Tracking Number,Lineitem name\n#1001,a@example.com,RR000000001CN,Mug\n';
    const { values } = await read(shopify, { version: 'v2.1' });
    expect(values).toEqual([{ number: 'RR000000001CN', email: 'a@example.com', order_no: '#1001' }]);
    expect((await read(shopify)).layout.laterVersion).toEqual([{ column: 'Name', field: 'order_no', since: 'v2.1' }]);
    // A customer's name elsewhere.
    const other = await read('Name,Tracking Number\nAnna Berg,RR000000001CN\n', { version: 'v2.1' });
    expect(other.values).toEqual([{ number: 'RR000000001CN' }]);
    expect(other.layout.ignored).toEqual(['Name']);
    // A header naming its own order column keeps it.
    const both = await read('Name,Order Number,Tracking Number,Lineitem name\n#1,A-1,RR000000001CN,Mug\n', {
      version: 'v2.1',
    });
    expect(both.values).toEqual([{ number: 'RR000000001CN', order_no: 'A-1' }]);
  });

  it("reads the more telling of two shop names of one field (WooCommerce's Order Number beside Order ID)", async () => {
    const woo = 'Order ID,Order Number,Billing Email,Tracking Number\n812,2041,g@example.org,RR000000001CN\n';
    const { layout, values } = await read(woo, { version: 'v2.1' });
    expect(values).toEqual([{ number: 'RR000000001CN', order_no: '2041', email: 'g@example.org' }]);
    expect(layout.ignored).toEqual([]);
    expect(layout.passedOver).toEqual([{ column: 'Order ID', read: 'Order Number', field: 'order_no' }]);
    // The field's own name comes first; two of it, or two columns of numbers or carriers, are the shop's to settle.
    const own = await read('order_no,Order ID,number\nA-1,812,RR000000001CN\n', { version: 'v2.1' });
    expect(own.values).toEqual([{ number: 'RR000000001CN', order_no: 'A-1' }]);
    for (const header of [
      'order_no,order_no,number',
      'Tracking Number,Tracking Code',
      'number,Courier,Tracking Company',
    ])
      expect((await refusal(read(`${header}\nA,B,C\n`, { version: 'v2.1' }))).message).toMatch(/two columns mean/);
  });

  it('a header with no known column names the columns and the --column to use', async () => {
    const err = await refusal(read('Bestellung;Paket-Nr.;Kunde\n1042;RR000000001CN;Muster\n'));
    expect(err.message).toBe('in.csv: no column of tracking numbers among "Bestellung", "Paket-Nr.", "Kunde"');
    expect(err.hint).toBe(
      "say which one holds them: --column 'Paket-Nr.=number' (and --column 'NAME=carrier' for a column of " +
        'carriers); nothing was sent',
    );
    const { values } = await read('Bestellung;Paket-Nr.;Kunde\n1042;RR000000001CN;Muster\n', {
      columns: ['Paket-Nr.=number'],
    });
    expect(values).toEqual([{ number: 'RR000000001CN' }]);
  });
});

describe('delimiters', () => {
  it('detects , ; tab and | from the header line, quotes respected', () => {
    expect(detectDelimiter('number,carrier')).toBe(',');
    expect(detectDelimiter('Sendungsnummer;Versanddienstleister;Notiz')).toBe(';');
    expect(detectDelimiter('number\tcarrier')).toBe('\t');
    expect(detectDelimiter('number|carrier|tag')).toBe('|');
    expect(detectDelimiter('"a;b;c",number,carrier')).toBe(',');
    expect(detectDelimiter('number')).toBe(',');
  });

  it('reads a semicolon file with commas inside values', async () => {
    const { layout, values } = await read('number;carrier;tag\r\nRR000000001CN;3011;a, b\r\n');
    expect(values).toEqual([{ number: 'RR000000001CN', carrier: '3011', tag: 'a, b' }]);
    expect(layout.detail).toBe('in.csv: columns separated by semicolons (from the first line)');
  });

  it('reads a bar file, and takes --delimiter over the header line', async () => {
    expect((await read('number|tag\nRR000000001CN|x\n')).values).toEqual([{ number: 'RR000000001CN', tag: 'x' }]);
    const forced = await read('number;tag,x\nRR000000001CN;a,b\n', { delimiter: ';' });
    expect(forced.values).toEqual([{ number: 'RR000000001CN' }]);
    expect(forced.layout.ignored).toEqual(['tag,x']);
    expect(forced.layout.detail).toBe('in.csv: columns separated by semicolons (--delimiter)');
  });

  it('parses --delimiter values by character or name', () => {
    expect(parseDelimiter(';')).toBe(';');
    expect(parseDelimiter('tab')).toBe('\t');
    expect(parseDelimiter('\\t')).toBe('\t');
    expect(parseDelimiter('PIPE')).toBe('|');
    expect(() => parseDelimiter(':')).toThrow(/give one of , ; tab \|/);
  });
});

describe('encodings', () => {
  const text = 'Numéro de suivi;Transporteur\r\nRR000000001CN;3011\r\nRR000000002CN;3011\r\n';
  const expected = [
    { number: 'RR000000001CN', carrier: '3011' },
    { number: 'RR000000002CN', carrier: '3011' },
  ];

  it('decodes UTF-16 with a byte-order mark (little and big endian)', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const a = await read(le);
    expect(a.values).toEqual(expected);
    expect(a.layout.detail).toMatch(/decoded from UTF-16LE$/);
    const be = Buffer.from(le);
    be.swap16();
    expect((await read(be)).values).toEqual(expected);
  });

  it("decodes UTF-16 without a mark, and Windows-1252 (Excel's CSV on Windows)", async () => {
    expect((await read(Buffer.from(text, 'utf16le'))).values).toEqual(expected);
    const cp1252 = await read(Buffer.from(text, 'latin1'));
    expect(cp1252.values).toEqual(expected);
    expect(cp1252.layout.detail).toMatch(/decoded from Windows-1252$/);
  });

  it('decodes UTF-16 split across chunks at any byte', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const source = { ...textSource(le), open: () => Readable.from([...le].map((b) => Buffer.from([b]))) };
    const opened = await openRows(source, { operation: 'register', version: 'v2' });
    const values = [];
    for await (const row of opened.rows) values.push(rowValues(row, opened.layout));
    expect(values).toEqual(expected);
  });

  it('refuses binary data', async () => {
    const err = await refusal(read(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00])));
    expect(err.message).toBe('in.csv is not text (it holds NUL bytes)');
  });
});

describe('bounds', () => {
  it('refuses a line over 1 MiB with its line number (NDJSON, which has no record bound of its own)', async () => {
    const long = `{"number":"RR000000001CN"}\n{"number":"${'x'.repeat(1100 * 1024)}"}\n`;
    const err = await refusal(read(long));
    expect(err.message).toBe('in.csv line 2 is longer than 1024 KiB: this is not a file of tracking numbers');
  });

  it('refuses a device: -f /dev/zero does not read forever', async () => {
    const err = await refusal(openSource({ numbers: [], file: '/dev/zero' }, createTestIO(), tempDir()));
    expect(err.message).toBe('cannot read /dev/zero: it is neither a regular file nor a pipe');
  });

  it('checks stdin while spooling: a line too long, NUL bytes, or more than the bound stop it at once', async () => {
    const endless = (chunk: Buffer) =>
      new Readable({
        read() {
          this.push(chunk);
        },
      });
    const io = (stdin: Readable) => createTestIO({ stdin });
    const line = await refusal(
      openSource({ numbers: [], file: '-' }, io(endless(Buffer.alloc(64 * 1024, 0x41))), tempDir()),
    );
    expect(line.message).toBe('stdin line 1 is longer than 1024 KiB: this is not a file of tracking numbers');
    const nul = await refusal(
      openSource({ numbers: [], file: '-' }, io(endless(Buffer.alloc(64 * 1024, 0))), tempDir()),
    );
    expect(nul.message).toBe('stdin is not text (it holds NUL bytes)');
    const rows = Buffer.from('RR000000001CN\n'.repeat(4096));
    const big = await refusal(
      openSource({ numbers: [], file: '-' }, io(endless(rows)), tempDir(), { maxBytes: 4 * 1024 * 1024 }),
    );
    expect(big.message).toBe('stdin is larger than 4 MiB, the most trk keeps of a pipe');
    expect(big.hint).toMatch(/pass -f FILE/);
  });

  it('spools a named pipe (-f <(cmd)) like stdin, so that it can be read twice', async () => {
    const dir = tempDir();
    const fifo = path.join(dir, 'numbers.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const writer = spawn('sh', ['-c', `printf 'number\\nRR000000001CN\\n' > "${fifo}"`]);
    const source = await openSource({ numbers: [], file: fifo }, createTestIO(), dir);
    expect(source.kind).toBe('stdin');
    expect(source.display).toBe(fifo);
    for (let pass = 0; pass < 2; pass++) {
      const opened = await openRows(source, { operation: 'register', version: 'v2' });
      const rows = [];
      for await (const row of opened.rows) rows.push(row.cells);
      expect(rows).toEqual([['RR000000001CN']]);
    }
    await source.cleanup();
    writer.kill();
  });

  it('reads a file whose name is given as usual', async () => {
    const file = writeInput(tempDir(), 'n.csv', 'number\nRR000000001CN\n');
    const source = await openSource({ numbers: [], file }, createTestIO(), tempDir());
    expect(source.kind).toBe('file');
  });
});
