// Peak memory (RSS, from /proc: no external tool) of trk's three long runs on each installed Node
// (bench/nodes.mjs), beside Node's own floor (`node -e 0` with a timer, measured in the same run):
// 1. a first `trk sync` of N records (default 10,000: 250 pages and 250 answers of details) from the emulator in a
//    process of its own (bench/service.mjs), 3 requests a second;
// 2. `trk webhook listen --store` taking M notifications (default 20,000 TRACKING_UPDATED, each signed) from 64
//    senders at once on kept-alive connections, each answered once stored;
// 3. `trk report --json` over a mirror of R records (default 1,000,000, bench/report-mirror.mjs; pass a file to
//    keep it for the next run).
//
//   npm run build && node bench/memory.mjs [records=10000] [notifications=20000] [reportRecords=1000000] [mirror]
//
// Target: at most 64 MiB peak RSS for each. 0 for a count leaves that figure out.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedNodes } from './nodes.mjs';
import { buildReportMirror } from './report-mirror.mjs';
import { advance, registerNumbers, startService } from './service.mjs';
import { trkEnv } from './trk-env.mjs';

const records = Number(process.argv[2] ?? 10_000);
const notifications = Number(process.argv[3] ?? 20_000);
const reportRecords = Number(process.argv[4] ?? 1_000_000);
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');
const peakRss = path.join(here, 'peak-rss.cjs');
const KEY = 'memory-bench-key-000000000000000';
const mib = (kib) => `${(kib / 1024).toFixed(0)} MiB`;

/** Runs `args` under `node` to its end with the peak-RSS preload; resolves with its peak (KiB) and output. */
function measured(node, args, env, home, onStderr) {
  const file = path.join(home, `peak-${process.hrtime.bigint()}`);
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      env: { ...env, NODE_OPTIONS: `--require ${peakRss}`, PEAK_RSS_FILE: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => {
      err += d;
      onStderr?.(err, child);
    });
    child.on('close', (status, signal) => {
      if (status !== 0 && signal !== 'SIGINT') return reject(new Error(`${args.join(' ')} exited ${status}: ${err}`));
      resolve({ kib: Number(readFileSync(file, 'utf8')), out });
    });
  });
}

async function floor(node, home) {
  return (await measured(node, ['-e', 'setTimeout(() => {}, 200)'], {}, home)).kib;
}

async function syncPeak(node, home, service) {
  const env = trkEnv(home, service, { TRK_DB: path.join(home, `sync-${path.basename(node)}-${Date.now()}.db`) });
  return (await measured(node, [trk, 'sync', '--json', '-q'], env, home)).kib;
}

/** A TRACKING_UPDATED notification of record `i`, as the service sends it (v2). */
function notification(i) {
  const time = new Date(Date.parse('2026-06-01T00:00:00Z') + i * 1000).toISOString();
  return JSON.stringify({
    event: 'TRACKING_UPDATED',
    data: {
      number: `RN${String(i % 5000).padStart(10, '0')}`,
      carrier: 3011,
      param: null,
      tag: null,
      track_info: {
        latest_status: { status: i % 3 ? 'InTransit' : 'Delivered', sub_status: 'InTransit_Other' },
        latest_event: { time_iso: time, time_utc: time, description: 'In transit', location: null },
        time_metrics: { days_after_order: 3, days_of_transit: 3, days_of_transit_done: 0, days_after_last_update: 0 },
        shipping_info: { shipper_address: { country: 'CN' }, recipient_address: { country: 'US' } },
        milestone: [],
        misc_info: {},
        tracking: {
          providers_hash: i,
          providers: [
            {
              provider: { key: 3011, name: 'China Post' },
              latest_sync_status: 'Success',
              latest_sync_time: time,
              events_hash: i,
              events: [],
            },
          ],
        },
      },
    },
  });
}

function post(agent, port, body) {
  const sign = createHash('sha256').update(`${body}/${KEY}`).digest('hex');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/hook',
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', sign },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`listener answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function listenPeak(node, home) {
  const env = trkEnv(home, { key: KEY }, { NO_COLOR: '1' });
  const db = path.join(home, `notes-${Date.now()}.db`);
  let started;
  const url = new Promise((resolve) => (started = resolve));
  const run = measured(
    node,
    [trk, 'webhook', 'listen', '--port', '0', '--store', '--db', db],
    env,
    home,
    (err, child) => {
      const m = /Listening on (\S+)/.exec(err);
      if (m) started({ url: m[1], child });
    },
  );
  const { url: address, child } = await Promise.race([url, run.then(() => ({}))]);
  if (!address) throw new Error('the listener did not start');
  const port = Number(new URL(address).port);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < notifications) await post(agent, port, notification(next++));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  child.kill('SIGINT');
  return { kib: (await run).kib, seconds };
}

async function reportPeak(node, home, file) {
  const env = trkEnv(home, { key: 'unused' });
  return (await measured(node, [trk, 'report', '--json', '--db', file], env, home)).kib;
}

const home = mkdtempSync(path.join(tmpdir(), 'trk-bench-memory-'));
const kept = process.argv[5];
const mirror = kept ?? path.join(home, 'report.db');
let service;
try {
  if (records > 0) {
    service = await startService({ rateLimit: 0, quotaTotal: records + 10, speed: 0 });
    await registerNumbers(service, records);
    await advance(service, 86_400_000);
    await service.control({ settings: { rateLimit: 3 } });
  }
  if (reportRecords > 0 && !existsSync(mirror)) {
    console.log(`writing a mirror of ${reportRecords.toLocaleString('en-US')} records for the report...`);
    await buildReportMirror(mirror, reportRecords);
  }
  console.log(`peak RSS (target: at most 64 MiB each)`);
  for (const { version, execPath } of installedNodes()) {
    const say = (what) => console.log(`${version.padEnd(9)} ${what}`);
    say(`Node's floor ${mib(await floor(execPath, home))}`);
    if (records > 0) say(`sync of ${records.toLocaleString('en-US')}: ${mib(await syncPeak(execPath, home, service))}`);
    if (notifications > 0) {
      const r = await listenPeak(execPath, home);
      const rate = (notifications / r.seconds).toFixed(0);
      say(`listen --store of ${notifications.toLocaleString('en-US')} (64 in flight, ${rate} a second): ${mib(r.kib)}`);
    }
    if (reportRecords > 0) {
      say(
        `report --json of ${reportRecords.toLocaleString('en-US')}: ${mib(await reportPeak(execPath, home, mirror))}`,
      );
    }
  }
} finally {
  service?.close();
  rmSync(home, { recursive: true, force: true });
}
