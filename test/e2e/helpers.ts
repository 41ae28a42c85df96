// End-to-end harness: the project's emulator in this process on 127.0.0.1, and trk run against it with a private
// config and state folder: in this process through its entry (src/cli.ts runCli, with captured streams that are
// not terminals, 80 columns as a pipe has), or, where the process itself is what is tested (exit status, signals,
// pipes, a terminal, cron's empty environment), the built CLI (bin/trk.js; `npm test` builds it) spawned.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { runCli } from '../../src/cli.js';
import { clock } from '../../src/core/clock.js';
import type { OutputTarget } from '../../src/io/io.js';
import { createTestIO } from '../test-io.js';
import { RATE_WINDOW_MS } from '@trk/sandbox/http/rate-limit.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@trk/sandbox/http/server.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'trk.js');

export function assertBuilt(): void {
  if (!existsSync(path.join(ROOT, 'lib', 'cli.js'))) {
    throw new Error('lib/cli.js is missing: run "npm run build" before the end-to-end tests (npm test does)');
  }
}

export interface Emulator {
  sandbox: RunningSandbox;
  /** Environment pointing trk at the emulator with its key, in fresh config/state folders. */
  env: NodeJS.ProcessEnv;
  /** API requests the emulator has received so far. */
  requests(): number;
  close(): Promise<void>;
}

export async function startEmulator(opts: SandboxOptions = {}): Promise<Emulator> {
  // On the tests' clock, as trk in this process is: both see the time its waits skip alike.
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    rateLimit: 3,
    strictPaths: true,
    time: clock(),
    ...opts,
  });
  return {
    sandbox,
    env: { ...baseEnv(), TRK_BASE_URL: sandbox.url, TRK_API_KEY: sandbox.key },
    requests: () => sandbox.state().requests.total,
    close: () => sandbox.close(),
  };
}

/**
 * A clean environment: nothing of the caller's TRK_* settings, colour off, private folders. The carrier lists
 * point at a closed loopback port unless a test says otherwise, so no lookup can reach the real service's
 * address; every test that sends names its emulator's base URL (in the environment or a profile).
 */
export function baseEnv(): NodeJS.ProcessEnv {
  const home = mkdtempSync(path.join(tmpdir(), 'trk-e2e-'));
  return {
    PATH: process.env.PATH,
    HOME: home,
    TRK_CONFIG_DIR: path.join(home, 'config'),
    TRK_STATE_DIR: path.join(home, 'state'),
    TRK_CACHE_DIR: path.join(home, 'cache'),
    NO_COLOR: '1',
    TRK_RES_URL: 'http://127.0.0.1:9',
  };
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  /** What stdin holds (a file or a pipe, not a terminal); empty by default. */
  input?: string;
  /** Aborts the command as Ctrl-C does. */
  signal?: AbortSignal;
  /** Where stdout goes, as the command sees it; a file by default (what it wrote is captured whole). */
  stdoutTarget?: OutputTarget;
}

/** One trk command line in this process, as a shell would run it with stdin, stdout and stderr not terminals. */
export async function trk(args: readonly string[], opts: RunOptions): Promise<Result> {
  const stdin = Readable.from(opts.input ? [Buffer.from(opts.input)] : []);
  const io = createTestIO({ stdin, columns: 80, ...(opts.stdoutTarget && { stdoutTarget: opts.stdoutTarget }) });
  const code = await runCli([...args], { io, env: opts.env, ...(opts.signal ? { signal: opts.signal } : {}) });
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

/**
 * Before a process of its own starts against an emulator of this process: that process paces itself on the
 * machine's time, while the emulator counts on the tests' clock, which runs ahead by the waits it skipped. One
 * window of that clock passes first, so the requests trk made in this process are behind it, as they would be for a
 * command started after them.
 */
export async function beforeProcess(): Promise<void> {
  await clock().sleep(RATE_WINDOW_MS + 100);
}

/**
 * Before a process of its own starts on `env`'s state folder, where trk in this process has already paced itself:
 * the budget file's times were written on the tests' clock, ahead of the machine's by the waits it skipped, and
 * would be holds and starts still to come for the new process. It starts from an empty budget, after a window.
 */
export async function budgetForAProcess(env: NodeJS.ProcessEnv): Promise<void> {
  rmSync(path.join(env.TRK_STATE_DIR!, 'budget'), { recursive: true, force: true });
  await beforeProcess();
}

/** One trk command line in a process of its own (bin/trk.js): for what only a process shows. */
export async function trkProcess(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; input?: string },
): Promise<Result> {
  assertBuilt();
  await beforeProcess();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: opts.env,
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that exits without reading its input (a usage error, a missing key) closes the pipe first.
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
  });
}

/** `count` valid, distinct tracking numbers. */
export function numbers(count: number, prefix = 'RR'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(100000000 + i * 7919).slice(-9)}CN`);
}

export function parseCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/** Every page of gettracklist straight from the emulator, without trk: the reference answer. */
export async function emulatorList(emu: Emulator, filter: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  for (let page = 1; ; ) {
    // Within the emulator's rate limit, on its clock; a 429 (trk's own requests in the same second) is retried.
    await clock().sleep(400);
    const res = await fetch(`${emu.sandbox.url}/track/v2/gettracklist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', svctoken: emu.sandbox.key },
      body: JSON.stringify({ ...filter, page_no: page }),
    });
    if (res.status === 429) continue;
    const env = (await res.json()) as { data: { accepted: Record<string, unknown>[] }; page: { page_total: number } };
    if (res.status !== 200 || !Array.isArray(env.data?.accepted))
      throw new Error(`emulator answered ${res.status}: ${JSON.stringify(env)}`);
    all.push(...env.data.accepted);
    if (page >= env.page.page_total) return all;
    page += 1;
  }
}

/** A trk command that runs until stopped (a server, a listener), in this process: read while it runs. */
export interface RunningTrk {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in what it printed on `stream`; rejects if it ends first. */
  printed(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<RegExpExecArray>;
  /** Ctrl-C. */
  interrupt(): void;
  /** Its outcome, once it ended. */
  done: Promise<Result>;
}

/** One trk command line in this process that runs until interrupted, as trk() runs one that ends by itself. */
export function trkRunning(args: readonly string[], opts: { env: NodeJS.ProcessEnv; input?: string }): RunningTrk {
  const stdin = Readable.from(opts.input ? [Buffer.from(opts.input)] : []);
  const io = createTestIO({ stdin, columns: 80 });
  const watchers = new Set<() => void>();
  const wake = () =>
    queueMicrotask(() => {
      for (const w of [...watchers]) w();
    });
  const { out, err } = io;
  io.out = (text) => {
    out(text);
    wake();
  };
  io.err = (line) => {
    err(line);
    wake();
  };
  for (const stream of [io.stdout, io.stderr]) {
    const write = stream.write.bind(stream) as (...a: unknown[]) => boolean;
    stream.write = ((...a: unknown[]) => {
      const flowing = write(...a);
      wake();
      return flowing;
    }) as typeof stream.write;
  }
  const ctrlC = new AbortController();
  let ended = false;
  const done = runCli([...args], { io, env: opts.env, signal: ctrlC.signal }).then((code) => {
    ended = true;
    wake();
    return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
  });
  const text = (stream: 'stdout' | 'stderr') => (stream === 'stdout' ? io.stdoutText() : io.stderrText());
  return {
    stdout: () => io.stdoutText(),
    stderr: () => io.stderrText(),
    printed: (pattern, stream = 'stderr') =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(text(stream));
          if (!m && !ended) return;
          watchers.delete(check);
          if (m) resolve(m);
          else reject(new Error(`trk ${args.join(' ')} ended without printing ${pattern}:\n${io.stderrText()}`));
        };
        watchers.add(check);
        check();
      }),
    interrupt: () => ctrlC.abort(),
    done,
  };
}

/** A shell command line (`sh -c`), stdin empty, as cron and scripts run one: its exit code and what it printed. */
export function shellLine(
  line: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', line], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
