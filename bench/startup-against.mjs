// Start-up of this checkout against another build of trk (an earlier commit, checked out and built beside it),
// measured in the same run, alternating, so that a restructuring is seen to cost nothing at start-up: `trk
// --version` and `trk --help` (bin/trk.js alone), `trk config list` and `trk carriers ups --sandbox` (the command
// line, one command's module, the settings; the sandbox's carrier list). Medians per installed Node
// (bench/nodes.mjs), and the ratio this ÷ other. Both builds run with one empty HOME and XDG folders.
//
//   git worktree add /tmp/trk-old <commit> && (cd /tmp/trk-old && npm ci && npm run build)
//   npm run build && node bench/startup-against.mjs /tmp/trk-old [runs=20]
//
// Target: every ratio within 1.10 on Node 20, 22 and 24.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedNodes } from './nodes.mjs';

const [other, runsArg] = process.argv.slice(2);
if (!other) {
  console.error('usage: node bench/startup-against.mjs OTHER_CHECKOUT [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? 20);
const here = path.dirname(fileURLToPath(import.meta.url));
const builds = [path.join(here, '..', 'bin', 'trk.js'), path.resolve(other, 'bin', 'trk.js')];
const home = mkdtempSync(path.join(tmpdir(), 'trk-startup-'));
const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, XDG_STATE_HOME: home, NO_COLOR: '1' };
const CASES = [['--version'], ['--help'], ['config', 'list'], ['carriers', 'ups', '--sandbox']];

/** Median wall time in ms of each [build, args], the builds alternating run by run. */
function medians(node) {
  const pairs = CASES.flatMap((args) => builds.map((trk) => [trk, ...args]));
  const times = pairs.map(() => []);
  for (const args of pairs) spawnSync(node, args, { stdio: 'ignore', env });
  for (let i = 0; i < runs; i++) {
    pairs.forEach((args, k) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(node, args, { stdio: 'ignore', env });
      if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
      times[k].push(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
}

console.log(`start-up, this checkout ÷ ${other}, median of ${runs} runs each`);
for (const { version, execPath } of installedNodes()) {
  const m = medians(execPath);
  const cells = CASES.map((args, k) => {
    const [mine, theirs] = [m[2 * k], m[2 * k + 1]];
    return `trk ${args.join(' ')} ${mine.toFixed(1)}/${theirs.toFixed(1)} ms ${(mine / theirs).toFixed(2)}x`;
  });
  console.log(`${version.padEnd(9)} ${cells.join('   ')}`);
}
rmSync(home, { recursive: true, force: true });
