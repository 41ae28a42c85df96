// A first `trk sync` side by side with a plain fixed-interval script (bench/interval-sync.mjs: a request every
// 1/3 s, no cap in flight, upserts into SQLite), both against one emulator in a process of its own
// (bench/service.mjs) holding N records (default 2,000: 50 pages and 50 answers of details) under its strict limit
// of 3 requests in any second. In one run, at each latency (default 100 ms and 1 s), quiet and again beside two
// CPU-bound processes, the two alternate (default 3 pairs, each pair's order swapped from the last), each with a
// fresh mirror. For every run, from the emulator's log of arrivals:
// - the fraction of the ceiling: 1 s ÷ the mean time from each answered request's arrival to the arrival of the
//   third after it (as bench/bulk-import.mjs: whatever the pattern, bursts of three or even spacing, 1 s at the
//   ceiling), i.e. the pace the service saw against the most it allows;
// - the wall time of the whole process (start-up and the last answer's latency too), HTTP 429s, the median
//   requests in flight at an arrival, the longest gap between two arrivals, and peak RSS (bench/peak-rss.cjs).
// Each cell prints the medians and the ratio of trk's wall time to the script's (at most 1: trk as fast).
// NODE_EXTRA_CA_CERTS is removed from what is measured. BENCH_LOG=1 prints every request of every run.
//
//   npm run build && node bench/sync-ceiling.mjs [records=2000] [latencies=100,1000] [load=both|quiet|busy]
//     [pairs=3] [node=this one]
//
// Targets: trk at least as fast as the script in every cell; at least 0.95 of the ceiling quiet and 0.90 beside the
// two busy processes; 0 HTTP 429.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { advance, registerNumbers, startService } from './service.mjs';
import { trkEnv } from './trk-env.mjs';

const count = Number(process.argv[2] ?? 2000);
const latencies = (process.argv[3] ?? '100,1000').split(',').map(Number);
const loads = { both: ['quiet', 'busy'], quiet: ['quiet'], busy: ['busy'] }[process.argv[4] ?? 'both'];
const pairs = Number(process.argv[5] ?? 3);
const node = process.argv[6] ?? process.execPath;
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');
const script = path.join(here, 'interval-sync.mjs');
const peakRss = path.join(here, 'peak-rss.cjs');
const HOUR = 3_600_000;

/** N records registered 40 at a time with the limit off, the emulator's clock standing still (speed 0). */
async function account() {
  const service = await startService({ rateLimit: 0, quotaTotal: count + 10, speed: 0 });
  await registerNumbers(service, count);
  await advance(service, 24 * HOUR);
  return service;
}

/** Runs `args` under `node` to its end; its wall seconds and peak RSS (MiB). */
function runProcess(args, env, home) {
  const rssFile = path.join(home, 'peak-rss');
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      env: { ...env, NODE_OPTIONS: `--require ${peakRss}`, PEAK_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (out += d));
    child.on('close', (status) => {
      const seconds = (performance.now() - t0) / 1000;
      if (status !== 0) return reject(new Error(`${args.join(' ')} exited ${status}: ${out}`));
      resolve({ seconds, rss: Number(readFileSync(rssFile, 'utf8')) / 1024 });
    });
  });
}

/** What the emulator's log says of one run: [operation, arrival, answered, status] per request. */
function figures(log) {
  const answered = log.filter((e) => e[3] === 200);
  const arrivals = answered.map((e) => e[1]);
  let sum = 0;
  for (let i = 3; i < arrivals.length; i++) sum += arrivals[i] - arrivals[i - 3];
  const inFlight = log.map(([, at]) => log.filter((e) => e[1] <= at && e[2] > at).length).sort((a, b) => a - b);
  let gap = 0;
  for (let i = 1; i < arrivals.length; i++) gap = Math.max(gap, arrivals[i] - arrivals[i - 1]);
  return {
    requests: log.length,
    limited: log.filter((e) => e[3] === 429).length,
    fraction: (1000 * (arrivals.length - 3)) / sum,
    inFlight: inFlight[Math.floor(inFlight.length / 2)],
    gap,
  };
}

/** Each request of a run, with its arrival and answer in ms from the first arrival (BENCH_LOG=1). */
function printLog(log) {
  const t0 = log[0]?.[1] ?? 0;
  for (const [op, at, done, status] of log) {
    console.log(
      `      ${op.padEnd(12)} ${(at - t0).toFixed(0).padStart(6)} ${(done - t0).toFixed(0).padStart(6)} ${status}`,
    );
  }
}

/** More than the service's window: a run starts with none of the last run's requests counted against it. */
const BETWEEN_RUNS_MS = 1_200;

async function runOne(who, service) {
  const home = mkdtempSync(path.join(tmpdir(), 'trk-bench-ceiling-'));
  try {
    // Each run is a first sync of its own, in a HOME of its own (no budget file shared with the run before), as a
    // nightly job is: it does not start within a second of another client's last requests on the key.
    await new Promise((resolve) => setTimeout(resolve, BETWEEN_RUNS_MS));
    await service.control({ log: true });
    const env = trkEnv(home, service, { TRK_DB: path.join(home, 'mirror.db') });
    const args =
      who === 'trk'
        ? [trk, 'sync', '--json', '-q']
        : [script, service.url, service.key, path.join(home, 'script.db'), String(1000 / 3)];
    const r = await runProcess(args, env, home);
    const log = await service.control({ log: true });
    if (process.env.BENCH_LOG) printLog(log);
    return { ...r, ...figures(log) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const line = (who, r) =>
  `    ${who.padEnd(6)} ${r.seconds.toFixed(1).padStart(5)} s  ${r.fraction.toFixed(3)} of the ceiling  ` +
  `${r.requests} requests  ${r.limited} x HTTP 429  median ${r.inFlight} in flight  longest gap ` +
  `${r.gap.toFixed(0)} ms  peak RSS ${r.rss.toFixed(0)} MiB`;

const service = await account();
const requests = Math.ceil(count / 40) * 2;
console.log(
  `first sync of ${count.toLocaleString('en-US')} records (${requests} requests at least) on ` +
    `${process.version === node ? process.version : node}, ` +
    `strict limit of 3 requests/s: trk sync against a request every 1/3 s (bench/interval-sync.mjs), ${pairs} pairs`,
);
const burners = [];
try {
  for (const latencyMs of latencies) {
    await service.control({ settings: { rateLimit: 3 }, faults: { latencyMs } });
    for (const load of loads) {
      // Two CPU-bound processes beside the runs, as other work on the shared machine.
      if (load === 'busy') {
        for (let i = 0; i < 2; i++) burners.push(spawn(node, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
      }
      console.log(`  ${latencyMs} ms latency, ${load === 'busy' ? 'beside two CPU-bound processes' : 'quiet'}:`);
      const runs = { trk: [], script: [] };
      for (let p = 0; p < pairs; p++) {
        for (const who of p % 2 === 0 ? ['trk', 'script'] : ['script', 'trk']) {
          const r = await runOne(who, service);
          runs[who].push(r);
          console.log(line(who, r));
        }
      }
      const t = median(runs.trk.map((r) => r.seconds));
      const s = median(runs.script.map((r) => r.seconds));
      console.log(
        `  => trk ÷ script (wall, medians): ${(t / s).toFixed(3)}; of the ceiling: trk ` +
          `${median(runs.trk.map((r) => r.fraction)).toFixed(3)}, script ` +
          `${median(runs.script.map((r) => r.fraction)).toFixed(3)}; HTTP 429 trk ` +
          `${runs.trk.reduce((n, r) => n + r.limited, 0)}, script ${runs.script.reduce((n, r) => n + r.limited, 0)}`,
      );
      for (const b of burners.splice(0)) b.kill();
    }
  }
} finally {
  for (const b of burners) b.kill();
  service.close();
}
