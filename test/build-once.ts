// Vitest's global setup: the built CLI (lib/, what bin/trk.js runs) that the tests of a process spawn is made once
// per run, and only when a source is newer than it. `npm ci` builds it already (npm's prepare step), so a fresh
// clone's `npm test` builds nothing more; after an edit of src/, the run starts with a build.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the build reads. */
const INPUTS = ['src', 'bin', 'packages', 'package.json', 'tsconfig.json', 'rollup.config.mjs'];
/** What the build writes last: newer than every input when the build is current. */
const OUTPUT = path.join(ROOT, 'lib', 'modules.json');

function newest(p: string): number {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(p).map((name) => newest(path.join(p, name))));
}

export default function buildOnce(): void {
  const builtAt = existsSync(OUTPUT) ? statSync(OUTPUT).mtimeMs : -1;
  const changed = INPUTS.map((p) => path.join(ROOT, p)).filter((p) => existsSync(p) && newest(p) > builtAt);
  if (changed.length === 0) return;
  const why = builtAt < 0 ? 'lib/ is missing' : `${changed.map((p) => path.relative(ROOT, p)).join(', ')} changed`;
  process.stdout.write(`building trk for the tests of a process (${why}): npm run build\n`);
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
