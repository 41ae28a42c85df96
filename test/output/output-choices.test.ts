// What scripts pick (--columns, -o ids) and what people read (-o wide, times, counts) in every format.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { ITEM_COLUMNS, QUOTA_FIELDS, recordColumns } from '../../src/output/columns.js';
import { toRecordView, type RecordView } from '@trk/service/records.js';
import { createRowWriter, printItemResults, printObject, printRows, type OutputSpec } from '../../src/output/render.js';
import { UsageError } from '../../src/core/errors.js';
import { accepted, fixture } from './fixtures.js';

const RAW = accepted('doc-v2/gettracklist_page.json');
const VIEWS: RecordView[] = RAW.map((r) => toRecordView(r, 'v2.1'));
const COLS = recordColumns();
const NOW = Date.parse('2026-07-01T12:00:00Z');
const BERLIN = { zone: 'Europe/Berlin', now: NOW };

async function out(spec: OutputSpec, opts: { tty?: boolean; columns?: number } = {}): Promise<string> {
  const io = createTestIO({ tty: opts.tty ?? false, columns: opts.columns ?? 120 });
  await printRows(io, VIEWS, COLS, { times: BERLIN, ...spec }, RAW);
  return io.stdoutText();
}

describe('--columns', () => {
  const columns = ['number', 'status', 'tag'];

  it('picks the columns, in that order, in every format', async () => {
    expect(await out({ columns })).toBe('AA123456789BR\tDelivered\torder-1042\nYT2616912345678901\tExpired\t\n');
    expect(parse(await out({ format: 'csv', columns }))).toEqual([
      ['number', 'status', 'tag'],
      ['AA123456789BR', 'Delivered', 'order-1042'],
      ['YT2616912345678901', 'Expired', ''],
    ]);
    // JSON and NDJSON print the columns by key instead of the service's items.
    expect(JSON.parse(await out({ format: 'json', columns }))).toEqual([
      { number: 'AA123456789BR', status: 'Delivered', tag: 'order-1042' },
      { number: 'YT2616912345678901', status: 'Expired', tag: null },
    ]);
    expect(
      (await out({ format: 'ndjson', columns }))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))[1],
    ).toEqual({
      number: 'YT2616912345678901',
      status: 'Expired',
      tag: null,
    });
    const table = (await out({ format: 'table', columns: ['tag', 'number'] }, { tty: true })).split('\n');
    expect(table[0]).toMatch(/^TAG\s+NUMBER$/);
    expect(table[1]).toMatch(/^order-1042\s+AA123456789BR$/);
  });

  it(
    'names a column no table shows by itself (a raw twin), and refuses an unknown one with the ' + 'valid names',
    async () => {
      expect(await out({ columns: ['number', 'delivered', 'delivered_raw'] })).toContain(
        'AA123456789BR\t2026-06-30T17:23:00Z\t2026-06-30T17:23:00Z\n',
      );
      await expect(out({ columns: ['number', 'colour'] })).rejects.toThrow(UsageError);
      const err = (await out({ columns: ['colour'] }).catch((e: unknown) => e)) as UsageError;
      expect(err.hint).toMatch(/^choose from number, carrier, final_carrier, status, /);
    },
  );

  it('picks fields of an object (quota) too', async () => {
    const quota = fixture('doc-v2/getquota.json').data;
    const io = createTestIO();
    await printObject(io, quota, QUOTA_FIELDS, { format: 'json', columns: ['quota_remain'] });
    expect(JSON.parse(io.stdoutText())).toEqual({ quota_remain: quota.quota_remain });
  });

  it('item results: JSON of the named columns, result included', async () => {
    const results = fixture('doc-v2/register_mixed.json').data;
    const io = createTestIO();
    await printItemResults(io, results, ITEM_COLUMNS, { format: 'json', columns: ['number', 'result', 'error_code'] });
    expect(JSON.parse(io.stdoutText())).toEqual([
      { number: 'AA123456789BR', result: 'accepted', error_code: null },
      { number: '1234', result: 'rejected', error_code: -18010012 },
    ]);
  });
});

describe('-o ids', () => {
  it('one record a line: the number and its carrier, tab-separated', async () => {
    expect(await out({ format: 'ids' })).toBe('AA123456789BR\t2151\nYT2616912345678901\t190012\n');
  });

  it('leaves out a carrier the row does not have, and rejected items', async () => {
    const io = createTestIO();
    const results = {
      accepted: [
        { number: 'A1234567', carrier: 0 },
        { number: 'B1234567', carrier: 3011 },
      ],
      rejected: [{ number: 'C1234567', error: { code: -1, message: 'no' } }],
    };
    await printItemResults(io, results, ITEM_COLUMNS, 'ids');
    expect(io.stdoutText()).toBe('A1234567\nB1234567\t3011\n');
  });

  it('an output without ids refuses', () => {
    expect(() => createRowWriter(createTestIO(), QUOTA_FIELDS, 'ids')).toThrow(/no ids/);
  });
});

describe('-o wide and tables', () => {
  it('wide shows every column with a value, the detail a table leaves out included', async () => {
    const table = await out({ format: 'table' }, { tty: true, columns: 400 });
    const wide = await out({ format: 'wide' }, { tty: true, columns: 80 });
    for (const header of ['PUSHED', 'PUSH', 'HTTP', 'ORDER']) {
      expect(table.split('\n')[0]).not.toMatch(new RegExp(`\\b${header}\\b`));
      expect(wide.split('\n')[0]).toMatch(new RegExp(`\\b${header}\\b`));
    }
    expect(wide.split('\n')[0]!.length).toBeGreaterThan(80);
  });

  it('times: the reader zone in tables, ISO 8601 with the offset elsewhere; --relative ages', async () => {
    const table = await out({ format: 'table', columns: ['number', 'tracked'] }, { tty: true });
    expect(table).toContain('2026-06-30 20:01 +02:00');
    const relative = await out(
      { format: 'table', columns: ['number', 'tracked'], times: { ...BERLIN, relative: true } },
      { tty: true },
    );
    expect(relative).toContain('17h ago');
    expect(await out({ format: 'csv', columns: ['number', 'tracked'] })).toContain(
      'AA123456789BR,2026-06-30T18:01:12Z',
    );
  });

  it('counts with thousands separators in tables only', async () => {
    const quota = { ...fixture('doc-v2/getquota.json').data, quota_remain: 993942 };
    const table = createTestIO({ tty: true });
    await printObject(table, quota, QUOTA_FIELDS, undefined);
    expect(table.stdoutText()).toMatch(/Quota left\s+993,942/);
    const tsv = createTestIO();
    await printObject(tsv, quota, QUOTA_FIELDS, undefined);
    expect(tsv.stdoutText()).toContain('quota_remain\t993942\n');
  });

  it(
    'a streamed table takes its layout from the first rows; later rows fit it, shortened with …, ' + 'statuses whole',
    async () => {
      const io = createTestIO({ tty: true, columns: 80 });
      const w = createRowWriter(io, COLS, { times: BERLIN });
      w.write([{ ...VIEWS[1]!, tag: 'short', status: 'NotFound' }]);
      const first = io.stdoutText();
      expect(first.split('\n')).toHaveLength(3);
      w.write([{ ...VIEWS[0]!, tag: 'a much longer tag than the first page had', status: 'AvailableForPickup' }]);
      await w.end();
      const lines = io.stdoutText().split('\n');
      expect(lines[2]).toContain('AvailableForPickup');
      // The tag column is as wide as the first page made it.
      expect(lines[2]).toMatch(/ a mu… +BR +BR$/);
      expect(lines[2]!.length).toBe(lines[1]!.length);
    },
  );
});
