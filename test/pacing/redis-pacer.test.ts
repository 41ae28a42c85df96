// The rate budget in Redis, against a real redis-server started on a loopback port (Debian's redis-server
// package; .ci/run installs it). Where it is not installed these tests are skipped, saying so.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisPacer, RedisBudgetError } from '../../src/pacing/redis-pacer.js';
import { encodeCommand, parseReply, RespClient, RespError } from '../../src/pacing/resp.js';
import { baseEnv, numbers, startEmulator, trk } from '../e2e/helpers.js';

const installed = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
if (!installed) console.warn('redis-server is not installed: the tests of the rate budget in Redis are skipped (apt-get install redis-server)');

describe('RESP', () => {
  it('encodes commands as arrays of bulk strings and parses every reply type, waiting for what is incomplete', () => {
    expect(encodeCommand(['SET', 'k', 'vé'])).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$3\r\nvé\r\n');
    const reply = Buffer.from('*4\r\n:0\r\n$5\r\nhello\r\n+OK\r\n$-1\r\n');
    expect(parseReply(reply)).toEqual({ value: [0, 'hello', 'OK', null], next: reply.length });
    expect(parseReply(reply.subarray(0, 12))).toBeUndefined();
    expect(parseReply(Buffer.from('-ERR wrong\r\n'))?.value).toBeInstanceOf(RespError);
  });
});

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
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    url = `redis://127.0.0.1:${port}/0`;
    const probe = new RespClient(url, 500);
    for (let i = 0; ; i++) {
      try {
        if ((await probe.command(['PING'])) === 'PONG') break;
      } catch (err) {
        if (i > 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    probe.close();
  });

  afterAll(() => {
    server?.kill();
  });

  it('two hosts on one budget admit no more than 3 starts in any second together', async () => {
    const a = createRedisPacer({ url, budget: 'test-two-hosts', perSecond: 3 });
    const b = createRedisPacer({ url, budget: 'test-two-hosts', perSecond: 3 });
    const starts: number[] = [];
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).acquire().then(() => starts.push(performance.now() - t0))));
    a.close();
    b.close();
    starts.sort((x, y) => x - y);
    for (let i = 3; i < starts.length; i++) expect(starts[i]! - starts[i - 3]!).toBeGreaterThanOrEqual(1000);
    // ...and no slower than that: 12 starts in three windows and a bit.
    expect(starts.at(-1)!).toBeLessThan(4000);
  });

  it('a hold set by one host stops the other; a start moved by sent() counts from then', async () => {
    const a = createRedisPacer({ url, budget: 'test-hold', perSecond: 3 });
    const b = createRedisPacer({ url, budget: 'test-hold', perSecond: 3 });
    const holds: number[] = [];
    const c = createRedisPacer({ url, budget: 'test-hold', perSecond: 3, onHold: (ms) => holds.push(ms) });
    a.backoff(700);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    await c.acquire();
    expect(performance.now() - t0).toBeGreaterThan(550);
    expect(holds).toHaveLength(1);
    const first = await b.acquire();
    await b.acquire();
    await new Promise((r) => setTimeout(r, 300));
    first.sent();
    const t1 = performance.now();
    await b.acquire();
    // c's start and b's second are older; b's first now counts from 300 ms later, so the window opens later.
    expect(performance.now() - t1).toBeGreaterThan(500);
    for (const p of [a, b, c]) p.close();
  });

  it('three processes on two hosts importing at once: every number registered, no HTTP 429 from a strict emulator', async () => {
    const emu = await startEmulator({ rateLimit: 3, speed: 0, quotaTotal: 10_000 });
    try {
      const hostA = baseEnv();
      const hostB = baseEnv();
      const runs = [hostA, hostA, hostB].map((env, i) => {
        const file = path.join(env.HOME as string, `numbers-${i}.txt`);
        writeFileSync(file, `${numbers(120, `RD${i}`).join('\n')}\n`);
        return trk(['register', '-f', file, '--carrier', '3011', '-q'], { env: { ...env, ...emu.env, HOME: env.HOME, TRK_STATE_DIR: env.TRK_STATE_DIR, TRK_BUDGET_URL: url } });
      });
      const results = await Promise.all(runs);
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const state = emu.sandbox.state();
      expect(state.requests.byStatus['429'] ?? 0).toBe(0);
      expect(state.account.records).toBe(360);
    } finally {
      await emu.close();
    }
  });

  it('Redis that cannot be reached fails admissions with a RedisBudgetError naming the server, never the password', async () => {
    const port = await freePort();
    const p = createRedisPacer({ url: `redis://user:s3cret@127.0.0.1:${port}/0`, budget: 'test-down', perSecond: 3, timeoutMs: 500 });
    const err = await p.acquire().catch((e: unknown) => e);
    p.close();
    expect(err).toBeInstanceOf(RedisBudgetError);
    expect((err as Error).message).toContain(`127.0.0.1:${port}`);
    expect((err as Error).message).not.toContain('s3cret');
  });
});
