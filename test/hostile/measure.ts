// Running the built CLI with its peak memory recorded, for tests that bound it (a command against a hostile service
// must not read an endless answer into memory).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertBuilt, ROOT, type Result } from '../e2e/helpers.js';

const BIN = path.join(ROOT, 'bin', 'trk.js');
const RSS_REPORTER = path.join(ROOT, 'test', 'hostile', 'report-rss.mjs');

export interface MeasuredRun extends Result {
  /** Real time the process took: for messages only, since a loaded machine makes any bound on it a matter of chance. */
  seconds: number;
  /** Peak resident memory of the trk process (NaN when it could not be recorded: it was killed). */
  rssMB: number;
  /** The signal that ended it: SIGKILL when it ran for KILL_AFTER_MS. */
  signal: NodeJS.Signals | null;
}

/**
 * A run that goes on this long is killed, so that a command that never ends fails its test (no exit code) without
 * leaving the process behind. Real time: the subject is a process, which the tests' clock does not reach.
 */
export const KILL_AFTER_MS = 60_000;

export function trkMeasured(args: readonly string[], env: NodeJS.ProcessEnv, input = ''): Promise<MeasuredRun> {
  assertBuilt();
  const rssFile = path.join(mkdtempSync(path.join(tmpdir(), 'trk-rss-')), 'rss');
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', RSS_REPORTER, BIN, ...args], {
      env: { ...env, HOSTILE_RSS_FILE: rssFile },
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Real time: a bound on a process of its own, so that a hang fails its test instead of waiting.
    const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      const kb = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : NaN;
      const seconds = (performance.now() - started) / 1000;
      resolve({ code, stdout, stderr, seconds, rssMB: Math.round(kb / 1024), signal });
    });
    // A command that exits without reading its input closes the pipe first.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
