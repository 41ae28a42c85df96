// One-shot commands as people run them in shell loops and cron: `trk quota --json`, `trk info N --json`,
// `trk list --json` (one page) and `trk stop N --json`, each a process of its own, against the emulator in a
// process of its own (bench/emulator.mjs, no latency, rate limit lifted). The yardstick of each is
// bench/http-post.cjs making the same POST with node:http and printing the answer's data as JSON, measured in
// the same run, alternating with trk so that load hits both alike. Reported per installed Node (bench/nodes.mjs):
// the median wall time of each and their ratio, and the median peak RSS (GNU time's %M; a preloaded probe where
// /usr/bin/time is missing). NODE_EXTRA_CA_CERTS is removed from what is measured (it costs Node 20 some 35 ms a
// start). The budget folder under the state folder is removed before each run, so that no run waits for the
// pace of the runs before it.
//
//   npm run build && node bench/one-shot.mjs [runs=15]
//
// Targets: at most 2.0x the yardstick on Node 22 and 24, 2.5x on Node 20; peak RSS at most 60 MiB on 22 and 24.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedNodes } from './nodes.mjs';
import { trkEnv } from './trk-env.mjs';

const runs = Number(process.argv[2] ?? 15);
const here = path.dirname(fileURLToPath(import.meta.url));
const trk = path.join(here, '..', 'bin', 'trk.js');
const yardstick = path.join(here, 'http-post.cjs');
const probe = path.join(here, 'peak-rss.cjs');
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

const emulator = spawn(process.execPath, [path.join(here, 'emulator.mjs'), JSON.stringify({ rateLimit: 0 })], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const { url, key } = await new Promise((resolve, reject) => {
  emulator.stdout.setEncoding('utf8').once('data', (line) => resolve(JSON.parse(line)));
  emulator.once('exit', (code) => reject(new Error(`the emulator exited ${code}`)));
});

const home = mkdtempSync(path.join(tmpdir(), 'trk-one-shot-'));
const env = trkEnv(home, { url, key });
const budget = path.join(home, 'state', 'budget');
const post = (op, body) => [yardstick, `${url}/track/v2/${op}`, key, body];

// Twenty numbers registered, so that `list` is one page and `info` and `stop` have something to read and stop.
const numbers = Array.from({ length: 20 }, (_, i) => `RR${String(100000001 + i)}CN`);
const setup = spawnSync(
  process.execPath,
  post('register', JSON.stringify(numbers.map((number) => ({ number, carrier: 3011 })))),
  { encoding: 'utf8' },
);
if (setup.status !== 0 || !setup.stdout.includes('"accepted"'))
  throw new Error(`could not register the numbers: ${setup.stderr}`);
// A day on the emulator's clock, so that the carriers have tracked them: `info` reads details, not "no tracking
// information yet" (exit 1).
const advanced = await fetch(`${url}/__sandbox/advance`, { method: 'POST', body: JSON.stringify({ seconds: 86_400 }) });
if (!advanced.ok) throw new Error(`could not advance the emulator's clock: HTTP ${advanced.status}`);

const cases = [
  { name: 'quota --json', trk: ['quota', '--json'], post: post('getquota', '[]') },
  {
    name: 'info N --json',
    trk: ['info', numbers[0], '--json'],
    post: post('gettrackinfo', JSON.stringify([{ number: numbers[0] }])),
  },
  { name: 'list --json', trk: ['list', '--json'], post: post('gettracklist', JSON.stringify({ page_no: 1 })) },
  // The first run stops it; the others are told it is stopped already, as a loop over a list would be.
  {
    name: 'stop N --json',
    trk: ['stop', numbers[1], '--json'],
    post: post('stoptrack', JSON.stringify([{ number: numbers[1] }])),
  },
];

function run(node, args, { measureRss = false } = {}) {
  rmSync(budget, { recursive: true, force: true });
  let file;
  let spawnArgs = [node, ...args];
  const runEnv = { ...env };
  if (measureRss && gnuTime) spawnArgs = [gnuTime, '-f', '%M', ...spawnArgs];
  else if (measureRss) {
    file = path.join(home, 'rss');
    runEnv.NODE_OPTIONS = `--require ${probe}`;
    runEnv.PEAK_RSS_FILE = file;
  }
  const t0 = process.hrtime.bigint();
  const r = spawnSync(spawnArgs[0], spawnArgs.slice(1), { env: runEnv, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  if (!measureRss) return ms;
  const kb = gnuTime ? Number(r.stderr.trim().split('\n').pop()) : Number(readFileSync(file, 'utf8'));
  return kb / 1024;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `one-shot commands, median of ${runs} alternating runs, without NODE_EXTRA_CA_CERTS; loopback emulator, no ` +
    `latency, no rate limit`,
);
try {
  for (const { version, execPath } of installedNodes()) {
    for (const c of cases) {
      // A warm-up run each fills the compile cache and the file cache.
      run(execPath, [trk, ...c.trk]);
      run(execPath, c.post);
      const times = { trk: [], base: [] };
      for (let i = 0; i < runs; i++) {
        times.trk.push(run(execPath, [trk, ...c.trk]));
        times.base.push(run(execPath, c.post));
      }
      const rss = { trk: [], base: [] };
      for (let i = 0; i < 5; i++) {
        rss.trk.push(run(execPath, [trk, ...c.trk], { measureRss: true }));
        rss.base.push(run(execPath, c.post, { measureRss: true }));
      }
      const t = median(times.trk);
      const b = median(times.base);
      console.log(
        `${version.padEnd(9)} trk ${c.name.padEnd(14)} ${t.toFixed(1).padStart(6)} ms ÷ yardstick ` +
          `${b.toFixed(1).padStart(5)} ms = ${(t / b).toFixed(2)}x   ` +
          `peak RSS ${median(rss.trk).toFixed(0).padStart(3)} MiB (yardstick ${median(rss.base).toFixed(0)} MiB)`,
      );
    }
  }
} finally {
  emulator.stdin.end();
  rmSync(home, { recursive: true, force: true });
}
