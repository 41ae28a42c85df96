// The report's figures of every grouping, from a mirror of the fifteen parcels of test/fixtures/report/parcels.json,
// against values worked out by hand (the arithmetic is written beside each), on each store (test/store/kinds.ts):
// the SQLite file and PostgreSQL. Percentiles: linear interpolation between the closest ranks, rank h = (n - 1) p
// from 0. Now is 2026-06-20T12:00Z: stuck means no news since before
// 2026-06-14 (seven UTC days) or a count of seven days as last read.

import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReportBy, ReportGroup } from '../../src/report/figures.js';
import { buildReport, type ReportOptions } from '../../src/report/report.js';
import type { Store } from '../../src/store/types.js';
import { STORE_KINDS } from '../store/kinds.js';
import { recordRow } from '../../src/store/rows.js';
import { FIXTURE, listItem, NOW, writeFixtureMirror, type FixtureParcel } from './fixture-mirror.js';

const NAMES: Record<number, string> = { 3011: 'China Post' };
const names = (code: number) => NAMES[code];

const zero = {
  registered: 0,
  delivered: 0,
  exceptions: 0,
  delivery_failures: 0,
  in_transit: 0,
  not_found: 0,
  expired: 0,
  stuck: 0,
};
const noTransit = { n: 0, p50: null, p90: null, mean: null, min: null, max: null };

// China Post (3011): A1..A9. Delivered A1 10, A2 14, A3 7, A4 20, A9 5 days (A9 listed in v2: its details tell).
// Sorted 5 7 10 14 20: p50 rank 2 → 10; p90 rank 3.6 → 14 + 0.6 × 6 = 17.6; mean 56 / 5 = 11.2.
// Windows: A1 on time (its last day ends 06-13T07:00Z, delivered 06-12T08:00Z), A2 late, A4 and A9 on time: 3 / 4.
// Stuck: A5 (last event 06-12, counted 2 days when read), A8 (8 days); not A7 (returned to its sender).
const CHINA_POST: ReportGroup = {
  carrier: 3011,
  carrier_name: 'China Post',
  ...zero,
  registered: 9,
  delivered: 5,
  exceptions: 1,
  in_transit: 3,
  stuck: 2,
  transit_days: { n: 5, p50: 10, p90: 17.6, mean: 11.2, min: 5, max: 20 },
  on_time_rate: 0.75,
};
// 100003: B1..B6. Delivered B1 2, B2 3: p50 rank 0.5 → 2.5; p90 rank 0.9 → 2.9. B1 late (window ended 06-04T00:00Z,
// delivered 06-04T15:00Z), B2 on time: 1 / 2. Stuck: B3 (9 days). B6 expired (stopped), B5 not found.
const CARRIER_100003: ReportGroup = {
  carrier: 100003,
  carrier_name: null,
  ...zero,
  registered: 6,
  delivered: 2,
  exceptions: 1,
  delivery_failures: 1,
  not_found: 1,
  expired: 1,
  stuck: 1,
  transit_days: { n: 2, p50: 2.5, p90: 2.9, mean: 2.5, min: 2, max: 3 },
  on_time_rate: 0.5,
};
// CN → US: A1 A2 A5 A6 A8 B4 B5. Transit 10 14: p50 12, p90 10 + 0.9 × 4 = 13.6. Windows A1 on time, A2 late.
const CN_US = {
  ...zero,
  registered: 7,
  delivered: 2,
  delivery_failures: 1,
  in_transit: 3,
  not_found: 1,
  stuck: 2,
  transit_days: { n: 2, p50: 12, p90: 13.6, mean: 12, min: 10, max: 14 },
  on_time_rate: 0.5,
};
// CN → DE: A3 A4 A7 A9. Transit 5 7 20: p50 7; p90 rank 1.8 → 7 + 0.8 × 13 = 17.4; mean 32 / 3 = 10.67. A4, A9 on time.
const CN_DE = {
  ...zero,
  registered: 4,
  delivered: 3,
  exceptions: 1,
  transit_days: { n: 3, p50: 7, p90: 17.4, mean: 10.67, min: 5, max: 20 },
  on_time_rate: 1,
};
// US → US: B1 B2 B3 B6, as carrier 100003 less B4 and B5.
const US_US = {
  ...zero,
  registered: 4,
  delivered: 2,
  exceptions: 1,
  expired: 1,
  stuck: 1,
  transit_days: CARRIER_100003.transit_days,
  on_time_rate: 0.5,
};

// June's parcels not delivered were all registered in the week of 06-08: B3 (exception, stuck), B4 (failed),
// A5 A6 A8 (on the way; A5 and A8 stuck), B5 (not found), B6 (expired).
const JUNE_UNDELIVERED = { exceptions: 1, delivery_failures: 1, in_transit: 3, not_found: 1, expired: 1, stuck: 3 };

describe.each(STORE_KINDS)('trk report: the figures of a mirror ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  // The fixtures' mirror is written once; each test opens it (kinds.ts closes it after the test).
  let location: string;
  let store: Store;
  beforeAll(async () => {
    location = await kind.fresh();
    await writeFixtureMirror(await kind.open(location));
  });
  beforeEach(async () => {
    store = await kind.open(location);
  });

  const reportOf = (mirror: Store, by: ReportBy, o: Partial<ReportOptions> = {}) =>
    buildReport(mirror, { by, since: undefined, stuckDays: 7, parcels: undefined, now: NOW, ...o }, names);
  const report = (by: ReportBy, o: Partial<ReportOptions> = {}) => reportOf(store, by, o);
  const groups = async (by: ReportBy, o: Partial<ReportOptions> = {}) =>
    (await report(by, o)).groups.map((g) => g.group);

  it('by carrier: counts, transit days, on-time rate, stuck', async () => {
    expect(await groups('carrier')).toEqual([CHINA_POST, CARRIER_100003]);
  });

  it('by lane, largest first (ties by name)', async () => {
    expect(await groups('lane')).toEqual([
      { origin: 'CN', destination: 'US', ...CN_US },
      { origin: 'CN', destination: 'DE', ...CN_DE },
      { origin: 'US', destination: 'US', ...US_US },
    ]);
  });

  it('by carrier and lane', async () => {
    expect(await groups('carrier,lane')).toEqual([
      // A1 A2 A5 A6 A8: transit 10 14.
      {
        carrier: 3011,
        carrier_name: 'China Post',
        origin: 'CN',
        destination: 'US',
        ...zero,
        registered: 5,
        delivered: 2,
        in_transit: 3,
        stuck: 2,
        transit_days: CN_US.transit_days,
        on_time_rate: 0.5,
      },
      { carrier: 100003, carrier_name: null, origin: 'US', destination: 'US', ...US_US },
      { carrier: 3011, carrier_name: 'China Post', origin: 'CN', destination: 'DE', ...CN_DE },
      // B4 B5: nothing delivered, no window.
      {
        carrier: 100003,
        carrier_name: null,
        origin: 'CN',
        destination: 'US',
        ...zero,
        registered: 2,
        delivery_failures: 1,
        not_found: 1,
        transit_days: noTransit,
        on_time_rate: null,
      },
    ]);
  });

  it('by week of registration (Mondays, UTC), in time order', async () => {
    expect(await groups('week')).toEqual([
      // A7, registered Friday 05-29.
      { week: '2026-05-25', ...zero, registered: 1, exceptions: 1, transit_days: noTransit, on_time_rate: null },
      // A1 A2 A3 B1 B2: transit 2 3 7 10 14: p50 7; p90 rank 3.6 → 10 + 0.6 × 4 = 12.4; mean 36 / 5. A1 B2 on time, A2
      // B1 late.
      {
        week: '2026-06-01',
        ...zero,
        registered: 5,
        delivered: 5,
        transit_days: { n: 5, p50: 7, p90: 12.4, mean: 7.2, min: 2, max: 14 },
        on_time_rate: 0.5,
      },
      // A4 A5 A6 A8 A9 B3 B4 B5 B6: transit 5 20: p50 12.5; p90 5 + 0.9 × 15 = 18.5. A4 and A9 on time.
      {
        week: '2026-06-08',
        ...JUNE_UNDELIVERED,
        registered: 9,
        delivered: 2,
        transit_days: { n: 2, p50: 12.5, p90: 18.5, mean: 12.5, min: 5, max: 20 },
        on_time_rate: 1,
      },
    ]);
  });

  it('by month of registration', async () => {
    expect(await groups('month')).toEqual([
      { month: '2026-05', ...zero, registered: 1, exceptions: 1, transit_days: noTransit, on_time_rate: null },
      // Transit 2 3 5 7 10 14 20: p50 rank 3 → 7; p90 rank 5.4 → 14 + 0.4 × 6 = 16.4; mean 61 / 7 = 8.71. On time 4 of
      // 6.
      {
        month: '2026-06',
        ...JUNE_UNDELIVERED,
        registered: 14,
        delivered: 7,
        transit_days: { n: 7, p50: 7, p90: 16.4, mean: 8.71, min: 2, max: 20 },
        on_time_rate: 0.6667,
      },
    ]);
  });

  it('counts parcels registered since a time, of given carriers and countries', async () => {
    // Since 06-08: A4 A5 A6 A8 A9 (transit 5 20) and B3 B4 B5 B6.
    expect(await groups('carrier', { since: '2026-06-08T00:00:00.000Z' })).toEqual([
      {
        carrier: 3011,
        carrier_name: 'China Post',
        ...zero,
        registered: 5,
        delivered: 2,
        in_transit: 3,
        stuck: 2,
        transit_days: { n: 2, p50: 12.5, p90: 18.5, mean: 12.5, min: 5, max: 20 },
        on_time_rate: 1,
      },
      {
        carrier: 100003,
        carrier_name: null,
        ...zero,
        registered: 4,
        exceptions: 1,
        delivery_failures: 1,
        not_found: 1,
        expired: 1,
        stuck: 1,
        transit_days: noTransit,
        on_time_rate: null,
      },
    ]);
    const lanes = await groups('lane', { carriers: [100003], destinations: ['US'] });
    expect(lanes.map((g) => [g.origin, g.destination, g.registered])).toEqual([
      ['US', 'US', 4],
      ['CN', 'US', 2],
    ]);
    expect((await groups('lane', { origins: ['CN'] })).map((g) => g.destination)).toEqual(['US', 'DE']);
    expect(await groups('carrier', { carriers: [] })).toEqual([]);
  });

  it('stuck later: a count as last read ages by the latest event, and --stuck-days moves the line', async () => {
    // 14 days: B3 (9), A8 (8) and A5 no longer; nothing is.
    expect((await report('carrier', { stuckDays: 14 })).total.group.stuck).toBe(0);
    // 3 days: A6 still not (its last event two days ago), B4 (event 06-17, three days) now is.
    const r = await report('carrier', { stuckDays: 3 });
    expect(r.stuck.map((p) => p.number)).toEqual([
      '1Z0000000000000003',
      'RA0000000008CN',
      'RA0000000005CN',
      '1Z0000000000000004',
    ]);
  });

  it('lists stuck parcels longest without news first, and parcels in trouble latest first', async () => {
    const r = await report('carrier');
    expect(r.stuck.map((p) => [p.number, p.days_without_news])).toEqual([
      ['1Z0000000000000003', 9],
      ['RA0000000008CN', 8],
      // Counted 2 days when the mirror read it; its last event is 8 days old now.
      ['RA0000000005CN', 8],
    ]);
    expect(r.trouble.map((p) => [p.number, p.package_status, p.sub_status])).toEqual([
      ['1Z0000000000000004', 'DeliveryFailure', 'DeliveryFailure_Other'],
      ['1Z0000000000000003', 'Exception', 'Exception_Lost'],
      ['RA0000000007CN', 'Exception', 'Exception_Returned'],
    ]);
    expect((await report('carrier', { parcels: 2 })).stuck).toHaveLength(2);
  });

  it('totals every record, gives the weeks the volumes cover and when the mirror was synced', async () => {
    const r = await report('lane');
    expect(r.total.group).toMatchObject({
      registered: 15,
      delivered: 7,
      stuck: 3,
      transit_days: { n: 7, p50: 7, p90: 16.4 },
      on_time_rate: 0.6667,
    });
    expect(r.weeks).toEqual(['2026-05-25', '2026-06-01', '2026-06-08']);
    expect(r.synced_at).toBe('2026-06-20T11:00:00.000Z');
    expect([...r.groups[0]!.weekly.entries()]).toEqual([
      ['2026-06-01', 2],
      ['2026-06-08', 5],
    ]);
  });

  it('gives the same figures when it reads them alone (JSON, CSV: no weekly volumes, no parcels listed)', async () => {
    for (const by of ['carrier', 'lane', 'carrier,lane', 'week', 'month'] as const) {
      const alone = await report(by, { figuresOnly: true });
      expect(
        alone.groups.map((g) => g.group),
        by,
      ).toEqual(await groups(by));
      expect([alone.stuck, alone.trouble]).toEqual([[], []]);
    }
  });

  it('leaves out of the transit days a delivered parcel whose days nothing tells (rather than as 0 days)', async () => {
    // Listed as delivered in v2 (no delivery time, no transit days), its details still those of its transit.
    const p: FixtureParcel = {
      ...{ number: 'RA0000000010CN', carrier: 3011, from: 'CN', to: 'US', registered: '2026-06-02T10:00:00Z' },
      ...{ status: 'Delivered', days_since_update: 0, latest_event: '2026-06-16T10:00:00Z', list_version: 'v2' },
    };
    const mirror = await kind.open(await kind.fresh());
    await writeFixtureMirror(mirror, [...FIXTURE.parcels, { ...p, status: 'InTransit' }]);
    await mirror.writeRecords([recordRow(listItem(p), 'v2')]);
    const r = await reportOf(mirror, 'carrier');
    expect(r.groups[0]!.group).toEqual({ ...CHINA_POST, registered: 10, delivered: 6 });
  });

  it("counts a delivery on time until a day after its window's last day began, on the next UTC day too", async () => {
    // The last day begins 06-12T07:00Z (midnight at -07:00) and ends 06-13T07:00Z: on time at 05:00Z, late at 08:00Z.
    const late = (n: string, delivered: string): FixtureParcel => ({
      ...{ number: `RA00000000${n}CN`, carrier: 3011, from: 'CN', to: 'US', registered: '2026-06-01T10:00:00Z' },
      ...{ status: 'Delivered', transit: 11, days_since_update: 0, latest_event: delivered, delivered },
      eta_to: '2026-06-12T00:00:00-07:00',
    });
    const mirror = await kind.open(await kind.fresh());
    const onTime = late('11', '2026-06-13T05:00:00Z');
    await writeFixtureMirror(mirror, [...FIXTURE.parcels, onTime, late('12', '2026-06-13T08:00:00Z')]);
    const r = await reportOf(mirror, 'carrier');
    // 3 of 4 on time before, and one of these two: 4 / 6.
    expect(r.groups[0]!.group.on_time_rate).toBe(0.6667);
  });

  it('draws a page by carrier and lane, with weekly volumes, whatever the grouping', async () => {
    const r = await report('month', { page: true });
    expect(r.page!.carriers.map((g) => g.group)).toEqual([CHINA_POST, CARRIER_100003]);
    expect(r.page!.lanes.map((g) => g.group.registered)).toEqual([7, 4, 4]);
    expect([...r.total.weekly]).toEqual([
      ['2026-05-25', 1],
      ['2026-06-01', 5],
      ['2026-06-08', 9],
    ]);
    // China Post: A7; A1 A2 A3; A4 A5 A6 A8 A9. 100003: B1 B2; B3 B4 B5 B6.
    expect(r.page!.carriers.map((g) => [...g.weekly])).toEqual([
      [
        ['2026-05-25', 1],
        ['2026-06-01', 3],
        ['2026-06-08', 5],
      ],
      [
        ['2026-06-01', 2],
        ['2026-06-08', 4],
      ],
    ]);
    const byCarrier = await report('carrier', { page: true });
    expect(byCarrier.page!.carriers.map((g) => [...g.weekly.values()])).toEqual([
      [1, 3, 5],
      [2, 4],
    ]);
    // A page by lane keeps its groups' volumes (a terminal's report may be printed with it): A1 A2; A5 A6 A8 B4 B5.
    const byLane = await report('lane', { page: true });
    expect([...byLane.groups[0]!.weekly]).toEqual([
      ['2026-06-01', 2],
      ['2026-06-08', 5],
    ]);
  });
});
