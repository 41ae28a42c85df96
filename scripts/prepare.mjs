// npm's prepare step: build trk from its sources (tsc, then Rollup; see the build script of package.json).
//
// A checkout installed with `npm install -g .` (or `npm install -g <folder>`) is linked into the global prefix and
// prepared with its runtime dependencies only: npm leaves the development tools out of a global install. They are
// then installed into the checkout, from the lock file and without running anyone's scripts, before the build.
// The package as published carries its build (lib/), so its users never come here.

import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// Without npm's own settings of the global install around this step (global, omit=dev, the prefix): the tools go
// into this checkout, not the global prefix.
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));

function has(tool) {
  try {
    createRequire(path.join(root, 'package.json')).resolve(`${tool}/package.json`);
    return true;
  } catch {
    return false;
  }
}

function run(args) {
  execFileSync(npm, args, { cwd: root, env, stdio: 'inherit', shell: process.platform === 'win32' });
}

if (!has('typescript') || !has('rollup')) {
  process.stderr.write(
    'trk: installing the development tools into this checkout to build it (npm leaves them out of a global install)\n',
  );
  try {
    run(['install', '--include=dev', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund']);
  } catch {
    process.stderr.write(
      'trk: could not install the development tools: run "npm ci" in this checkout, then "npm install -g ." again\n',
    );
    process.exit(1);
  }
}
run(['run', 'build']);
