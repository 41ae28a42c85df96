// Start-up cost of `trk --version` and `trk --help`, as a ratio to bare `node -e 0`.
// Target: at most 1.6x. Run after `npm run build`:  node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 30);
const trk = fileURLToPath(new URL('../bin/trk.js', import.meta.url));

function median(args) {
  const times = [];
  // One warm-up run fills the compile cache and the OS file cache.
  spawnSync(process.execPath, args, { stdio: 'ignore' });
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const base = median(['-e', '0']);
const rows = [
  ['node -e 0', base],
  ['trk --version', median([trk, '--version'])],
  ['trk --help', median([trk, '--help'])],
];
for (const [name, ms] of rows) {
  console.log(`${name.padEnd(16)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / base).toFixed(2)}x`);
}
