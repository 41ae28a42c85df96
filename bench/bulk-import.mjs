// A bulk import at the service's ceiling on a loaded machine: `trk register -f numbers.csv` (default 3,000 new
// numbers, 75 requests of 40) as a process of its own, against the emulator in a process of its own
// (bench/service.mjs, a fresh one for each run, its simulated time standing still) with its strict limit of 3
// requests in any second, at several latencies (default 0, 300, 1,000 and 2,000 ms), each quiet and again with a
// CPU-bound process running beside it. The yardstick is the ceiling, 3 requests (120 numbers) in any second:
// reported per installed Node (bench/nodes.mjs) as the fraction of it the emulator saw, 1 s over the mean time
// from each register request's arrival to the arrival of the third after it (whatever the pattern, bursts of
// three or even spacing, that is 1 s at the ceiling); with the HTTP 429 answers it gave, and the wall time of the
// whole command (start-up, input check, quota check, the first and last latency included) as numbers a second.
// NODE_EXTRA_CA_CERTS is removed from what is measured.
//
//   npm run build && node bench/bulk-import.mjs [numbers=3000] [latencies=0,300,1000,2000] [load=both|quiet|cpu]
//
// Target: at least 0.95 of the ceiling with 0 HTTP 429 at every latency, also with the CPU-bound process beside.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedNodes } from './nodes.mjs';
import { startService } from './service.mjs';
import { trkEnv } from './trk-env.mjs';

const count = Number(process.argv[2] ?? 3000);
const latencies = (process.argv[3] ?? '0,300,1000,2000').split(',').map(Number);
const loads = { both: ['quiet', 'cpu'], quiet: ['quiet'], cpu: ['cpu'] }[process.argv[4] ?? 'both'];
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');

/**
 * An emulator of its own for each run (bench/service.mjs), with simulated time standing still (its world does
 * no work between requests): what is measured is trk's pacing against a strict limiter.
 */
const startEmulator = (latencyMs) => startService({ rateLimit: 3, quotaTotal: 10_000_000, speed: 0, latencyMs });

const home = mkdtempSync(path.join(tmpdir(), 'trk-bulk-'));
let batch = 0;

async function run(node, latencyMs, load) {
  batch += 1;
  const dir = path.join(home, `run-${batch}`);
  const file = path.join(home, `numbers-${batch}.csv`);
  const lines = ['number,carrier'];
  for (let i = 1; i <= count; i++) lines.push(`R${String(batch).padStart(3, '0')}${String(i).padStart(7, '0')}CN,3011`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const emulator = await startEmulator(latencyMs);
  // A CPU-bound process beside the run, as other work on a shared machine.
  const burner = load === 'cpu' ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : undefined;
  const env = trkEnv(dir, emulator);
  try {
    const t0 = performance.now();
    const r = await new Promise((resolve) => {
      const child = spawn(node, [trk, 'register', '-f', file, '-q'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    const seconds = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`trk register exited ${r.status}: ${r.stderr}`);
    const arrivals = await emulator.control({ arrivals: 'register' });
    const limited = (await emulator.control({ state: true })).requests.byStatus['429'] ?? 0;
    let sum = 0;
    for (let i = 3; i < arrivals.length; i++) sum += arrivals[i] - arrivals[i - 3];
    const pace = sum / (arrivals.length - 3);
    return { requests: arrivals.length, fraction: 1000 / pace, limited, seconds };
  } finally {
    burner?.kill();
    emulator.close();
  }
}

console.log(
  `trk register -f (${count.toLocaleString('en-US')} new numbers) against a strict limit of 3 requests/s; ` +
    `fraction of the ceiling as the service saw the requests arrive, HTTP 429s, wall time of the command`,
);
try {
  for (const { version, execPath } of installedNodes()) {
    for (const latencyMs of latencies) {
      for (const load of loads) {
        const r = await run(execPath, latencyMs, load);
        console.log(
          `${version.padEnd(9)} latency ${String(latencyMs).padStart(4)} ms  ` +
            `${load === 'cpu' ? 'CPU-bound process beside' : 'quiet                   '}  ` +
            `${r.fraction.toFixed(3)} of the ceiling  ${r.limited} x HTTP 429  ${r.requests} requests  ` +
            `${r.seconds.toFixed(1)} s in all (${(count / r.seconds).toFixed(1)} numbers/s)`,
        );
      }
    }
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
