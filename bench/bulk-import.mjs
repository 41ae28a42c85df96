// Bulk import at the service's ceiling: N numbers registered against the emulator (started in this process)
// with a fixed latency and the service's rate limit of 3 requests a second enforced.
// Reports throughput as a fraction of the ceiling (40 items x 3 requests = 120 numbers a second), the number
// of HTTP 429 answers the emulator gave, and the peak RSS of this process (emulator included).
//
//   npm run build && node bench/bulk-import.mjs [numbers=20000] [latencyMs=1000] [dropRate=0]
//
// Target (issue 4): 100,000 numbers with 1 s latency in at most 1.05x the ideal 833 s, with zero 429.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBulkFromFile } from '../dist/items/run-file.js';
import { createContext } from '../dist/context-impl.js';
import { createTestIO } from '../dist/io.js';
import { startSandbox } from '../dist/sandbox/index.js';

const count = Number(process.argv[2] ?? 20_000);
const latencyMs = Number(process.argv[3] ?? 1000);
const dropRate = Number(process.argv[4] ?? 0);

const dir = mkdtempSync(path.join(tmpdir(), 'trk-bench-'));
const file = path.join(dir, 'numbers.csv');
const lines = ['number'];
for (let i = 1; i <= count; i++) lines.push(`RR${String(i).padStart(9, '0')}CN`);
writeFileSync(file, `${lines.join('\n')}\n`);

const sandbox = await startSandbox({ rateLimit: 3, latencyMs, dropRate, quotaTotal: count * 2 + 10 });
const io = createTestIO();
// The context the CLI builds: its client is paced by the budget shared by every process on the key.
const ctx = createContext({
  io,
  env: {
    TRK_BASE_URL: sandbox.url,
    TRK_API_KEY: sandbox.key,
    TRK_RES_URL: sandbox.url,
    TRK_STATE_DIR: path.join(dir, 'state'),
    TRK_CONFIG_DIR: path.join(dir, 'config'),
  },
  global: {},
});

let ticks = 0;
const progress = setInterval(() => {
  ticks += 1;
  const s = sandbox.state();
  process.stderr.write(`  ${ticks * 10}s: ${s.account.records} registered, ${s.requests.byStatus['429'] ?? 0} x 429\n`);
}, 10_000);

const started = performance.now();
const report = await runBulkFromFile(ctx, { operation: 'register', file, progress: 'none', collect: false });
const seconds = (performance.now() - started) / 1000;
clearInterval(progress);

const state = sandbox.state();
await ctx.dispose();
await sandbox.close();
rmSync(dir, { recursive: true, force: true });

const requests = Math.ceil(count / 40);
const ideal = requests / 3;
const rate = count / seconds;
const out = {
  numbers: count,
  latencyMs,
  dropRate,
  seconds: Number(seconds.toFixed(1)),
  idealSeconds: Number(ideal.toFixed(1)),
  vsIdeal: Number((seconds / ideal).toFixed(3)),
  perSecond: Number(rate.toFixed(1)),
  ofCeiling: Number((rate / 120).toFixed(3)),
  http429: state.requests.byStatus['429'] ?? 0,
  requests: state.requests.total,
  registered: state.account.records,
  quotaUsed: state.account.quotaUsed,
  accepted: report.summary?.accepted,
  verified: report.summary?.verified,
  peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
};
console.log(JSON.stringify(out, null, 2));
