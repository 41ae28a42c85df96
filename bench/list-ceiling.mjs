// `trk list --json` at the service's ceiling: N registered records (default 20,000: 500 pages of 40) listed from the
// emulator in a process of its own (bench/service.mjs) with a fixed latency (default 1,000 ms) and its strict
// limit of 3 requests a second. The yardstick is that ceiling, 3 pages a second: reported per installed Node
// (bench/nodes.mjs) as the fraction of it trk reached (pages ÷ seconds ÷ 3), with the HTTP 429 answers the
// emulator gave and trk's peak RSS. NODE_EXTRA_CA_CERTS is removed from what is measured.
//
//   npm run build && node bench/list-ceiling.mjs [records=20000] [latencyMs=1000]
//
// Target: at least 0.9 of the ceiling at 1 s latency for 20,000 records, flat memory (one page in flight at a
// time reached 0.33).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIMITS } from '@trk/service/vocabulary.js';
import { installedNodes } from './nodes.mjs';
import { startService } from './service.mjs';
import { trkEnv } from './trk-env.mjs';

const count = Number(process.argv[2] ?? 20_000);
const latencyMs = Number(process.argv[3] ?? 1000);
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

// Simulated time stands still (speed 0): its world does no work between requests, so what is measured is
// trk's pacing against a strict limiter, not the pauses of an emulator simulating 20,000 parcels.
const service = await startService({ rateLimit: 0, quotaTotal: count + 10, speed: 0 });
const { url, key, control } = service;

for (let i = 0; i < count; i += 40) {
  const body = Array.from({ length: Math.min(40, count - i) }, (_, k) => ({
    number: `RR${String(100000001 + i + k)}CN`,
    carrier: 3011,
  }));
  const res = await fetch(`${url}/track/v2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', svctoken: key },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`register answered HTTP ${res.status}`);
}
await control({ settings: { rateLimit: 3 }, faults: { latencyMs } });

const home = mkdtempSync(path.join(tmpdir(), 'trk-list-ceiling-'));
const env = trkEnv(home, { url, key });
const pages = Math.ceil(count / LIMITS.pageSize);

console.log(
  `trk list --json > /dev/null: ${count.toLocaleString('en-US')} records (${pages} pages), ${latencyMs} ms ` +
    `latency, strict limit of 3 requests/s; yardstick: the ceiling of 3 pages/s (${(pages / 3).toFixed(1)} s)`,
);
try {
  for (const { version, execPath } of installedNodes()) {
    const before = (await control({ state: true })).requests;
    const cmd = gnuTime ? [gnuTime, '-f', '%M', execPath, trk, 'list', '--json'] : [execPath, trk, 'list', '--json'];
    const t0 = performance.now();
    const r = spawnSync(cmd[0], cmd.slice(1), { env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    const seconds = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`trk list exited ${r.status}: ${r.stderr}`);
    const after = (await control({ state: true })).requests;
    const limited = (after.byStatus['429'] ?? 0) - (before.byStatus['429'] ?? 0);
    const rss = gnuTime ? `${(Number(r.stderr.trim().split('\n').pop()) / 1024).toFixed(0)} MiB` : 'n/a';
    console.log(
      `${version.padEnd(9)} ${seconds.toFixed(1).padStart(6)} s   ${(pages / seconds).toFixed(2)} pages/s = ` +
        `${(pages / seconds / 3).toFixed(3)} of the ceiling   ` +
        `${limited} x HTTP 429   peak RSS ${rss}`,
    );
  }
} finally {
  service.close();
  rmSync(home, { recursive: true, force: true });
}
