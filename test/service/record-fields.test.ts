// The registry of the fields a record carries as sent (@trk/service/record-fields.ts) and what is derived from it:
// the list's columns in their order, the mirror's columns and indexes, the offline search and find, the report's
// reference.
// The migrations already written are frozen: a field added to the registry needs a new migration, not an edit.

import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../fixture-files.js';
import { RECORD_COLUMN_NAMES } from '../../src/output/column-names.js';
import {
  COLUMN_FIELDS,
  parcelReference,
  RECORD_FIELD_NAMES,
  SEARCHED_FIELDS,
  withFieldColumns,
} from '@trk/service/record-fields.js';
import { register } from '@trk/service/operations/register.js';
import { FIND_COLUMNS } from '../../src/store/find-sql.js';
import { recordRow } from '../../src/store/rows.js';
import { MIGRATIONS, POSTGRES, RECORD_COLUMNS, SQLITE } from '../../src/store/schema.js';
import { recordsQuery } from '../../src/store/sql.js';

describe('the registry of record fields', () => {
  it('keeps the migrations written so far producing the same schema', () => {
    const frozen = fixtureJson<Record<'sqlite' | 'postgres', string[][]>>('store/migrations.json');
    expect(MIGRATIONS.map((m) => m(SQLITE))).toEqual(frozen.sqlite);
    expect(MIGRATIONS.map((m) => m(POSTGRES))).toEqual(frozen.postgres);
  });

  it('names only fields the mirror has a column for, and indexes every customer reference', () => {
    expect(RECORD_FIELD_NAMES.filter((f) => !(RECORD_COLUMNS as readonly string[]).includes(f))).toEqual([]);
    const statements = MIGRATIONS.flatMap((m) => m(SQLITE)).join('\n');
    for (const field of ['number', ...SEARCHED_FIELDS]) {
      expect(statements).toContain(`ON records (lower(${field}))`);
    }
  });

  it('lets find look in the number and every customer reference, as the index of migration 4 holds them', () => {
    expect([...FIND_COLUMNS].sort()).toEqual(['number', ...SEARCHED_FIELDS].sort());
  });

  it("places the fields' list columns where list has always shown them", () => {
    // The CSV header `trk list -o csv` has always printed, with the e-mail added before the text as sent.
    const header =
      'number,carrier,final_carrier,status,tracking,registered,tracked,pushed,push_status,push_code,stopped,' +
      'stop_reason,retracked,carrier_changes,tag,origin_country,destination_country,latest_event_time,latest_event,' +
      'days_after_order,days_of_transit,delivered,order_no,remark,email,delivered_raw';
    expect(RECORD_COLUMN_NAMES.join(',')).toBe(header);
    expect(COLUMN_FIELDS.every((f) => RECORD_COLUMN_NAMES.includes(f))).toBe(true);
    expect(() => withFieldColumns(['number'])).toThrow(/follows an unknown column/);
  });

  it('searches the number and the customer references: tag, order number and e-mail', () => {
    expect([...SEARCHED_FIELDS].sort()).toEqual(['email', 'order_no', 'tag']);
    const { sql } = recordsQuery({ search: 'ann', order: '#1', email: 'a@b.c' });
    for (const column of ['number', 'tag', 'order_no', 'email']) expect(sql).toContain(`lower(${column}) >= ?`);
    expect(sql).toContain('lower(r.order_no) = ?');
    expect(sql).toContain('lower(r.email) = ?');
  });

  it("shows a parcel's order number, else its tag", () => {
    expect(parcelReference({ order_no: '#1', tag: 'shop-a' })).toBe('#1');
    expect(parcelReference({ order_no: null, tag: 'shop-a' })).toBe('shop-a');
    expect(parcelReference({ order_no: null, tag: null })).toBe('');
  });

  it('stores the fields as sent: times canonical, counts whole, v2.1 fields null on a v1 record', () => {
    const v21 = recordRow(
      {
        number: 'RR1',
        carrier: 3011,
        package_status: 'InTransit',
        tag: 't',
        email: 'a@b.c',
        order_no: '#9',
        order_time: '2026-01-02T03:04:05+08:00',
        remark: 'r',
        days_after_order: 4.7,
        days_of_transit: '--',
        pickup_time: '',
      },
      'v2.1',
    );
    expect(v21).toMatchObject({
      tag: 't',
      email: 'a@b.c',
      order_no: '#9',
      order_time: '2026-01-01T19:04:05.000Z',
      remark: 'r',
      days_after_order: 4,
      days_of_transit: null,
      pickup_time: null,
    });
    const v1 = recordRow({ number: 'RR1', w1: 3011, e: 10, tag: 't', order_no: '#9' }, 'v1');
    expect(v1).toMatchObject({ tag: 't', order_no: null, remark: null });
  });

  it('lets register take the fields v2.1 added, in the order of a request', () => {
    expect(register.fields['v2.1'].slice(register.fields.v2.length)).toEqual(['order_no', 'order_time', 'remark']);
  });
});
