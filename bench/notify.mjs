// trk notify run over N matches: messages prepared (read from the mirror, claimed in the ledger, rendered as text
// and HTML) and handed to a local SMTP server a second, and the memory it took. The mirror is a SQLite file of N
// parcels, each with a change to Delivered that a rule to "customer" matches; the SMTP server (smtp-server, in this
// process, on 127.0.0.1) takes every message and counts it. Nothing outside this machine, no tool but node.
//
//   npm run build && node bench/notify.mjs [matches=10000]

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'libsql';
import { SMTPServer } from 'smtp-server';
import { NotifyRun } from '../dist/mirror/notify/run.js';
import { ruleOf } from '../dist/mirror/notify/rules.js';
import { Senders } from '../dist/mirror/notify/targets.js';
import { SqliteStore } from '../dist/store/sqlite.js';

const N = Number(process.argv[2] ?? 10_000);
const file = path.join(mkdtempSync(path.join(tmpdir(), 'trk-bench-notify-')), 'm.db');
const now = Date.now();
const iso = (ms) => new Date(ms).toISOString();

let store = await SqliteStore.open(file);
const rule = await store.addRule('customers', JSON.stringify({ when: ['Delivered'], to: 'customer' }), iso(now));
await store.close();

// The parcels and their changes, written as a sync would leave them (after the rule was added).
const db = new Database(file);
db.exec('BEGIN');
const record = db.prepare(
  'INSERT INTO records (number, carrier, api_version, raw, as_of, tracking_status, package_status, tag, email, ' +
    'order_no, register_time, latest_event_time, latest_event_info) VALUES (?, 3011, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
);
const change = db.prepare(
  'INSERT INTO changes (number, carrier, from_status, to_status, from_sub_status, to_sub_status, event_time, ' +
    "detected_at, source) VALUES (?, 3011, 'OutForDelivery', 'Delivered', 'OutForDelivery_Other', 'Delivered_Other', " +
    "?, ?, 'sync')",
);
for (let i = 0; i < N; i++) {
  const number = `RB${String(100000000 + i).slice(-9)}CN`;
  const at = iso(now - (i % 500) * 60_000);
  record.run(
    number,
    'v2.1',
    '{}',
    at,
    'Tracking',
    'Delivered',
    `order-${i}`,
    `customer${i}@example.com`,
    `#${i}`,
    iso(now - 9 * 86_400_000),
    at,
    'Delivered to the recipient, signed by the customer at the front door',
  );
  change.run(number, at, at);
}
db.exec('COMMIT');
db.close();

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      received += 1;
      callback();
    });
  },
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `smtp://127.0.0.1:${server.server.address().port}`;

store = await SqliteStore.open(file);
const senders = new Senders({ url, from: 'Shop <shop@example.com>' }, () => {});
const names = { carrierName: () => 'China Post', trackingUrl: 'https://shop.example/track/{number}' };
const run = new NotifyRun(
  store,
  senders,
  names,
  { dryRun: false, pace: undefined, from: 'shop@example.com' },
  {
    out: () => {},
    info: () => {},
  },
);
const started = process.hrtime.bigint();
let peakHeap = 0;
const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 50);
const summary = await run.run([ruleOf(rule)]);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
clearInterval(sampler);
await senders.close();
await store.close();
await new Promise((resolve) => server.close(resolve));

const mib = (b) => (b / 1024 / 1024).toFixed(0);
console.log(
  JSON.stringify({
    matches: N,
    sent: summary.sent,
    received,
    seconds: Number(seconds.toFixed(2)),
    messages_per_second: Math.round(summary.sent / seconds),
    peak_rss_mib: Number(mib(process.resourceUsage().maxRSS * 1024)),
    peak_heap_mib: Number(mib(peakHeap)),
    node: process.version,
  }),
);
