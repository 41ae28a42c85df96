// Bulk runs in processes of their own: one killed with SIGKILL in the middle of an import and run again, and
// two at once on the same key. The children run the built code (dist/): `npm test` builds first.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxRequestLog } from '@trk/sandbox';
import { numberList, registrations, tempDir, writeInput } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const child = path.join(here, 'fixtures', 'bulk-child.mjs');

beforeAll(() => {
  // A stale build would test old code: insist on one at least as new as the bulk sources.
  const built = path.join(root, 'dist', 'items', 'run.js');
  if (!existsSync(built)) throw new Error('dist/ is missing: run `npm run build` before these tests');
  const newest = Math.max(
    ...readdirSync(path.join(root, 'src', 'items')).map((f) => statSync(path.join(root, 'src', 'items', f)).mtimeMs),
  );
  if (statSync(built).mtimeMs < newest)
    throw new Error('dist/ is older than src/items: run `npm run build` before these tests');
});

let sandboxes: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  sandboxes = [];
});

/** An emulator and the log of the requests it has answered (or lost the client of), in the order they ended. */
async function sandbox(opts: Parameters<typeof startSandbox>[0]) {
  const log: SandboxRequestLog[] = [];
  // On the machine's time, not the tests' clock: its clients are processes of their own, which pace on that.
  const s = await startSandbox({ rateLimit: 3, strictPaths: true, onRequest: (e) => log.push(e), ...opts });
  sandboxes.push(s);
  return { s, log };
}

/** Requests the emulator has taken in and not yet answered. */
function inFlight(s: RunningSandbox): number {
  const { total, byStatus } = s.state().requests;
  return total - Object.values(byStatus).reduce((a, b) => a + b, 0);
}

/**
 * Resolves once every request the emulator took in has ended (answered, or its client gone) and what came in with
 * them has been read: a request is worked out as soon as it is read, so nothing more of a dead client's arrives.
 */
async function drained(s: RunningSandbox, log: readonly SandboxRequestLog[]): Promise<void> {
  for (;;) {
    await until(() => log.length === s.state().requests.total);
    // What is already in its sockets is read, and a request read is worked out, within a few turns.
    for (let i = 0; i < 3; i++) await nextTurn();
    if (log.length === s.state().requests.total) return;
  }
}

/** The most requests that arrived within any `windowMs`, by the emulator's log. */
function busiestWindow(log: readonly SandboxRequestLog[], windowMs: number): number {
  const times = log.map((e) => Date.parse(e.time)).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while ((times[j] as number) - (times[i] as number) >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

interface ChildRun {
  /** Chunks settled so far (one dot each). */
  dots(): number;
  kill(): void;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; result?: Record<string, unknown> }>;
}

function runChild(args: Record<string, unknown>): ChildRun {
  const proc = spawn(process.execPath, [child, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; result?: Record<string, unknown> }>(
    (resolve) => {
      proc.on('exit', (code, signal) => {
        const last = out.trim().split('\n').pop() ?? '';
        let result: Record<string, unknown> | undefined;
        try {
          result = JSON.parse(last) as Record<string, unknown>;
        } catch {
          result = undefined;
        }
        resolve(result ? { code, signal, result } : { code, signal });
      });
    },
  );
  return { dots: () => (out.split('\n')[0] ?? '').replace(/[^.]/g, '').length, kill: () => proc.kill('SIGKILL'), done };
}

async function until(test: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out');
    // Real time: what is waited for is another process's doing.
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('bulk runs in separate processes', () => {
  it('killed with SIGKILL mid-import and run again: every number registered exactly once', async () => {
    const { s, log } = await sandbox({ latencyMs: 500 });
    const dir = tempDir();
    const numbers = numberList(600);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    const args = { url: s.url, key: s.key, stateDir: path.join(dir, 'state'), file };

    const first = runChild(args);
    // Killed while a request is in flight (500 ms each, three started a second): its answer will never be read.
    await until(() => first.dots() >= 4 && inFlight(s) > 0);
    first.kill();
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    // The emulator finishes what was in flight when the client died before the next run asks about it.
    await drained(s, log);
    const registeredBefore = s.account.store.size;
    expect(registeredBefore).toBeGreaterThan(0);
    expect(registeredBefore).toBeLessThan(600);

    // The journal holds chunks sent without a recorded outcome: those are the ones the next run must verify.
    const journalDir = path.join(dir, 'state', 'journals');
    const journal = readdirSync(journalDir).find((f) => f.endsWith('.jsonl')) as string;
    const lines = readFileSync(path.join(journalDir, journal), 'utf8').split('\n').filter(Boolean);
    const events = lines.flatMap((l) => {
      try {
        return [JSON.parse(l) as { t: string; c: number }];
      } catch {
        return [];
      }
    });
    const sent = new Set(events.filter((e) => e.t === 'send').map((e) => e.c));
    for (const e of events) if (e.t === 'done' || e.t === 'unsent') sent.delete(e.c);
    expect(sent.size).toBeGreaterThan(0);

    const second = await runChild(args).done;
    expect(second.result?.ok).toBe(true);
    const summary = second.result?.summary as {
      accepted: number;
      fromJournal: number;
      verified: number;
      already: number;
    };
    expect(summary.accepted + summary.already).toBe(600);
    expect(summary.already).toBe(0);
    expect(summary.fromJournal).toBeGreaterThan(0);

    const regs = registrations(s);
    expect([...regs.values()].every((n) => n === 1)).toBe(true);
    expect(new Set([...regs.keys()].map((k) => k.split('/')[0]))).toEqual(new Set(numbers));
    expect(s.account.quota.used).toBe(600);
    expect(existsSync(path.join(journalDir, journal))).toBe(false);
  });

  it('two processes on one key share the 3 requests a second: the emulator sees no more than 3 a window', async () => {
    const { s, log } = await sandbox({ latencyMs: 200 });
    const dir = tempDir();
    const state = path.join(dir, 'state');
    const a = writeInput(dir, 'a.txt', `${numberList(360, 1).join('\n')}\n`);
    const b = writeInput(dir, 'b.txt', `${numberList(360, 10_001).join('\n')}\n`);
    const [ra, rb] = await Promise.all([
      runChild({ url: s.url, key: s.key, stateDir: state, file: a }).done,
      runChild({ url: s.url, key: s.key, stateDir: state, file: b }).done,
    ]);
    expect(ra.result?.ok).toBe(true);
    expect(rb.result?.ok).toBe(true);
    const stats = s.state().requests;
    expect(stats.byOperation['v2/register']).toBe(18);
    // Arrivals as the emulator saw them, three a window and no more. A window is cut short by 300 ms here: a
    // loaded machine can hold the emulator's event loop (its arrival times, and its 429s) that long, while two
    // processes pacing alone at 3 a second each send 4 within half a second, as the next test shows.
    expect(busiestWindow(log, 700)).toBeLessThanOrEqual(3);
    // 20 requests (18 and two quota checks) at 3 a second span six windows: they were not sent at 6 a second.
    const times = log.map((e) => Date.parse(e.time));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(5000);
    expect(s.account.store.size).toBe(720);
  });

  it('without the shared budget (separate state folders) the same two processes draw 429s', async () => {
    const { s, log } = await sandbox({ latencyMs: 200 });
    const dir = tempDir();
    const a = writeInput(dir, 'a.txt', `${numberList(360, 1).join('\n')}\n`);
    const b = writeInput(dir, 'b.txt', `${numberList(360, 10_001).join('\n')}\n`);
    const [ra, rb] = await Promise.all([
      runChild({ url: s.url, key: s.key, stateDir: path.join(dir, 'state-a'), file: a }).done,
      runChild({ url: s.url, key: s.key, stateDir: path.join(dir, 'state-b'), file: b }).done,
    ]);
    expect(ra.result?.ok).toBe(true);
    expect(rb.result?.ok).toBe(true);
    expect(s.state().requests.rateLimited).toBeGreaterThan(0);
    expect(busiestWindow(log, 700)).toBeGreaterThan(3);
    // ...and still every number registered once: 429s are refused before any processing.
    expect(s.account.store.size).toBe(720);
    expect(s.account.quota.used).toBe(720);
  });
});
