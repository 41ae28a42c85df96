// Start-up cost of `trk --version`, `trk --help` and `trk list --help`, as a ratio to bare `node -e 0` measured in the
// same run,
// on every installed Node (bench/nodes.mjs). NODE_EXTRA_CA_CERTS is removed from the environment: it makes
// every Node 20 start read a certificate bundle (~35 ms), which would flatter the ratio.
// Run after `npm run build`:  node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { installedNodes } from './nodes.mjs';

const runs = Number(process.argv[2] ?? 30);
const trk = fileURLToPath(new URL('../bin/trk.js', import.meta.url));
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

/** Median wall time in ms of `node ...args`; runs alternate with the yardstick so load hits both alike. */
function medians(node, cases) {
  const times = cases.map(() => []);
  // One warm-up run each fills the compile cache and the OS file cache.
  for (const args of cases) spawnSync(node, args, { stdio: 'ignore', env });
  for (let i = 0; i < runs; i++) {
    cases.forEach((args, k) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(node, args, { stdio: 'ignore', env });
      if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
      times[k].push(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

console.log(`start-up, median of ${runs} runs, without NODE_EXTRA_CA_CERTS`);
for (const { version, execPath } of installedNodes()) {
  const [base, ver, help, listHelp] = medians(execPath, [
    ['-e', '0'],
    [trk, '--version'],
    [trk, '--help'],
    [trk, 'list', '--help'],
  ]);
  const ratio = (ms) => `${ms.toFixed(1).padStart(6)} ms ${(ms / base).toFixed(2)}x`;
  console.log(
    `${version.padEnd(9)} node -e 0 ${base.toFixed(1).padStart(6)} ms   trk --version ${ratio(ver)}   trk ` +
      `--help ${ratio(help)}   trk list --help ${ratio(listHelp)}`,
  );
}
