// A mirror of N records with their details, as a shop's account a few months old would leave it: eight carriers
// of different pace and trouble, a dozen lanes, registrations spread over 26 weeks, statuses that follow the age
// of a parcel, estimated delivery windows on six parcels in ten, and items about the size of the service's (a
// list item of ~700 bytes, details of ~3 kB). Written through the store's own statements (sql.ts, a piece of up to
// 64 rows a statement) in large transactions: a sync would write the same rows a page at a time, and take hours
// for a million. In a SQLite file, or in a PostgreSQL database given by its address.
//
//   node bench/report-mirror.mjs FILE|postgres://... [records=1000000]

import { PostgresStore } from '../dist/store/postgres.js';
import { SqliteStore } from '../dist/store/sqlite.js';
import { DETAILS_WITH_SOURCE, pieces, upsertDetails, upsertRecords } from '../dist/store/sql.js';
import { DETAILS_COLUMNS, RECORD_COLUMNS } from '../dist/store/schema.js';

const DAY = 86_400_000;
// code, pace (median transit days), spread, share of exceptions.
const CARRIERS = [
  [3011, 14, 6, 0.05],
  [100003, 3, 1, 0.01],
  [21051, 5, 2, 0.02],
  [190012, 11, 4, 0.04],
  [100001, 2, 1, 0.01],
  [7041, 4, 2, 0.02],
  [2151, 18, 8, 0.09],
  [190008, 9, 3, 0.03],
];
const LANES = [
  ['CN', 'US'],
  ['CN', 'DE'],
  ['CN', 'FR'],
  ['CN', 'GB'],
  ['CN', 'BR'],
  ['DE', 'DE'],
  ['DE', 'AT'],
  ['DE', 'FR'],
  ['US', 'US'],
  ['US', 'CA'],
  ['GB', 'GB'],
  ['GB', 'IE'],
];
const EVENT =
  'Arrived at the sorting centre of the destination country; the parcel is on its way to the delivery office';

/** A pseudo-random generator: the same mirror every run. */
function random(seed) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const iso = (ms) => new Date(ms).toISOString();

/** The record and details of parcel k, registered `age` days before `now`. */
function parcel(k, now, rand) {
  const [carrier, pace, spread, trouble] = CARRIERS[k % CARRIERS.length];
  const [origin, destination] = LANES[Math.floor(rand() * LANES.length)];
  const registered = now - Math.floor(rand() * 182 * DAY);
  const transit = Math.max(0, Math.round(pace + (rand() + rand() + rand() - 1.5) * spread));
  const age = (now - registered) / DAY;
  const draw = rand();
  const status =
    draw < trouble
      ? 'Exception'
      : draw < trouble * 1.3
        ? 'DeliveryFailure'
        : age > transit + 1
          ? 'Delivered'
          : age < 0.5
            ? 'NotFound'
            : 'InTransit';
  const delivered = status === 'Delivered' ? registered + (transit + 1) * DAY : null;
  const lastEvent =
    delivered ?? (status === 'NotFound' ? null : registered + Math.min(age, rand() * (transit + 1)) * DAY);
  const window =
    rand() < 0.6
      ? { from: registered + transit * DAY, to: registered + (transit + 1 + Math.floor(rand() * 3)) * DAY }
      : null;
  const number = `RR${String(100000000 + k)}CN`;
  const common = {
    origin_country: origin,
    destination_country: destination,
    register_time: iso(registered),
    days_after_last_update: lastEvent === null || delivered ? 0 : Math.floor((now - lastEvent) / DAY),
    days_of_transit_done: delivered ? transit : 0,
    delivery_time: delivered === null ? null : iso(delivered),
    latest_event_time: lastEvent === null ? null : iso(lastEvent),
  };
  const listItem = {
    number,
    carrier,
    shipping_country: origin,
    recipient_country: destination,
    register_time: common.register_time,
    tracking_status: 'Tracking',
    package_status: status,
    track_time: iso(now - DAY),
    tag: `order-${k}`,
    order_no: `#${k}`,
    email: `customer${k}@example.com`,
    latest_event_time: common.latest_event_time,
    latest_event_info: EVENT,
  };
  const record = {
    ...Object.fromEntries(RECORD_COLUMNS.map((c) => [c, null])),
    ...common,
    api_version: 'v2.1',
    raw: JSON.stringify({ ...listItem, padding: 'x'.repeat(350) }),
    tracking_status: 'Tracking',
    package_status: status,
    track_time: iso(now - DAY),
    tag: `order-${k}`,
    order_no: `#${k}`,
    email: `customer${k}@example.com`,
    latest_event_info: EVENT,
    as_of: iso(now - DAY),
  };
  const details = {
    ...Object.fromEntries(DETAILS_COLUMNS.map((c) => [c, null])),
    ...common,
    api_version: 'v2',
    raw: JSON.stringify({
      number,
      carrier,
      track_info: {
        events: Array.from({ length: 8 }, () => ({
          description: EVENT,
          time_utc: common.latest_event_time,
          location: 'LOS ANGELES, US',
        })),
      },
    }),
    as_of: iso(now - DAY),
    record_track_time: iso(now - DAY),
    package_status: status,
    sub_status: `${status}_Other`,
    eta_from: window && iso(window.from),
    eta_to: window && iso(window.to),
    latest_event: EVENT,
  };
  return { number, carrier, record, details };
}

/** Writes the mirror at `file` (a SQLite file, or a PostgreSQL address): `n` records and their details. */
export async function buildReportMirror(file, n, now = Math.floor(Date.now() / DAY) * DAY) {
  const store = /^postgres(ql)?:/.test(file)
    ? await PostgresStore.open(file, { durable: false })
    : await SqliteStore.open(file, { durable: false });
  const rand = random(42);
  try {
    for (let i = 0; i < n; i += 20_000) {
      const parcels = [];
      for (let k = i; k < Math.min(n, i + 20_000); k++) parcels.push(parcel(k, now, rand));
      // The store's connection and statements: what writeRecords and writeDetails run, less their reads.
      await store.sql.transaction(async (tx) => {
        for (const piece of pieces(parcels)) {
          await Promise.all([
            tx.run(
              upsertRecords(piece.length),
              // Each record's values, then the full sync that saw it (none).
              piece.flatMap((p) => [p.number, p.carrier, ...RECORD_COLUMNS.map((c) => p.record[c]), null]),
            ),
            tx.run(
              upsertDetails(piece.length),
              piece.flatMap((p) => [
                p.number,
                p.carrier,
                ...DETAILS_WITH_SOURCE.map((c) => (c === 'source' ? 'sync' : p.details[c])),
              ]),
            ),
          ]);
        }
      });
    }
    await store.setState({ synced_at: iso(now) });
  } finally {
    await store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t0 = performance.now();
  await buildReportMirror(process.argv[2], Number(process.argv[3] ?? 1_000_000));
  console.log(`written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
