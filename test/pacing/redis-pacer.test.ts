// The rate budget in Redis, against a real redis-server started on a loopback port (Debian's redis-server
// package; .ci/run installs it). Where it is not installed these tests are skipped, saying so.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@redis/client';
import { clock } from '../../src/core/clock.js';
import { RedisBudgetError, RedisPacer, redisHost } from '../../src/pacing/redis-pacer.js';
import type { SandboxRequestLog } from '@trk/sandbox';
import { ROOT, baseEnv, numbers, startEmulator, trk } from '../e2e/helpers.js';

const installed = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
if (!installed)
  console.warn(
    'redis-server is not installed: the tests of the rate budget in Redis are skipped (apt-get install redis-server)',
  );

describe('RedisBudgetError', () => {
  it('names the server, never the user or the password, even where a message would quote it', () => {
    expect(redisHost('redis://user:s3cret@cache.internal:6380/2')).toBe('cache.internal:6380');
    expect(redisHost('rediss://cache.internal')).toBe('cache.internal:6379');
    expect(redisHost('not a url')).toBe('an address that is not a URL');
    const err = new RedisBudgetError('redis://user:s3cret@cache.internal/0', new Error('WRONGPASS for s3cret'));
    expect(err.message).toBe('cannot use the rate budget in Redis at cache.internal:6379: WRONGPASS for ***');
    expect(err.exitCode).toBe(1);
    expect(err.toLine()).toMatch(/TRK_BUDGET_URL/);
  });
});

/** The most of `times` (ms) within any `windowMs`. */
function busiestWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while ((sorted[j] as number) - (sorted[i] as number) >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!installed)('the rate budget in Redis (redis-server on a loopback port)', () => {
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    url = `redis://127.0.0.1:${port}/0`;
    for (let i = 0; ; i++) {
      const probe = createClient({ url, socket: { reconnectStrategy: false } }).on('error', () => {});
      try {
        await probe.connect();
        await probe.ping();
        await probe.close();
        break;
      } catch (err) {
        if (i > 50) throw err;
        // Real time: redis-server is another process, starting on its own.
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });

  afterAll(() => {
    server?.kill();
  });

  /** The starts a budget holds now, by name, in the Redis server's time. */
  async function startsOf(budget: string): Promise<Map<string, number>> {
    const client = await admin();
    try {
      const starts = await client.zRangeWithScores(`trk:budget:${budget}:starts`, 0, -1);
      return new Map(starts.map((s) => [s.value, s.score]));
    } finally {
      await client.close();
    }
  }

  it('two hosts on one budget admit no more than 3 starts in any second together', async () => {
    const a = new RedisPacer({ url, budget: 'test-two-hosts', perSecond: 3 });
    const b = new RedisPacer({ url, budget: 'test-two-hosts', perSecond: 3 });
    // Each start as Redis recorded it, read as soon as it is admitted (a second later it may be gone).
    const starts = new Map<string, number>();
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        await (i % 2 ? a : b).acquire();
        for (const [name, t] of await startsOf('test-two-hosts')) starts.set(name, t);
      }),
    );
    await a.close();
    await b.close();
    const times = [...starts.values()].sort((x, y) => x - y);
    expect(times).toHaveLength(12);
    for (let i = 3; i < times.length; i++) expect(times[i]! - times[i - 3]!).toBeGreaterThanOrEqual(1000);
    // ...and no slower than that: 12 starts in three windows and a bit.
    expect(times.at(-1)! - times[0]!).toBeLessThan(4000);
  });

  it('a hold set by one host stops the other; a start moved by sent() counts from then', async () => {
    const a = new RedisPacer({ url, budget: 'test-hold', perSecond: 3 });
    const b = new RedisPacer({ url, budget: 'test-hold', perSecond: 3 });
    const holds: number[] = [];
    const c = new RedisPacer({ url, budget: 'test-hold', perSecond: 3, onHold: (ms) => holds.push(ms) });
    const other = await admin();
    a.backoff(700);
    // The hold reaches Redis on a's connection, without being waited for.
    let heldUntil = 0;
    while (!heldUntil) heldUntil = Number((await other.hGet('trk:budget:test-hold:hold', 'until')) ?? 0);
    await other.close();
    await c.acquire();
    expect(holds).toHaveLength(1);
    const first = await b.acquire();
    await b.acquire();
    const before = await startsOf('test-hold');
    // c's start and b's two, none before the hold ended.
    expect(before.size).toBe(3);
    expect(Math.min(...before.values())).toBeGreaterThanOrEqual(heldUntil);
    // Real time: the budget is on the Redis server's clock, which no test can skip.
    await new Promise((r) => setTimeout(r, 300));
    first.sent();
    // On b's connection after the move: the window is read with b's first start where sent() put it.
    await b.acquire();
    const after = await startsOf('test-hold');
    const moved = [...before].filter(([name, t]) => (after.get(name) ?? t) !== t);
    expect(moved).toHaveLength(1);
    expect(after.get(moved[0]![0])! - moved[0]![1]).toBeGreaterThanOrEqual(300);
    // The third start of b, a window after the oldest of the three.
    const [third] = [...after].filter(([name]) => !before.has(name));
    expect(third![1] - Math.min(...before.values())).toBeGreaterThanOrEqual(1000);
    await Promise.all([a, b, c].map((p) => p.close()));
  });

  it(
    'three processes on two hosts importing at once: every number registered, three a window at a strict ' + 'emulator',
    async () => {
      // When each request arrived, by the machine's clock: the end of its answer less the time it took.
      const arrivals: number[] = [];
      const onRequest = (e: SandboxRequestLog) => arrivals.push(performance.now() - e.ms);
      const emu = await startEmulator({ rateLimit: 3, speed: 0, quotaTotal: 10_000, onRequest });
      try {
        const hostA = baseEnv();
        const hostB = baseEnv();
        const runs = [hostA, hostA, hostB].map((env, i) => {
          const file = path.join(env.HOME as string, `numbers-${i}.txt`);
          writeFileSync(file, `${numbers(120, `RD${i}`).join('\n')}\n`);
          return trk(['register', '-f', file, '--carrier', '3011', '-q'], {
            env: { ...env, ...emu.env, HOME: env.HOME, TRK_STATE_DIR: env.TRK_STATE_DIR, TRK_BUDGET_URL: url },
          });
        });
        const results = await Promise.all(runs);
        for (const r of results) expect(r.code, r.stderr).toBe(0);
        const state = emu.sandbox.state();
        // Three a window and no more, as the emulator saw them. A window is cut short by 300 ms here: a loaded
        // machine can hold the event loop the emulator shares with the runs (its arrival times, and its 429s)
        // that long, while runs pacing alone at 3 a second each send 4 within half a second.
        expect(busiestWindow(arrivals, 700)).toBeLessThanOrEqual(3);
        expect(state.account.records).toBe(360);
      } finally {
        await emu.close();
      }
    },
  );

  it(
    'Redis that cannot be reached fails admissions with a RedisBudgetError naming the server, never the ' + 'password',
    async () => {
      const port = await freePort();
      const p = new RedisPacer({
        url: `redis://user:s3cret@127.0.0.1:${port}/0`,
        budget: 'test-down',
        perSecond: 3,
        timeoutMs: 500,
      });
      const err = await p.acquire().catch((e: unknown) => e);
      await p.close();
      expect(err).toBeInstanceOf(RedisBudgetError);
      expect((err as Error).message).toContain(`127.0.0.1:${port}`);
      expect((err as Error).message).not.toContain('s3cret');
    },
  );

  /** A second connection, to act on the server behind the pacers' backs. */
  async function admin() {
    const client = createClient({ url, socket: { reconnectStrategy: false } }).on('error', () => {});
    await client.connect();
    return client;
  }

  it('a connection that Redis closes is made again by the next call', async () => {
    const p = new RedisPacer({ url, budget: 'test-reconnect', perSecond: 3 });
    await p.acquire();
    const other = await admin();
    await other.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
    await other.close();
    // A few turns for the pacer's client to see its connection closed (if not, the next call meets it).
    await clock().sleep(50);
    // The first call after the kill may meet the closed connection; the one after it connects again.
    await p.acquire().catch(() => {});
    await expect(p.acquire()).resolves.toHaveProperty('sent');
    await p.close();
  });

  it('an answer that does not come within the time limit fails the admission', async () => {
    const p = new RedisPacer({ url, budget: 'test-slow', perSecond: 3, timeoutMs: 300 });
    await p.acquire();
    const other = await admin();
    await other.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
    const err = await p.acquire().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RedisBudgetError);
    // Failed by the time limit, not when the pause ended.
    expect((err as Error).message).toContain('no answer from Redis within 300 ms');
    await other.sendCommand(['CLIENT', 'UNPAUSE']);
    await other.close();
    await p.close();
  });

  it('an idle connection does not keep a process alive that never closed it', async () => {
    const module = pathToFileURL(path.join(ROOT, 'dist', 'pacing', 'redis-pacer.js')).href;
    const script = `const { RedisPacer } = await import(${JSON.stringify(module)});
      const p = new RedisPacer({ url: ${JSON.stringify(url)}, budget: 'test-exit', perSecond: 3 });
      (await p.acquire()).sent();
      p.backoff(10, 'unavailable');
      console.log('admitted');
      // Real time: whether this process lives on is the question; a timer that keeps nothing alive tells.
      setTimeout(() => console.log('still running'), 3000).unref();`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    // It ended at once: not even a timer that holds nothing alive got to run.
    expect(run.stdout.trim(), run.stderr).toBe('admitted');
    expect(run.status).toBe(0);
  });
});
