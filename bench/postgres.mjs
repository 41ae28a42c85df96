// The mirror in PostgreSQL beside the mirror in SQLite, in one run (a throw-away server on 127.0.0.1,
// test/postgres-server.mjs; skipped, saying so, where initdb and pg_ctl are not installed):
// 1. a sync's writes: N records listed and their details, a page of 40 at a time, each page a transaction of
//    writeRecords and one of writeDetails (what `trk sync` writes per page), through the store: records a second,
//    and PostgreSQL's time over SQLite's;
// 2. notifications stored (src/store/notifications.ts: group commits, each resolved once its commit is durable),
//    8 and 64 in flight: a second, and the ratio;
// 3. `trk report --json` over a mirror of R records in PostgreSQL (bench/report-mirror.mjs), each run a process
//    of its own (medians of 3), with its peak RSS (bench/peak-rss.cjs), beside `trk list --offline --limit 1` on
//    the same database (start and connection).
//
//   npm run build && node bench/postgres.mjs [records=20000] [notifications=10000] [reportRecords=1000000]
//
// Targets: PostgreSQL as fast as SQLite where it should be (bulk writes, group commits); the report under 2 s.
// 0 for a count leaves that figure out.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NotificationWriter } from '../dist/store/notifications.js';
import { PostgresStore } from '../dist/store/postgres.js';
import { detailsRow, recordRow } from '../dist/store/rows.js';
import { SqliteStore } from '../dist/store/sqlite.js';
import { postgresMissing, startPostgres } from '../test/postgres-server.mjs';
import { buildReportMirror } from './report-mirror.mjs';
import { trkEnv } from './trk-env.mjs';

const records = Number(process.argv[2] ?? 20_000);
const notifications = Number(process.argv[3] ?? 10_000);
const reportRecords = Number(process.argv[4] ?? 1_000_000);
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');

const missing = postgresMissing();
if (missing) {
  console.log(missing.replace('the tests of', 'the figures of'));
  process.exit(0);
}
const server = await startPostgres();
const home = mkdtempSync(path.join(tmpdir(), 'trk-bench-postgres-'));
const KINDS = [
  { name: 'SQLite', fresh: async () => path.join(home, `m-${process.hrtime.bigint()}.db`), open: SqliteStore.open },
  { name: 'PostgreSQL', fresh: () => server.createDatabase(), open: PostgresStore.open },
];

const time = (t) => new Date(Date.parse('2026-06-01T00:00:00Z') + t * 1000).toISOString();
const number = (i) => `RR${String(100000001 + i)}CN`;

/** A list item of record `i`, as the service lists it (v2.1). */
function item(i) {
  return {
    number: number(i),
    carrier: 3011,
    param: null,
    tag: `order-${i}`,
    order_no: `#${i}`,
    email: `customer${i}@example.com`,
    register_time: time(i),
    track_time: time(i),
    tracking_status: 'Tracking',
    package_status: 'InTransit',
    latest_event_time: time(i),
    shipping_country: 'CN',
    recipient_country: 'US',
  };
}

/** The tracking answer of record `i` (its details), with a few events. */
function tracking(i) {
  const t = time(i);
  return {
    number: number(i),
    carrier: 3011,
    tag: `order-${i}`,
    track_info: {
      latest_status: { status: 'InTransit', sub_status: 'InTransit_Other' },
      latest_event: { time_iso: t, time_utc: t, description: 'Arrived at the sorting centre', location: 'LA' },
      tracking: {
        providers: [
          {
            provider: { key: 3011, name: 'China Post' },
            latest_sync_time: t,
            events: Array.from({ length: 6 }, () => ({ time_utc: t, description: 'In transit', location: 'LA' })),
          },
        ],
      },
    },
  };
}

/** A sync's writes of `n` records, a page of 40 at a time: seconds. */
async function syncWrites(kind, n) {
  const store = await kind.open(await kind.fresh(), { durable: false });
  try {
    const t0 = performance.now();
    for (let i = 0; i < n; i += 40) {
      const page = Array.from({ length: Math.min(40, n - i) }, (_, k) => i + k);
      await store.writeRecords(page.map((k) => recordRow(item(k), 'v2.1')));
      await store.writeDetails(
        page.map((k) => detailsRow(tracking(k), 'v2.1', time(k))),
        'sync',
      );
    }
    return (performance.now() - t0) / 1000;
  } finally {
    await store.close();
  }
}

/** Notifications stored, `inFlight` at once, each resolved once committed: a second. */
async function stored(kind, n, inFlight) {
  const store = await kind.open(await kind.fresh());
  try {
    const writer = new NotificationWriter(store);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < n) {
          const i = next++;
          const data = { ...tracking(i % 5000), number: `RN${String(i % 5000).padStart(10, '0')}` };
          data.track_info.tracking.providers[0].latest_sync_time = time(i);
          await writer.write({ body: { event: 'TRACKING_UPDATED', data }, version: 'v2' });
        }
      }),
    );
    return n / ((performance.now() - t0) / 1000);
  } finally {
    await store.close();
  }
}

/** trk with `args`, a process of its own: seconds and peak RSS (MiB). */
function run(args, env) {
  const file = path.join(home, `peak-${process.hrtime.bigint()}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [trk, ...args], {
    env: { ...env, NODE_OPTIONS: `--require ${path.join(here, 'peak-rss.cjs')}`, PEAK_RSS_FILE: file },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`trk ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { seconds, mib: Number(readFileSync(file, 'utf8')) / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  if (records > 0) {
    const [sqlite, pg] = [await syncWrites(KINDS[0], records), await syncWrites(KINDS[1], records)];
    const rate = (s) => (records / s).toFixed(0);
    console.log(
      `a sync's writes of ${records.toLocaleString('en-US')} records and their details, 40 a page: SQLite ` +
        `${sqlite.toFixed(1)} s (${rate(sqlite)} a second), PostgreSQL ${pg.toFixed(1)} s (${rate(pg)} a second): ` +
        `PostgreSQL ÷ SQLite ${(pg / sqlite).toFixed(2)}x`,
    );
  }
  for (const inFlight of notifications > 0 ? [8, 64] : []) {
    const [sqlite, pg] = [
      await stored(KINDS[0], notifications, inFlight),
      await stored(KINDS[1], notifications, inFlight),
    ];
    console.log(
      `notifications stored, ${inFlight} in flight (${notifications.toLocaleString('en-US')}): SQLite ` +
        `${sqlite.toFixed(0)} a second, PostgreSQL ${pg.toFixed(0)}: PostgreSQL ÷ SQLite ${(pg / sqlite).toFixed(2)}`,
    );
  }
  if (reportRecords > 0) {
    const url = await server.createDatabase();
    const t0 = performance.now();
    await buildReportMirror(url, reportRecords);
    const written = ((performance.now() - t0) / 1000).toFixed(0);
    console.log(`a PostgreSQL mirror of ${reportRecords.toLocaleString('en-US')} records written in ${written} s`);
    const env = trkEnv(home, { key: 'unused' });
    // The first run after the writes: the server's own statistics and caches, as a mirror a sync left.
    run(['list', '--offline', '--limit', '1', '--json', '--db', url], env);
    const yard = Array.from({ length: 3 }, () =>
      run(['list', '--offline', '--limit', '1', '--json', '--db', url], env),
    );
    console.log(`  yardstick: trk list --offline --limit 1, median ${median(yard.map((r) => r.seconds)).toFixed(2)} s`);
    for (const by of ['carrier', 'lane', 'carrier,lane', 'week']) {
      const runs = Array.from({ length: 3 }, () => run(['report', '--json', '--by', by, '--db', url], env));
      console.log(
        `  trk report --json --by ${by.padEnd(13)} median ${median(runs.map((r) => r.seconds)).toFixed(2)} s, ` +
          `peak RSS ${Math.max(...runs.map((r) => r.mib)).toFixed(0)} MiB (target: under 2 s)`,
      );
    }
  }
} finally {
  await server.stop();
  rmSync(home, { recursive: true, force: true });
}
