// gettracklist: filters, paging, order, fuzzy and exact number match, record shapes of every version.

import { beforeAll, describe, expect, it } from 'vitest';
import { findNumber, planShipment } from '../src/world/index.js';
import { DAY, HOUR, type Json, START, type TestAccount, chinaPost, makeAccount } from './account-fixture.js';

const FIRST: string[] = Array.from({ length: 45 }, (_, i) => chinaPost(i));
const at = (i: number): string => FIRST[i] as string;
const LATER = Array.from({ length: 5 }, (_, i) => chinaPost(100 + i));
const ALL = [...FIRST, ...LATER];

/** 45 numbers registered at START, 5 more an hour later; the webhook fails for every third number. */
async function populated(): Promise<TestAccount> {
  const t = makeAccount({ settings: { webhookUrl: 'http://127.0.0.1:1/hook' } });
  t.webhookStatus = (d) => (FIRST.indexOf(JSON.parse(d.body).data.number) % 3 === 0 ? 500 : 200);
  t.v2(
    'register',
    FIRST.slice(0, 40).map((number) => ({ number })),
  );
  t.v2(
    'register',
    FIRST.slice(40).map((number) => ({ number, tag: 'five' })),
  );
  await t.advance(HOUR);
  t.v2(
    'register',
    LATER.map((number) => ({ number, tag: 'later' })),
  );
  await t.advance(60_000);
  t.v2('stoptrack', [{ number: FIRST[1] }, { number: FIRST[2] }]);
  return t;
}

function all(t: TestAccount, version: 'v2' | 'v2.1' = 'v2'): Json[] {
  const out: Json[] = [];
  for (let page = 1; ; page++) {
    const env = t.call(version, 'gettracklist', { page_no: page });
    out.push(...env.data.accepted);
    if (page >= env.page.page_total) return out;
  }
}

describe('gettracklist (v2)', () => {
  let t: TestAccount;
  let records: Json[];
  beforeAll(async () => {
    t = await populated();
    records = all(t);
  });

  it('pages of 40 with the page object beside code and data', () => {
    const env = t.v2('gettracklist', {});
    expect(Object.keys(env)).toEqual(['page', 'code', 'data']);
    expect(env.page).toEqual({ data_total: 50, page_total: 2, page_no: 1, page_size: 40 });
    expect(env.data.accepted).toHaveLength(40);
    const second = t.v2('gettracklist', { page_no: 2 });
    expect(second.page).toEqual({ data_total: 50, page_total: 2, page_no: 2, page_size: 40 });
    expect(second.data.accepted).toHaveLength(10);
    const past = t.v2('gettracklist', { page_no: 3 });
    expect(past.data.accepted).toEqual([]);
    expect(past.page.page_no).toBe(3);
    expect(t.v2('gettracklist', undefined).page.data_total).toBe(50);
  });

  it('pages that overlap when injected: each after the first starts with records of the one before', () => {
    const page = (pageNo: number, pageOverlap: number) =>
      t.account.handle('v2', 'gettracklist', { page_no: pageNo }, { pageOverlap }) as Json;
    const numbersOf = (env: Json) => env.data.accepted.map((r: Json) => r.number);
    const first = page(1, 3);
    expect(first.page).toEqual({ data_total: 53, page_total: 2, page_no: 1, page_size: 40 });
    expect(numbersOf(first)).toEqual(ALL.slice(0, 40));
    // Every record still comes: 3 again, then the 10 the first page left.
    expect(numbersOf(page(2, 3))).toEqual(ALL.slice(37));
    expect(numbersOf(page(3, 3))).toEqual([]);
    // 50 records of pages overlapping by 39: 40, then one new record a page.
    expect(page(1, 39).page).toMatchObject({ data_total: 50 + 10 * 39, page_total: 11 });
    expect(numbersOf(page(11, 39))).toEqual(ALL.slice(10));
    expect(numbersOf(page(12, 39))).toEqual([]);
    expect(page(2, 0).page).toMatchObject({ data_total: 50, page_total: 2 });
  });

  it('default order is registration order, oldest first; RegisterTimeDesc reverses it', () => {
    expect(records.map((r) => r.number)).toEqual(ALL);
    const desc = t.v2('gettracklist', { order_by: 'RegisterTimeDesc' }).data.accepted.map((r: Json) => r.number);
    expect(desc.slice(0, 5)).toEqual([...LATER].reverse());
  });

  it.each(['PushTimeAsc', 'PushTimeDesc', 'TrackTimeAsc', 'TrackTimeDesc'])('order_by %s', (orderBy) => {
    const env = t.v2('gettracklist', { order_by: orderBy, page_no: 1 });
    const field = orderBy.startsWith('Push') ? 'push_time' : 'track_time';
    const times = env.data.accepted.map((r: Json) => Date.parse(r[field]));
    const sorted = [...times].sort((a, b) => (orderBy.endsWith('Asc') ? a - b : b - a));
    expect(times).toEqual(sorted);
  });

  it('one number: substring match, any letter case', () => {
    const part = at(7).slice(3, 9).toLowerCase();
    const env = t.v2('gettracklist', { number: part });
    const expected = ALL.filter((n) => n.includes(part.toUpperCase()));
    expect(env.data.accepted.map((r: Json) => r.number)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('several numbers: exact match only', () => {
    const part = at(7).slice(0, 8);
    const env = t.v2('gettracklist', { number: `${FIRST[3]}, ${at(9).toLowerCase()},${part}` });
    expect(env.data.accepted.map((r: Json) => r.number).sort()).toEqual([FIRST[3], FIRST[9]].sort());
  });

  it('more than 200 numbers → -18010014', () => {
    const many = Array.from({ length: 201 }, (_, i) => chinaPost(i)).join(',');
    expect(t.v2('gettracklist', { number: many }).code).toBe(-18010014);
    expect(t.v2('gettracklist', { number: many.split(',').slice(0, 200).join(',') }).page.data_total).toBe(50);
  });

  const enumFilters: [string, string][] = [
    ['package_status', 'package_status'],
    ['tracking_status', 'tracking_status'],
    ['push_status', 'push_status'],
    ['push_status_code', 'push_status_code'],
    ['carrier', 'carrier'],
  ];
  it.each(enumFilters)('filter %s matches exactly the records with that value', (filter, field) => {
    const values = [...new Set(records.map((r) => r[field]))].filter((v) => v !== null);
    expect(values.length).toBeGreaterThan(field === 'carrier' ? 0 : 1);
    for (const value of values) {
      const env = t.v2('gettracklist', { [filter]: value });
      const expected = records.filter((r) => r[field] === value).map((r) => r.number);
      expect(env.page.data_total).toBe(expected.length);
      expect(env.data.accepted.map((r: Json) => r.number)).toEqual(expected.slice(0, 40));
    }
  });

  it('data_origin: every record came through the API', () => {
    expect(t.v2('gettracklist', { data_origin: 'Api' }).page.data_total).toBe(50);
    expect(t.v2('gettracklist', { data_origin: 'Manual' }).page.data_total).toBe(0);
  });

  it('register_time range (inclusive; a bare date as _to is the whole day)', () => {
    const later = '2026-03-02T11:00:00Z';
    expect(t.v2('gettracklist', { register_time_from: later }).page.data_total).toBe(5);
    expect(t.v2('gettracklist', { register_time_to: '2026-03-02T10:59:59Z' }).page.data_total).toBe(45);
    expect(
      t.v2('gettracklist', { register_time_from: '2026-03-02', register_time_to: '2026-03-02' }).page.data_total,
    ).toBe(50);
    expect(t.v2('gettracklist', { register_time_to: '2026-03-01' }).page.data_total).toBe(0);
    // No zone = UTC; an offset is honoured.
    expect(t.v2('gettracklist', { register_time_from: '2026-03-02 11:00:00' }).page.data_total).toBe(5);
    expect(t.v2('gettracklist', { register_time_from: '2026-03-02T12:00:00+01:00' }).page.data_total).toBe(5);
  });

  it('track_time, push_time and stop_track_time ranges', () => {
    const stopped = t.v2('gettracklist', { stop_track_time_from: '2026-03-01' });
    expect(stopped.data.accepted.map((r: Json) => r.number)).toEqual([FIRST[1], FIRST[2]]);
    const cut = Date.parse(records.find((r) => r.number === LATER[0]).track_time);
    const trackedLate = t.v2('gettracklist', { track_time_from: new Date(cut).toISOString() });
    expect(trackedLate.page.data_total).toBe(records.filter((r) => Date.parse(r.track_time) >= cut).length);
    // The first 45 were pushed by the tick at 11:00 (the clock jumped an hour), the others a minute later.
    const pushedEarly = t.v2('gettracklist', { push_time_to: '2026-03-02T11:00:00Z' });
    expect(pushedEarly.page.data_total).toBe(
      records.filter((r) => r.push_time !== null && Date.parse(r.push_time) <= Date.parse('2026-03-02T11:00:00Z'))
        .length,
    );
    expect(pushedEarly.page.data_total).toBe(45);
    expect(t.v2('gettracklist', { push_time_from: '2026-03-02T11:00:01Z' }).page.data_total).toBe(5);
  });

  it('filters combine', () => {
    const env = t.v2('gettracklist', {
      push_status: 'Failure',
      tracking_status: 'Tracking',
      register_time_to: '2026-03-02T10:30:00Z',
    });
    const expected = records.filter(
      (r) =>
        r.push_status === 'Failure' &&
        r.tracking_status === 'Tracking' &&
        r.number !== undefined &&
        FIRST.includes(r.number),
    );
    expect(env.page.data_total).toBe(expected.length);
    expect(expected.length).toBeGreaterThan(0);
  });

  const bad: [string, unknown, number][] = [
    ['an array body', [], -18010013],
    ['unknown package_status', { package_status: 'Lost' }, -18010015],
    ['unknown tracking_status', { tracking_status: 'Paused' }, -18010015],
    ['unknown push_status', { push_status: 'Maybe' }, -18010015],
    ['unknown order_by', { order_by: 'NumberAsc' }, -18010015],
    ['unknown data_origin', { data_origin: 'Fax' }, -18010015],
    ['a time that is not a time', { register_time_from: 'yesterday' }, -18010015],
    ['page_no below 0', { page_no: -1 }, -18010015],
    ['page_no not a number', { page_no: 'two' }, -18010015],
    ['carrier not a number', { carrier: 'ups' }, -18010015],
    ['number not a string', { number: 5 }, -18010011],
  ];
  it.each(bad)('%s → data.errors', (_name, body, code) => {
    const env = t.v2('gettracklist', body);
    expect(env.code).toBe(code);
    expect(env.data.errors[0].code).toBe(code);
    expect(env.page).toBeUndefined();
  });

  it('null and "" fields are not filters', () => {
    expect(t.v2('gettracklist', { number: '', package_status: null, order_by: '' }).page.data_total).toBe(50);
  });

  it('v2 records have exactly the v2 fields', () => {
    expect(Object.keys(records[0])).toEqual([
      'number',
      'param',
      'param_type',
      'data_origin',
      'carrier',
      'shipping_country',
      'final_carrier',
      'recipient_country',
      'register_time',
      'tracking_status',
      'package_status',
      'track_time',
      'push_time',
      'push_status',
      'push_status_code',
      'stop_track_time',
      'stop_track_reason',
      'is_retracked',
      'carrier_change_count',
      'tag',
    ]);
    const failed = records.find((r) => r.number === FIRST[0]);
    expect(failed).toMatchObject({
      push_status: 'Failure',
      push_status_code: 500,
      data_origin: 'Api',
      param_type: 'None',
    });
    const ok = records.find((r) => r.number === FIRST[4]);
    expect(ok).toMatchObject({ push_status: 'Success', push_status_code: 200, register_time: '2026-03-02T10:00:00Z' });
  });
});

describe('gettracklist (v2.1 fields)', () => {
  it('adds the v2.1 fields, consistent with gettrackinfo', async () => {
    const t = makeAccount();
    const delivered = findNumber(3011, { scenario: 'delivered' }) as string;
    const quiet = findNumber(3011, { scenario: 'not_found' }) as string;
    t.v21('register', [{ number: delivered, email: 'x@y.z', lang: 'en', order_no: 'SO-9' }, { number: quiet }]);
    await t.advance(planShipment(delivered, 3011, t.now()).events.at(-1)!.atMs - t.now() + DAY);
    const [d, q] = t.v21('gettracklist', {}).data.accepted;
    expect(Object.keys(d).slice(20)).toEqual([
      'email',
      'order_no',
      'order_time',
      'lang',
      'remark',
      'latest_event_time',
      'latest_event_info',
      'days_after_order',
      'days_after_last_update',
      'days_of_transit',
      'days_of_transit_done',
      'delievery_time',
      'pickup_time',
    ]);
    const info = t.v21('gettrackinfo', [{ number: delivered }]).data.accepted[0].track_info;
    expect(d).toMatchObject({
      email: 'x@y.z',
      lang: 'en',
      order_no: 'SO-9',
      package_status: 'Delivered',
      latest_event_time: info.latest_event.time_iso,
      latest_event_info: info.latest_event.description,
      days_after_order: info.time_metrics.days_after_order,
      days_after_last_update: info.time_metrics.days_after_last_update,
      days_of_transit: info.time_metrics.days_of_transit,
      days_of_transit_done: info.time_metrics.days_of_transit_done,
      delievery_time: info.latest_event.time_utc,
    });
    const events = info.tracking.providers.flatMap((p: Json) => p.events);
    const pickup = events.find((e: Json) => e.sub_status === 'InTransit_PickedUp');
    expect(d.pickup_time).toBe(pickup ? pickup.time_utc : '');
    expect(q).toMatchObject({
      email: '',
      lang: '',
      latest_event_time: null,
      latest_event_info: null,
      days_after_order: '--',
      days_of_transit: 0,
      delievery_time: null,
      pickup_time: '',
      package_status: 'NotFound',
    });
  });

  it(
    'days_after_order is "--" without a result (spec), 0 with numericMetrics, in lists, details and ' + 'webhooks',
    async () => {
      const number = findNumber(3011, { scenario: 'not_found' }) as string;
      const seen = async (numericMetrics: boolean): Promise<unknown[]> => {
        const t = makeAccount({ numericMetrics, settings: { webhookUrl: 'http://127.0.0.1:9/hook' } });
        t.v21('register', [{ number }]);
        await t.advance(1 * DAY);
        const hook = JSON.parse(t.sent.at(-1)!.body);
        return [
          t.v21('gettracklist', {}).data.accepted[0].days_after_order,
          t.v21('gettrackinfo', [{ number }]).data.accepted[0].track_info.time_metrics.days_after_order,
          t.v2('getRealTimeTrackInfo', [{ number }]).data.accepted[0].track_info.time_metrics.days_after_order,
          hook.data.track_info.time_metrics.days_after_order,
        ];
      };
      expect(await seen(false)).toEqual(['--', '--', '--', '--']);
      expect(await seen(true)).toEqual([0, 0, 0, 0]);
    },
  );

  it('day metrics of an undelivered parcel follow the clock', async () => {
    const t = makeAccount();
    const stalled = findNumber(3011, { scenario: 'stalled' }) as string;
    t.v21('register', [{ number: stalled }]);
    await t.advance(5 * DAY);
    const a = t.v21('gettracklist', {}).data.accepted[0];
    t.setTime(t.now() + 2 * DAY);
    const b = t.v21('gettracklist', {}).data.accepted[0];
    const info = t.v21('gettrackinfo', [{ number: stalled }]).data.accepted[0].track_info;
    expect(b.days_after_last_update).toBe(info.time_metrics.days_after_last_update);
    expect(b.days_after_order).toBe(info.time_metrics.days_after_order);
    expect(b.days_after_order - a.days_after_order).toBe(2);
  });
});

describe('gettracklist (v1)', () => {
  let t: TestAccount;
  beforeAll(async () => {
    t = await populated();
  });

  it('short-field records', () => {
    const env = t.v1('gettracklist', {});
    expect(Object.keys(env)).toEqual(['page', 'code', 'data']);
    const rec = env.data.accepted.find((r: Json) => r.number === FIRST[1]);
    expect(Object.keys(rec)).toEqual([
      'number',
      'w1',
      'w2',
      'b',
      'c',
      'e',
      'rt',
      'tt',
      'pt',
      'ps',
      'st',
      'sr',
      'ir',
      'ts',
      'mc',
      'tag',
      'refer_key',
    ]);
    expect(rec).toMatchObject({
      w1: 3011,
      w2: 0,
      b: 301,
      rt: '2026-03-02 10:00:00',
      sr: 2,
      ts: false,
      ir: false,
      mc: 0,
      refer_key: null,
    });
    expect(rec.st).toMatch(/^2026-03-02 \d\d:\d\d:\d\d$/);
    const failed = env.data.accepted.find((r: Json) => r.number === FIRST[0]);
    expect(failed.ps).toBe(500);
  });

  const v2Of = (number: string): Json => t.v2('gettracklist', { number }).data.accepted[0];
  it('package_status uses v1 codes', () => {
    const codes: Record<string, number> = {
      NotFound: 0,
      InfoReceived: 10,
      InTransit: 10,
      OutForDelivery: 10,
      Expired: 20,
      AvailableForPickup: 30,
      DeliveryFailure: 35,
      Delivered: 40,
      Exception: 50,
    };
    const v1 = t.v1('gettracklist', { page_no: 1 }).data.accepted;
    for (const r of v1) expect(r.e).toBe(codes[v2Of(r.number).package_status]);
    const ten = t.v1('gettracklist', { package_status: 10 });
    expect(ten.page.data_total).toBe(ALL.filter((n) => codes[v2Of(n).package_status] === 10).length);
    expect(t.v1('gettracklist', { package_status: 11 }).code).toBe(-18010015);
  });

  it('tracking_state, push_state, stop and tracking time filters, page_no', () => {
    expect(t.v1('gettracklist', { tracking_state: 0 }).page.data_total).toBe(2);
    expect(t.v1('gettracklist', { tracking_state: 1 }).page.data_total).toBe(48);
    const failures = FIRST.filter((_, i) => i % 3 === 0).length;
    expect(t.v1('gettracklist', { push_state: 2 }).page.data_total).toBe(failures);
    expect(t.v1('gettracklist', { push_state: 1 }).page.data_total).toBe(50 - failures);
    expect(t.v1('gettracklist', { push_state: 0 }).page.data_total).toBe(0);
    expect(t.v1('gettracklist', { stop_time_from: '2026-03-02 00:00:00' }).page.data_total).toBe(2);
    expect(t.v1('gettracklist', { tracking_time_from: '2026-03-03' }).page.data_total).toBe(0);
    expect(t.v1('gettracklist', { tracking_time_to: '2026-03-03' }).page.data_total).toBe(50);
    expect(t.v1('gettracklist', { page_no: 2 }).data.accepted).toHaveLength(10);
    expect(t.v1('gettracklist', { push_state: 3 }).code).toBe(-18010015);
  });
});

it('no records: empty page', () => {
  const t = makeAccount({ start: START });
  expect(t.v2('gettracklist', {})).toEqual({
    page: { data_total: 0, page_total: 0, page_no: 1, page_size: 40 },
    code: 0,
    data: { accepted: [] },
  });
});
