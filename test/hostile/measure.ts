// Running the built CLI with its time and peak memory recorded, for tests that bound both (a command against a
// hostile service must end, and must not read an endless answer into memory).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, type Result } from '../e2e/helpers.js';

const BIN = path.join(ROOT, 'bin', 'trk.js');
const RSS_REPORTER = path.join(ROOT, 'test', 'hostile', 'report-rss.mjs');

export interface MeasuredRun extends Result {
  seconds: number;
  /** Peak resident memory of the trk process (NaN when it could not be recorded). */
  rssMB: number;
}

/** A run that goes on this long is killed, so that a hang fails its test without leaving the process behind. */
const KILL_AFTER_MS = 60_000;

export function trkMeasured(args: readonly string[], env: NodeJS.ProcessEnv, input = ''): Promise<MeasuredRun> {
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
    const killer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      const kb = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : NaN;
      resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000, rssMB: Math.round(kb / 1024) });
    });
    child.stdin.end(input);
  });
}
