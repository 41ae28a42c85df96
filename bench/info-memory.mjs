// Memory of a big answer: `trk info -f numbers.txt --json` over N registered numbers (default 2,000) against the
// emulator in a process of its own (bench/emulator.mjs, no latency), its output sent to /dev/null. Reported per
// installed Node (bench/nodes.mjs): the peak RSS of trk (GNU time's %M, or a preloaded probe) and, as the
// yardstick measured in the same run, the peak RSS of the same command for one number; their difference is
// what the N numbers cost. The items are written as their chunks settle, so the figure stays flat whatever N.
// NODE_EXTRA_CA_CERTS is removed from what is measured.
//
//   npm run build && node bench/info-memory.mjs [numbers=2000]
//
// Target: under 100 MiB for any count (it peaked at 146-157 MiB for 2,000 when every item was gathered first).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedNodes } from './nodes.mjs';
import { trkEnv } from './trk-env.mjs';

const count = Number(process.argv[2] ?? 2000);
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const emulator = spawn(
  process.execPath,
  [path.join(here, 'emulator.mjs'), JSON.stringify({ rateLimit: 0, quotaTotal: count + 10 })],
  {
    stdio: ['pipe', 'pipe', 'inherit'],
  },
);
const { url, key } = await new Promise((resolve, reject) => {
  emulator.stdout.setEncoding('utf8').once('data', (line) => resolve(JSON.parse(line)));
  emulator.once('exit', (code) => reject(new Error(`the emulator exited ${code}`)));
});

const home = mkdtempSync(path.join(tmpdir(), 'trk-info-memory-'));
const numbers = Array.from({ length: count }, (_, i) => `RR${String(100000001 + i)}CN`);
const file = path.join(home, 'numbers.txt');
writeFileSync(file, `${numbers.join('\n')}\n`);
for (let i = 0; i < numbers.length; i += 40) {
  const res = await fetch(`${url}/track/v2/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', svctoken: key },
    body: JSON.stringify(numbers.slice(i, i + 40).map((number) => ({ number, carrier: 3011 }))),
  });
  if (!res.ok) throw new Error(`register answered HTTP ${res.status}`);
}

const env = trkEnv(home, { url, key });

/** Peak RSS in MiB and seconds of `node trk ...args`. */
function peak(node, args) {
  const probe = path.join(home, 'rss');
  const runEnv = gnuTime
    ? env
    : { ...env, NODE_OPTIONS: `--require ${path.join(here, 'peak-rss.cjs')}`, PEAK_RSS_FILE: probe };
  const cmd = gnuTime ? [gnuTime, '-f', '%M', node, trk, ...args] : [node, trk, ...args];
  const t0 = performance.now();
  const r = spawnSync(cmd[0], cmd.slice(1), {
    env: runEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`trk ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const kb = gnuTime ? Number(r.stderr.trim().split('\n').pop()) : Number(readFileSync(probe, 'utf8'));
  return { mib: kb / 1024, seconds };
}

console.log(
  `trk info -f (${count.toLocaleString('en-US')} numbers) --json > /dev/null: peak RSS, and the same for one ` +
    `number as the yardstick`,
);
try {
  for (const { version, execPath } of installedNodes()) {
    const one = peak(execPath, ['info', numbers[0], '--json']);
    const many = peak(execPath, ['info', '-f', file, '--json']);
    console.log(
      `${version.padEnd(9)} ${many.mib.toFixed(0).padStart(4)} MiB in ${many.seconds.toFixed(1)} s   one number ` +
        `${one.mib.toFixed(0)} MiB   ` +
        `ratio ${(many.mib / one.mib).toFixed(2)}x   the ${count.toLocaleString('en-US')} numbers cost ` +
        `${(many.mib - one.mib).toFixed(0)} MiB`,
    );
  }
} finally {
  emulator.stdin.end();
  rmSync(home, { recursive: true, force: true });
}
