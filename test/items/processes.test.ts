// Bulk runs in processes of their own: one killed with SIGKILL in the middle of an import and run again, and
// two at once on the same key. The children run the built code (dist/): `npm test` builds first.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { numberList, registrations, tempDir, writeInput } from './helpers.js';
import { clock } from '../../src/clock.js';

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

async function sandbox(opts: Parameters<typeof startSandbox>[0]): Promise<RunningSandbox> {
  const s = await startSandbox({ rateLimit: 3, strictPaths: true, time: clock(), ...opts });
  sandboxes.push(s);
  return s;
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
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('bulk runs in separate processes', () => {
  it('killed with SIGKILL mid-import and run again: every number registered exactly once', async () => {
    const s = await sandbox({ latencyMs: 500 });
    const dir = tempDir();
    const numbers = numberList(600);
    const file = writeInput(dir, 'in.txt', `${numbers.join('\n')}\n`);
    const args = { url: s.url, key: s.key, stateDir: path.join(dir, 'state'), file };

    const first = runChild(args);
    await until(() => first.dots() >= 4);
    // Requests are in flight now (500 ms each, three started a second): their answers will never be read.
    await new Promise((r) => setTimeout(r, 150));
    first.kill();
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    // Let the emulator finish what was in flight when the client died.
    await new Promise((r) => setTimeout(r, 700));
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

  it('two processes on one key share the 3 requests a second: no 429 at an emulator that enforces it', async () => {
    const s = await sandbox({ latencyMs: 200 });
    const dir = tempDir();
    const state = path.join(dir, 'state');
    const a = writeInput(dir, 'a.txt', `${numberList(360, 1).join('\n')}\n`);
    const b = writeInput(dir, 'b.txt', `${numberList(360, 10_001).join('\n')}\n`);
    const started = Date.now();
    const [ra, rb] = await Promise.all([
      runChild({ url: s.url, key: s.key, stateDir: state, file: a }).done,
      runChild({ url: s.url, key: s.key, stateDir: state, file: b }).done,
    ]);
    const seconds = (Date.now() - started) / 1000;
    expect(ra.result?.ok).toBe(true);
    expect(rb.result?.ok).toBe(true);
    const stats = s.state().requests;
    expect(stats.rateLimited).toBe(0);
    expect(stats.byStatus['429'] ?? 0).toBe(0);
    expect(stats.byOperation['v2/register']).toBe(18);
    // 18 requests at 3 a second take at least 5 seconds together: they were not sent at 6 a second.
    expect(seconds).toBeGreaterThan(5);
    expect(s.account.store.size).toBe(720);
  });

  it('without the shared budget (separate state folders) the same two processes draw 429s', async () => {
    const s = await sandbox({ latencyMs: 200 });
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
    // ...and still every number registered once: 429s are refused before any processing.
    expect(s.account.store.size).toBe(720);
    expect(s.account.quota.used).toBe(720);
  });
});
