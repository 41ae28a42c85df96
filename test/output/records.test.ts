import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { DETAILS_COLUMNS, RECORD_COLUMNS, recordColumns } from '../../src/output/columns.js';
import {
  mergeEvents,
  toCarrierCode,
  toDetailsView,
  toRecordView,
  type EventView,
  type RecordView,
} from '@trk/service/records.js';
import { printRows } from '../../src/output/render.js';
import { accepted, fixture, V2_DETAILS } from './fixtures.js';

const V21_LIST = 'doc-v2/gettracklist_page.json';
const V1_LIST = 'real-v1/gettracklist_success_response.json';

/** A v2 record: the v2.1 page without the fields v2.1 adds. */
function v2Only(item: unknown): Record<string, unknown> {
  const o = { ...(item as Record<string, unknown>) };
  for (const k of [
    'email',
    'order_no',
    'order_time',
    'lang',
    'remark',
    'latest_event_time',
    'latest_event_info',
    'delievery_time',
    'pickup_time',
  ]) {
    delete o[k];
  }
  return o;
}

async function csvOf(views: RecordView[]): Promise<string> {
  const io = createTestIO();
  await printRows(io, views, RECORD_COLUMNS, 'csv');
  return io.stdoutText();
}

describe('toRecordView', () => {
  it('reads a v2.1 record, including the fields v2.1 adds', () => {
    const [a, b] = accepted(V21_LIST).map((i) => toRecordView(i, 'v2.1'));
    expect(a).toMatchObject({
      number: 'AA123456789BR',
      carrier: 2151,
      final_carrier: 0,
      status: 'Delivered',
      tracking: 'Tracking',
      registered: '2026-06-24T18:02:11Z',
      tracked: '2026-06-30T18:01:12Z',
      pushed: '2026-06-30T18:03:05Z',
      push_status: 'Success',
      push_code: 200,
      stopped: null,
      stop_reason: null,
      retracked: false,
      carrier_changes: 0,
      tag: 'order-1042',
      origin_country: 'BR',
      destination_country: 'BR',
      latest_event_time: '2026-06-30T14:23:00-03:00',
      latest_event: 'Objeto entregue ao destinatário',
      delivered: '2026-06-30T17:23:00Z',
      order_no: '86574382938',
      remark: null,
    });
    expect(b).toMatchObject({ tracking: 'Stopped', status: 'Expired', stop_reason: 'Expired', push_code: null });
  });

  it('reads a v2 record: v2.1 fields empty', () => {
    const v = toRecordView(v2Only(accepted(V21_LIST)[0]), 'v2');
    expect(v.status).toBe('Delivered');
    expect(v.latest_event).toBeNull();
    expect(v.delivered).toBeNull();
    expect(v.order_no).toBeNull();
  });

  it('maps v1 short fields onto the same names, times as ISO UTC', () => {
    const v = toRecordView(accepted(V1_LIST)[0], 'v1');
    expect(v).toEqual({
      number: '1234567890',
      carrier: 100003,
      final_carrier: 0,
      status: 'Delivered',
      tracking: 'Stopped',
      registered: '2022-03-07T17:22:53Z',
      tracked: '2022-03-08T23:59:21Z',
      pushed: null,
      push_status: 'NotPushed',
      push_code: null,
      stopped: '2022-03-09T16:00:06Z',
      stop_reason: 'ByRequest',
      retracked: false,
      carrier_changes: 0,
      tag: null,
      origin_country: '2105',
      destination_country: null,
      latest_event_time: null,
      latest_event: null,
      days_after_order: null,
      days_of_transit: null,
      delivered: null,
      order_no: null,
      remark: null,
      email: null,
    } satisfies RecordView);
  });

  it('shows unknown v1 status codes raw and never throws', () => {
    const statuses = accepted(V1_LIST).map((i) => toRecordView(i, 'v1').status);
    expect(statuses).toContain('5000');
    expect(statuses).toContain('3000');
    expect(statuses).toContain('InTransit');
    expect(statuses).toContain('NotFound');
    expect(() => toRecordView(null, 'v1')).not.toThrow();
    expect(() => toRecordView('garbage', 'v2')).not.toThrow();
    expect(toRecordView({ number: 'X', e: 77, sr: 9, ts: 1 }, 'v1')).toMatchObject({
      status: '77',
      stop_reason: '9',
      tracking: 'Tracking',
    });
  });

  it('derives the v1 push state from the webhook status', () => {
    expect(toRecordView({ number: 'A', e: 10, ps: 200, pt: '2022-01-01 00:00:00' }, 'v1').push_status).toBe('Success');
    expect(toRecordView({ number: 'A', e: 10, ps: 500, pt: '2022-01-01 00:00:00' }, 'v1')).toMatchObject({
      push_status: 'Failure',
      push_code: 500,
      pushed: '2022-01-01T00:00:00Z',
    });
    // A push time with status 0: pushed, but no HTTP answer (v2 says Failure, code 0).
    expect(toRecordView({ number: 'A', e: 10, ps: 0, pt: '2022-01-01 00:00:00' }, 'v1')).toMatchObject({
      push_status: 'Failure',
      push_code: 0,
    });
    // Status 0 without a push time: never pushed (the live service's answers look so).
    expect(toRecordView({ number: 'A', e: 10, ps: 0 }, 'v1')).toMatchObject({
      push_status: 'NotPushed',
      push_code: null,
      pushed: null,
    });
  });

  it('uses a country lookup for v1 numeric countries when given', () => {
    const v = toRecordView(accepted(V1_LIST)[0], 'v1', { countryName: (k) => (k === 2105 ? 'US' : undefined) });
    expect(v.origin_country).toBe('US');
  });

  it('detects the shape when the version hint is wrong', () => {
    expect(toRecordView(accepted(V1_LIST)[0], 'v2').status).toBe('Delivered');
    expect(toRecordView(accepted(V21_LIST)[0], 'v1').carrier).toBe(2151);
  });

  it('has the same keys, and the same CSV header, for v1, v2 and v2.1', async () => {
    const v1 = toRecordView(accepted(V1_LIST)[0], 'v1');
    const v2 = toRecordView(v2Only(accepted(V21_LIST)[0]), 'v2');
    const v21 = toRecordView(accepted(V21_LIST)[0], 'v2.1');
    expect(Object.keys(v1)).toEqual(Object.keys(v21));
    expect(Object.keys(v2)).toEqual(Object.keys(v21));
    const headers = await Promise.all([csvOf([v1]), csvOf([v2]), csvOf([v21])]);
    const first = headers.map((t) => t.split('\n')[0]);
    expect(new Set(first).size).toBe(1);
    expect(first[0]!.split(',')).toEqual(RECORD_COLUMNS.map((c) => c.key));
    // Every view field is a column (besides the raw twin of the delivery time).
    expect(
      RECORD_COLUMNS.map((c) => c.key)
        .filter((k) => !k.endsWith('_raw'))
        .sort(),
    ).toEqual(Object.keys(v21).sort());
  });

  it('v1 CSV rows carry the mapped values', async () => {
    const rows = parse(await csvOf(accepted(V1_LIST).map((i) => toRecordView(i, 'v1'))), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(12);
    expect(rows[11]).toMatchObject({
      status: '5000',
      carrier: '100003',
      tracking: 'Stopped',
      stop_reason: 'ByRequest',
    });
  });

  it('tables show carrier names from the lookup; CSV keeps the code', async () => {
    const cols = recordColumns({ carrierName: (k) => (k === 2151 ? 'Correios' : undefined) });
    const views = accepted(V21_LIST).map((i) => toRecordView(i, 'v2.1'));
    const table = createTestIO({ tty: true, columns: 200 });
    await printRows(table, views, cols, undefined);
    expect(table.stdoutText()).toContain('2151 Correios');
    const csv = createTestIO();
    await printRows(csv, views, cols, 'csv');
    expect(csv.stdoutText()).not.toContain('Correios,');
    expect(csv.stdoutText()).toContain('AA123456789BR,2151,');
  });
});

describe('toCarrierCode', () => {
  it('parses zero-padded strings and keeps other text raw', () => {
    expect(toCarrierCode(3011)).toBe(3011);
    expect(toCarrierCode('03011')).toBe(3011);
    expect(toCarrierCode('abc')).toBe('abc');
    expect(toCarrierCode(null)).toBeNull();
    expect(toCarrierCode('')).toBeNull();
  });
});

describe('toDetailsView', () => {
  it('reads each v2 fixture: status, sub-status, events newest first, milestones, metrics', () => {
    for (const name of V2_DETAILS) {
      const d = toDetailsView(accepted(name)[0], 'v2');
      expect(d.version).toBe('v2');
      expect(d.status).toBeTruthy();
      expect(d.sub_status).toBeTruthy();
      expect(d.events.length).toBeGreaterThan(0);
      const times = d.events.map((e) => e.at).filter((t): t is number => t !== null);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(d.metrics).not.toBeNull();
      expect(d.providers.length).toBe(1);
    }
  });

  it('Correios: raw time used when time_iso is null, delivery time from the milestone', () => {
    const d = toDetailsView(accepted(V2_DETAILS[0])[0], 'v2');
    expect(d.events[0]).toMatchObject({
      time_iso: null,
      time_raw: '2026-06-30 14:23:00',
      translation: 'Object delivered to the recipient',
    });
    expect(d.events[0]!.providers).toEqual([{ key: 2151, name: 'Correios' }]);
    expect(d.delivered).toBe('2026-06-30 14:23:00');
    expect(d.origin).toMatchObject({ country: 'BR', city: 'SAO PAULO' });
    expect(d.metrics).toMatchObject({ days_after_order: 6, days_of_transit: 5, eta_source: null });
    expect(d.tag).toBe('order-1042');
  });

  it('Yanwen: unknown event sub-status kept, estimate read', () => {
    const d = toDetailsView(accepted(V2_DETAILS[2])[0], 'v2');
    expect(d.events.map((e) => e.sub_status)).toContain('InTransit_QuantumTunnelling');
    expect(d.metrics).toMatchObject({ eta_source: '17TRACK', eta_from: '2026-07-08T00:00:00-07:00' });
    expect(d.latest_event?.description).toBe('Arrived at destination country port');
  });

  it('"--" for days_after_order reads as no value', () => {
    const item = structuredClone(accepted(V2_DETAILS[0])[0]) as {
      track_info: { time_metrics: Record<string, unknown> };
    };
    item.track_info.time_metrics.days_after_order = '--';
    expect(toDetailsView(item, 'v2').metrics?.days_after_order).toBeNull();
  });

  it('no track_info yet', () => {
    const d = toDetailsView({ number: 'X12345', carrier: 3011, param: null, tag: null, track_info: null }, 'v2');
    expect(d.no_result).toBe(true);
    expect(d.events).toEqual([]);
  });

  it('v2.1 customs events are collected, newest first', () => {
    const item = structuredClone(accepted(V2_DETAILS[2])[0]) as {
      track_info: { tracking: { providers: { events: { sub_status: string }[] }[] } };
    };
    const evs = item.track_info.tracking.providers[0]!.events;
    evs[0]!.sub_status = 'InTransit_CustomsReleased';
    evs[1]!.sub_status = 'InTransit_CustomsProcessing';
    const d = toDetailsView(item, 'v2.1');
    expect(d.customs.map((e) => e.sub_status)).toEqual(['InTransit_CustomsReleased', 'InTransit_CustomsProcessing']);
  });

  it('postal shipments: both providers, repeated events merged with both names', () => {
    const item = structuredClone(accepted(V2_DETAILS[0])[0]) as {
      track_info: { tracking: { providers: { provider: { key: number; name: string }; events: unknown[] }[] } };
    };
    const dest = item.track_info.tracking.providers[0]!;
    const origin = structuredClone(dest);
    origin.provider = { ...origin.provider, key: 3011, name: 'China Post' };
    origin.events = [
      dest.events[2],
      {
        ...(dest.events[2] as object),
        description: 'Posted abroad',
        time_iso: '2026-06-20T08:00:00+08:00',
        time_utc: '2026-06-20T00:00:00Z',
      },
    ];
    item.track_info.tracking.providers.push(origin);
    const d = toDetailsView(item, 'v2');
    expect(d.providers.map((p) => p.name)).toEqual(['Correios', 'China Post']);
    expect(d.events).toHaveLength(4);
    const posted = d.events.find((e) => e.description === 'Objeto postado')!;
    expect(posted.providers.map((p) => p.name)).toEqual(['Correios', 'China Post']);
    expect(d.events[d.events.length - 1]!.description).toBe('Posted abroad');
  });

  it('v1: w1/w2, z1/z2 merged newest first, `a` kept as given, unknown e raw', () => {
    const doc = toDetailsView(accepted('real-v1/doc-gettrackinfo-example.json')[0], 'v1');
    expect(doc).toMatchObject({
      version: 'v1',
      carrier: 3011,
      final_carrier: 18031,
      status: 'InTransit',
      sub_status: null,
    });
    expect(doc.events.map((e) => e.time_raw)).toEqual(['2015-05-31 00:00', '2015-05-13 14:47']);
    expect(doc.events.map((e) => e.providers[0]?.key)).toEqual([18031, 3011]);
    expect(doc.origin.country).toBe('301');
    expect(doc.latest_event?.description).toBe('移交海关');

    const unknown = accepted('real-v1/gettrackinfo_with_unknown_status_response.json').map((i) =>
      toDetailsView(i, 'v1'),
    );
    expect(unknown.map((d) => d.status)).toEqual(['NotFound', 'InTransit', '5000']);

    const real = accepted('real-v1/gettrackinfo_success_response.json').map((i) => toDetailsView(i, 'v1'));
    // An event without a time ("a": "") stays where the carrier put it.
    expect(real[2]!.events.map((e) => e.time_raw)).toEqual([null, '2022-03-07 22:06']);
    // `z0: {}` is no event at all.
    expect(real[4]!.latest_event).toBeNull();
    expect(real[4]!.events).toEqual([]);
  });

  it('DETAILS_COLUMNS give one row per number with the same keys for v1 and v2', async () => {
    const views = [
      toDetailsView(accepted(V2_DETAILS[2])[0], 'v2'),
      toDetailsView(accepted('real-v1/doc-gettrackinfo-example.json')[0], 'v1'),
    ];
    const io = createTestIO();
    await printRows(io, views, DETAILS_COLUMNS, 'csv');
    const rows = parse(io.stdoutText(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      number: 'YT2616912345678901',
      status: 'InTransit',
      sub_status: 'InTransit_Arrival',
      events: '3',
    });
    expect(rows[1]).toMatchObject({
      number: 'RM101474005CN',
      carrier: '3011',
      final_carrier: '18031',
      status: 'InTransit',
      sub_status: '',
    });
  });
});

describe('mergeEvents', () => {
  const ev = (at: string | null, description: string, key = 1): EventView => ({
    at: at === null ? null : Date.parse(at),
    time_iso: at,
    time_utc: at,
    time_raw: null,
    raw_has_zone: false,
    description,
    translation: null,
    location: null,
    stage: null,
    sub_status: null,
    providers: [{ key, name: null }],
  });

  it('interleaves providers by time, newest first', () => {
    const a = [ev('2026-01-05T00:00:00Z', 'a3'), ev('2026-01-03T00:00:00Z', 'a2'), ev('2026-01-01T00:00:00Z', 'a1')];
    const b = [ev('2026-01-04T00:00:00Z', 'b2', 2), ev('2026-01-02T00:00:00Z', 'b1', 2)];
    expect(mergeEvents([a, b]).map((e) => e.description)).toEqual(['a3', 'b2', 'a2', 'b1', 'a1']);
  });

  it('turns round a list sent oldest first', () => {
    const a = [ev('2026-01-01T00:00:00Z', 'old'), ev('2026-01-02T00:00:00Z', 'mid'), ev('2026-01-03T00:00:00Z', 'new')];
    expect(mergeEvents([a]).map((e) => e.description)).toEqual(['new', 'mid', 'old']);
  });

  it('keeps events without a time where their provider put them', () => {
    const a = [ev('2026-01-03T00:00:00Z', 'x'), ev(null, 'untimed'), ev('2026-01-01T00:00:00Z', 'y')];
    expect(mergeEvents([a]).map((e) => e.description)).toEqual(['x', 'untimed', 'y']);
  });
});

describe('fixture sanity', () => {
  it('the gettracklist fixtures have the expected number of records', () => {
    expect(fixture(V1_LIST).data.accepted).toHaveLength(12);
    expect(fixture(V21_LIST).data.accepted).toHaveLength(2);
  });
});
