// A bulk import at the service's ceiling on a loaded machine: `trk register -f numbers.csv` (default 3,000 new
// numbers, 75 requests of 40) as a process of its own, against the emulator in a process of its own
// (bench/emulator.mjs) with its strict limit of 3 requests in any second, at several latencies (default 0, 300,
// 1,000 and 2,000 ms), each quiet and again with a CPU-bound process running beside it. The yardstick is the
// ceiling, 3 requests (120 numbers) a second: reported per installed Node (bench/nodes.mjs) as the fraction of it
// the emulator saw, (requests - 1) / 3 seconds over the time from the first register request's arrival to the
// last's, with the HTTP 429 answers it gave and the wall time of the whole command (quota check, first and last
// latency included). NODE_EXTRA_CA_CERTS is removed from what is measured.
//
//   npm run build && node bench/bulk-import.mjs [numbers=3000] [latencies=0,300,1000,2000] [load=both|quiet|cpu]
//
// Target: at least 0.95 of the ceiling with 0 HTTP 429 at every latency, also with the CPU-bound process beside.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { installedNodes } from './nodes.mjs';

const count = Number(process.argv[2] ?? 3000);
const latencies = (process.argv[3] ?? '0,300,1000,2000').split(',').map(Number);
const loads = { both: ['quiet', 'cpu'], quiet: ['quiet'], cpu: ['cpu'] }[process.argv[4] ?? 'both'];
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');

const emulator = spawn(process.execPath, [path.join(here, 'emulator.mjs'), JSON.stringify({ rateLimit: 3, quotaTotal: 10_000_000 })], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const replies = createInterface({ input: emulator.stdout })[Symbol.asyncIterator]();
const { url, key } = JSON.parse((await replies.next()).value);
async function control(request) {
  emulator.stdin.write(`${JSON.stringify(request)}\n`);
  return JSON.parse((await replies.next()).value);
}

const home = mkdtempSync(path.join(tmpdir(), 'trk-bulk-'));
let batch = 0;

async function run(node, latencyMs, load) {
  batch += 1;
  const dir = path.join(home, `run-${batch}`);
  const file = path.join(home, `numbers-${batch}.csv`);
  const lines = ['number,carrier'];
  for (let i = 1; i <= count; i++) lines.push(`R${String(batch).padStart(3, '0')}${String(i).padStart(7, '0')}CN,3011`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  await control({ faults: { latencyMs } });
  await control({ arrivals: 'register' });
  const before = (await control({ state: true })).requests.byStatus['429'] ?? 0;
  // A CPU-bound process beside the run, as other work on a shared machine.
  const burner = load === 'cpu' ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }) : undefined;
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    TRK_BASE_URL: url,
    TRK_API_KEY: key,
    TRK_CONFIG_DIR: path.join(dir, 'config'),
    TRK_STATE_DIR: path.join(dir, 'state'),
    TRK_CACHE_DIR: path.join(dir, 'cache'),
    TRK_RES_URL: 'http://127.0.0.1:9',
  };
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
    const arrivals = await control({ arrivals: 'register' });
    const limited = ((await control({ state: true })).requests.byStatus['429'] ?? 0) - before;
    const span = (arrivals.at(-1) - arrivals[0]) / 1000;
    return { requests: arrivals.length, fraction: (arrivals.length - 1) / 3 / span, limited, seconds };
  } finally {
    burner?.kill();
  }
}

console.log(
  `trk register -f (${count.toLocaleString('en-US')} new numbers) against a strict limit of 3 requests/s; ` +
    `fraction of the ceiling as the service saw the requests arrive, HTTP 429s, wall time`,
);
try {
  for (const { version, execPath } of installedNodes()) {
    for (const latencyMs of latencies) {
      for (const load of loads) {
        const r = await run(execPath, latencyMs, load);
        console.log(
          `${version.padEnd(9)} latency ${String(latencyMs).padStart(4)} ms  ${load === 'cpu' ? 'CPU-bound process beside' : 'quiet                   '}  ` +
            `${r.fraction.toFixed(3)} of the ceiling  ${r.limited} x HTTP 429  ${r.requests} requests  ${r.seconds.toFixed(1)} s in all`,
        );
      }
    }
  }
} finally {
  emulator.stdin.end();
  rmSync(home, { recursive: true, force: true });
}
