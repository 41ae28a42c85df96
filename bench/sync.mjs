// The mirror's figures:
// 1. `trk sync` (a first, full sync) of N records (default 20,000: 500 pages and 500 answers of details) from the
//    emulator in a process of its own (bench/service.mjs) at 0.3 s and 1 s latency under its strict limit of 3
//    requests a second. The yardstick is that ceiling: requests ÷ seconds ÷ 3, with the HTTP 429 answers and
//    trk's peak RSS.
// 2. An incremental sync after the emulator's clock moved ~1 % of the records (their tracking runs came due):
//    its requests, records listed and details asked for, beside the first sync's.
// 3. `trk list --offline --search TEXT` and `trk find TEXT` on a mirror of 100,000 records, beside `trk list
//    --offline --limit 1` on the same mirror (the same start, no search): the search's own cost is the difference.
//    Then find's query alone (the store's find(), the median of 21 runs in this process), for texts one record,
//    many, every or no record holds, and texts shorter than a trigram, beside the yardstick of the same store's
//    lookup of one number (what `trk info --offline NUMBER` reads, through a B-tree).
// 4. Notifications stored a second (src/store/notifications.ts), 8 and 64 in flight (a listener that reads that many
//    bodies at once and answers each after its commit), and the RSS half-way and at the end: flat memory.
// Each figure for the mirror in a SQLite file and in a PostgreSQL database of a throw-away server on 127.0.0.1
// (test/postgres-server.mjs; skipped, saying so, where initdb and pg_ctl are not installed).
//
//   npm run build && node bench/sync.mjs [records=20000] [mirrorRecords=100000] [notifications=20000]
//
// Targets: ≥ 0.9 of the ceiling at both latencies with 0 × 429 and flat memory; the incremental sync's requests
// proportional to the records that moved; the search and find in milliseconds (find's query within a few times the
// lookup of a number, a text of 3 characters or more); ≥ 500 notifications a second. records=0 and
// notifications=0 leave out those figures.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { NotificationWriter } from '../dist/store/notifications.js';
import { PostgresStore } from '../dist/store/postgres.js';
import { recordRow } from '../dist/store/rows.js';
import { SqliteStore } from '../dist/store/sqlite.js';
import { postgresMissing, startPostgres } from '../test/postgres-server.mjs';
import { advance, registerNumbers, startService } from './service.mjs';
import { trkEnv } from './trk-env.mjs';

const count = Number(process.argv[2] ?? 20_000);
const mirrorRecords = Number(process.argv[3] ?? 100_000);
const notifications = Number(process.argv[4] ?? 20_000);
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');
const HOUR = 3_600_000;

const missing = postgresMissing();
if (missing) console.log(missing.replace('the tests of', 'the figures of'));
const server = missing ? undefined : await startPostgres();
/** The stores measured: where a new mirror is (in `home` for a file), and opening one as trk does. */
const STORES = [
  { name: 'SQLite', fresh: async (home) => path.join(home, 'mirror.db'), open: (file) => SqliteStore.open(file) },
  ...(server
    ? [{ name: 'PostgreSQL', fresh: () => server.createDatabase(), open: (url) => PostgresStore.open(url) }]
    : []),
];
const label = (store) => store.name.padEnd(10);

/** Runs trk, returns seconds, its JSON stdout and its peak RSS (MiB, from bench/peak-rss.cjs). */
function run(env, args, exits = [0]) {
  const probe = path.join(tmpdir(), `trk-bench-rss-${process.pid}-${process.hrtime.bigint()}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [trk, ...args], {
    env: { ...env, NODE_OPTIONS: `--require ${path.join(here, 'peak-rss.cjs')}`, PEAK_RSS_FILE: probe },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 28,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (!exits.includes(r.status)) throw new Error(`trk ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const rss = Number(readFileSync(probe, 'utf8')) / 1024;
  rmSync(probe, { force: true });
  return { seconds, stdout: r.stdout, rss };
}

const mib = (rss) => (rss === undefined ? 'n/a' : `${rss.toFixed(0)} MiB`);

/** N records registered 40 at a time over six simulated hours: tracking runs spread over the clock, as a shop's. */
async function account() {
  const service = await startService({
    rateLimit: 0,
    quotaTotal: count + 10,
    speed: 0,
    start: Date.parse('2026-06-01T00:00:00Z'),
  });
  await registerNumbers(service, count, (batches) => advance(service, Math.floor((6 * HOUR) / batches)));
  await advance(service, 24 * HOUR);
  return service;
}

async function firstSyncs(service) {
  const { url, key, control } = service;
  const requests = (count / 40) * 2;
  console.log(
    `trk sync (first, full): ${count.toLocaleString('en-US')} records (${requests} requests), strict limit of 3 ` +
      `requests/s; yardstick: the ceiling (${(requests / 3).toFixed(0)} s)`,
  );
  const last = new Map();
  for (const latencyMs of [300, 1000]) {
    await control({ settings: { rateLimit: 3 }, faults: { latencyMs } });
    for (const store of STORES) {
      const home = mkdtempSync(path.join(tmpdir(), 'trk-bench-sync-'));
      const env = trkEnv(home, { url, key }, { TRK_DB: await store.fresh(home) });
      const before = (await control({ state: true })).requests;
      const r = run(env, ['sync', '--json']);
      const after = (await control({ state: true })).requests;
      const summary = JSON.parse(r.stdout);
      const limited = (after.byStatus['429'] ?? 0) - (before.byStatus['429'] ?? 0);
      console.log(
        `  ${label(store)} ${String(latencyMs).padStart(4)} ms latency: ${r.seconds.toFixed(1)} s, ` +
          `${summary.requests} requests = ${(summary.requests / r.seconds / 3).toFixed(3)} of the ceiling   ` +
          `${limited} x HTTP 429   peak RSS ${mib(r.rss)}`,
      );
      if (last.has(store)) rmSync(last.get(store).home, { recursive: true, force: true });
      last.set(store, { home, env, summary });
    }
  }
  return last;
}

/** An incremental sync of the mirror `first` made (the clock moved 1 % of six hours since). */
async function incremental(first, store) {
  const r = run(first.env, ['sync', '--json']);
  const s = JSON.parse(r.stdout);
  console.log(
    `${label(store)} incremental sync after 1 % of six hours: ${s.requests} requests ` +
      `(first sync: ${first.summary.requests}), ` +
      `${s.records_listed} records listed, details of ${s.details_fetched}, ${s.changes} changes, ` +
      `${r.seconds.toFixed(1)} s`,
  );
  rmSync(first.home, { recursive: true, force: true });
}

/** A mirror of `n` records written through the store (as a sync writes them), for the offline reads. */
async function bigMirror(kind, location, n) {
  const store = await kind.open(location);
  const base = {
    param: null,
    param_type: 'None',
    data_origin: 'Api',
    carrier: 3011,
    final_carrier: 0,
    shipping_country: 'CN',
    recipient_country: 'US',
    tracking_status: 'Tracking',
    package_status: 'InTransit',
    push_time: null,
    push_status: 'NotPushed',
    push_status_code: 0,
    stop_track_time: null,
    stop_track_reason: null,
    is_retracked: false,
    carrier_change_count: 0,
    lang: '',
    remark: null,
  };
  for (let i = 0; i < n; i += 1000) {
    const rows = [];
    for (let k = i; k < Math.min(n, i + 1000); k++) {
      const t = new Date(Date.parse('2026-01-01T00:00:00Z') + k * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      rows.push(
        recordRow(
          {
            ...base,
            number: `RR${String(100000001 + k)}CN`,
            register_time: t,
            track_time: t,
            tag: `order-${k}`,
            order_no: `#${k}`,
            email: `customer${k}@example.com`,
            latest_event_time: t,
          },
          'v2.1',
        ),
      );
    }
    await store.writeRecords(rows);
  }
  await store.close();
}

async function offlineSearch(kind) {
  const home = mkdtempSync(path.join(tmpdir(), 'trk-bench-mirror-'));
  const file = await kind.fresh(home);
  try {
    const t0 = performance.now();
    await bigMirror(kind, file, mirrorRecords);
    const written = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`${label(kind)} a mirror of ${mirrorRecords.toLocaleString('en-US')} records written in ${written} s`);
    const env = trkEnv(home, { key: 'unused' });
    const best = (args, exits) => Math.min(...Array.from({ length: 5 }, () => run(env, args, exits).seconds * 1000));
    const yardstick = best(['list', '--offline', '--db', file, '--limit', '1', '--json']);
    const middle = Math.floor(mirrorRecords / 2);
    for (const text of [`customer${middle}@`, `#${middle}`, `RR${100000001 + middle}`]) {
      const ms = best(['list', '--offline', '--db', file, '--search', text, '--json']);
      console.log(
        `  list --offline --search ${text.padEnd(20)} ${ms.toFixed(0)} ms (list --offline --limit 1: ` +
          `${yardstick.toFixed(0)} ms; the search's own ${(ms - yardstick).toFixed(0)} ms)`,
      );
    }
    // These records have no details: find says so of each it found (exit 1), as of a text none has.
    for (const text of ['2041', `der-${middle}`, 'zz']) {
      const ms = best(['find', '--db', file, text, '--json'], [1]);
      console.log(
        `  find ${text.padEnd(38)} ${ms.toFixed(0)} ms (list --offline --limit 1: ${yardstick.toFixed(0)} ms; ` +
          `find's own ${(ms - yardstick).toFixed(0)} ms)`,
      );
    }
    await findQueries(kind, file, middle, 'as written');
    if (kind.name === 'PostgreSQL') {
      // What autovacuum does to a table a sync wrote, within a minute or so: the GIN index's pending entries merged,
      // the statistics the planner chooses by.
      const db = postgres(file, { max: 1, onnotice: () => {} });
      await db.unsafe('VACUUM ANALYZE records');
      await db.end();
      await findQueries(kind, file, middle, 'after VACUUM ANALYZE, as autovacuum leaves it');
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Milliseconds `fn` takes: the median of 21 runs, after one. */
async function median(fn) {
  await fn();
  const times = [];
  for (let i = 0; i < 21; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[10];
}

/** The store's find() on the mirror at `location`, beside its lookup of one number. */
async function findQueries(kind, location, middle, when) {
  const store = await kind.open(location);
  try {
    const yardstick = await median(() => store.details([`RR${100000001 + middle}CN`]));
    console.log(`  find's query (${when}); yardstick: the lookup of one number, ${yardstick.toFixed(2)} ms`);
    for (const [text, what] of [
      ['2041', 'part of an order number'],
      [`customer${middle}@`, 'part of an e-mail: one record'],
      [`der-${middle}`, 'part of a tag: one record'],
      ['example.com', 'every record: the first 100'],
      ['nothing-here', 'no record'],
      ['41', 'shorter than a trigram, many records'],
      ['zz', 'shorter than a trigram, no record: all read'],
    ]) {
      let found = 0;
      const ms = await median(async () => {
        found = (await store.find(text, 101)).length;
      });
      const figures = `${String(found).padStart(3)} found  ${ms.toFixed(2).padStart(7)} ms`;
      console.log(`    ${text.padEnd(20)} ${what.padEnd(44)} ${figures}  yardstick × ${(ms / yardstick).toFixed(1)}`);
    }
  } finally {
    await store.close();
  }
}

async function notificationsStored(kind, inFlight) {
  const home = mkdtempSync(path.join(tmpdir(), 'trk-bench-notes-'));
  const store = await kind.open(await kind.fresh(home));
  try {
    const writer = new NotificationWriter(store);
    const body = (i) => ({
      event: 'TRACKING_UPDATED',
      data: {
        number: `RN${String(i % 5000).padStart(10, '0')}`,
        carrier: 3011,
        param: null,
        tag: null,
        track_info: {
          latest_status: {
            status: i % 3 ? 'InTransit' : 'Delivered',
            sub_status: 'InTransit_Other',
            sub_status_descr: null,
          },
          latest_event: {
            time_iso: '2026-06-01T08:00:00+08:00',
            time_utc: '2026-06-01T00:00:00Z',
            description: 'In transit',
            location: null,
            stage: null,
            address: null,
          },
          time_metrics: {
            days_after_order: 3,
            days_of_transit: 3,
            days_of_transit_done: 0,
            days_after_last_update: 0,
            estimated_delivery_date: { source: null, from: null, to: null },
          },
          shipping_info: { shipper_address: { country: 'CN' }, recipient_address: { country: 'US' } },
          milestone: [],
          misc_info: {},
          tracking: {
            providers_hash: i,
            providers: [
              {
                provider: { key: 3011, name: 'China Post' },
                latest_sync_status: 'Success',
                latest_sync_time: new Date(Date.parse('2026-06-01T00:00:00Z') + i * 1000).toISOString(),
                events_hash: i,
                events: [],
              },
            ],
          },
        },
      },
    });
    let next = 0;
    let rssHalf = 0;
    const t0 = performance.now();
    // `inFlight` at a time, as a listener reading that many bodies at once waits for each commit.
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < notifications) {
          if (next === notifications / 2) rssHalf = process.memoryUsage().rss;
          await writer.write({ body: body(next++), version: 'v2' });
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const rssAfter = process.memoryUsage().rss;
    console.log(
      `${label(kind)} notifications stored, ${inFlight} in flight: ${notifications.toLocaleString('en-US')} ` +
        `in ${seconds.toFixed(1)} s = ${(notifications / seconds).toFixed(0)} a second ` +
        `(each committed before it resolves); RSS at half ${(rssHalf / 2 ** 20).toFixed(0)} MiB, at the end ` +
        `${(rssAfter / 2 ** 20).toFixed(0)} MiB`,
    );
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}

try {
  for (const kind of notifications > 0 ? STORES : []) {
    await notificationsStored(kind, 8);
    await notificationsStored(kind, 64);
  }
  for (const kind of STORES) await offlineSearch(kind);
  if (count > 0) {
    const service = await account();
    try {
      const first = await firstSyncs(service);
      // 1 % of six hours: the runs of ~1 % of the records (those tracked every six hours) fall due; every store's
      // mirror then syncs the same changes.
      await service.control({ settings: { rateLimit: 3 }, faults: { latencyMs: 300 } });
      await advance(service, Math.round(0.01 * 6 * HOUR));
      for (const kind of STORES) await incremental(first.get(kind), kind);
    } finally {
      service.close();
    }
  }
} finally {
  await server?.stop();
}
