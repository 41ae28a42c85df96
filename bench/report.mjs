// `trk report` over a mirror of a million records (bench/report-mirror.mjs: eight carriers, a dozen lanes, 26
// weeks, details of ~3 kB each, as a shop's account would leave it): the whole command, each a process of its
// own, for every grouping, the terminal's report and the page. The yardstick is `trk list --offline --limit 1`
// on the same mirror, measured in the same run: trk's start and opening the file, which every report pays too.
//
//   npm run build && node bench/report.mjs [records=1000000] [mirror file, kept for the next run]
//
// Target: under 2 s for every report of a million records.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReportMirror } from './report-mirror.mjs';
import { trkEnv } from './trk-env.mjs';

const records = Number(process.argv[2] ?? 1_000_000);
const kept = process.argv[3];
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');
const home = mkdtempSync(path.join(tmpdir(), 'trk-bench-report-'));
const file = kept ?? path.join(home, 'mirror.db');
const env = trkEnv(home, { key: 'unused' });
const RUNS = 5;

/** Runs trk; its wall time, and its CPU time (user and system, from bench/peak-rss.cjs): on a busy machine the
 * wall time counts the waits for a core, the CPU time what a quiet machine's wall time would be. */
function run(args) {
  const probe = path.join(home, `probe-${process.hrtime.bigint()}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [trk, ...args, '--db', file], {
    env: {
      ...env,
      NODE_OPTIONS: `--require ${path.join(here, 'peak-rss.cjs')}`,
      PEAK_RSS_FILE: `${probe}.rss`,
      PEAK_CPU_FILE: `${probe}.cpu`,
    },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`trk ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { seconds, cpu: Number(readFileSync(`${probe}.cpu`, 'utf8')) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  if (!existsSync(file)) {
    const t0 = performance.now();
    console.log(`writing a mirror of ${records.toLocaleString('en-US')} records with their details...`);
    await buildReportMirror(file, records);
    console.log(`  written in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  // The first open after an upgrade makes the report's indexes (migration 3), once; a mirror written by this trk
  // has them from the start.
  run(['list', '--offline', '--limit', '1', '--json']);
  const yardstick = median(
    Array.from({ length: RUNS }, () => run(['list', '--offline', '--limit', '1', '--json']).seconds),
  );
  console.log(`yardstick: trk list --offline --limit 1 (start, open): median ${yardstick.toFixed(2)} s`);
  const cases = [
    ['report', '--json'],
    ['report', '--json', '--by', 'lane'],
    ['report', '--json', '--by', 'carrier,lane'],
    ['report', '--json', '--by', 'week'],
    ['report', '--json', '--by', 'month', '--since', '90d'],
    ['report', '-o', 'table', '--no-pager'],
    ['report', '--html', path.join(home, 'report.html')],
  ];
  console.log(`trk report over ${records.toLocaleString('en-US')} records, ${RUNS} runs each (target: under 2 s):`);
  for (const args of cases) {
    const runs = Array.from({ length: RUNS }, () => run(args));
    const m = median(runs.map((r) => r.seconds));
    const cpu = median(runs.map((r) => r.cpu));
    const shown = args.map((a) => (a.startsWith(home) ? 'FILE' : a)).join(' ');
    console.log(
      `  ${shown.padEnd(44)} median ${m.toFixed(2)} s (CPU ${cpu.toFixed(2)} s), best ` +
        `${Math.min(...runs.map((r) => r.seconds)).toFixed(2)} s; yardstick × ${(m / yardstick).toFixed(1)}`,
    );
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
