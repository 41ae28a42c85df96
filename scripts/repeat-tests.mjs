// Runs test files again and again, beside processes that keep the CPU busy, to show that none fails by chance:
//
//   node scripts/repeat-tests.mjs [FILE...] [--times N] [--busy N]
//   npm run test:repeat -- test/items/run.test.ts --times 10 --busy 2
//
// FILE: test files or folders as vitest takes them (none: the whole suite). --times: runs in a row (default 5).
// --busy: processes spinning on a core each while the runs go (default 2, as many as this machine's cores). Each
// run's outcome is one line; the last line counts the runs that failed, and the exit status is 1 when any did.

import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const opts = { files: [], times: 5, busy: 2 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--times' || arg === '--busy') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0 || (arg === '--times' && n < 1)) {
        console.error(`repeat-tests: ${arg} takes a whole number${arg === '--times' ? ' of 1 or more' : ''}`);
        process.exit(2);
      }
      opts[arg.slice(2)] = n;
    } else if (arg.startsWith('-')) {
      console.error(`repeat-tests: unknown option ${arg} (usage: repeat-tests.mjs [FILE...] [--times N] [--busy N])`);
      process.exit(2);
    } else {
      opts.files.push(arg);
    }
  }
  return opts;
}

/** A process that keeps one core busy until it is killed. */
function spinner() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  child.unref();
  return child;
}

function runOnce(files) {
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const started = Date.now();
  const r = spawnSync(process.execPath, [vitest, 'run', '--reporter=dot', ...files], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const text = `${r.stdout}\n${r.stderr}`;
  const failedTests = [...text.matchAll(/^\s*(?:×|FAIL)\s+(.+)$/gm)].map((m) => m.at(1).trim());
  return { ok: r.status === 0, seconds: (Date.now() - started) / 1000, failedTests, text };
}

const opts = parseArgs(process.argv.slice(2));
const busy = Array.from({ length: opts.busy }, spinner);
const stop = () => {
  for (const child of busy) child.kill('SIGKILL');
};
process.on('exit', stop);
// Stopped from outside: the busy processes go too (they would spin on after this script otherwise).
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

let failed = 0;
for (let run = 1; run <= opts.times; run++) {
  const r = runOnce(opts.files);
  if (!r.ok) failed += 1;
  console.log(`run ${run}/${opts.times}: ${r.ok ? 'passed' : 'FAILED'} in ${r.seconds.toFixed(0)} s`);
  if (!r.ok) {
    const shown = r.failedTests.length > 0 ? r.failedTests : [r.text.trim().split('\n').slice(-20).join('\n')];
    for (const line of shown) console.log(`  ${line}`);
  }
}
stop();
console.log(`${opts.times - failed} runs passed, ${failed} failed (beside ${opts.busy} busy processes)`);
process.exitCode = failed > 0 ? 1 : 0;
