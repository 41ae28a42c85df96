import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testClock as clock } from '../../../test/skipping-clock.js';
import { SandboxError } from '../src/errors.js';
import { EMBEDDED_SPEED, startEmbeddedSandbox } from '../src/embedded.js';
import { startSandbox } from '../src/http/server.js';
import { call } from './http.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trk-embedded-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('startEmbeddedSandbox', () => {
  it('serves on a loopback port, keeps state in <stateDir>/sandbox.json, rate limit on', async () => {
    // Its real time standing still: the four requests arrive within one second, however long they take.
    const sb = await startEmbeddedSandbox(dir, { time: { now: () => Date.UTC(2026, 5, 1), monotonic: () => 0 } });
    try {
      expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sb.key).toBe('sandbox-key');
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(sb.url, '/track/v2/getquota', { key: sb.key })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const reg = await call(sb.url, '/track/v2/register', {
        key: sb.key,
        body: JSON.stringify([{ number: 'RR400000001CN', carrier: 3011 }]),
      });
      expect([200, 429]).toContain(reg.status);
    } finally {
      await sb.close();
    }
    const saved = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8'));
    expect(saved.version).toBe(1);
    expect(saved.clock.speed).toBe(EMBEDDED_SPEED);
  });

  it('moves simulated time on between two runs, by the real time between them times the speed', async () => {
    const first = await startEmbeddedSandbox(dir, { time: clock() });
    await first.close();
    const t1 = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8')).clock.time as number;
    await clock().sleep(50);
    const second = await startEmbeddedSandbox(dir, { time: clock() });
    await second.close();
    const t2 = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8')).clock.time as number;
    // At least 50 ms down × 60 = 3 simulated seconds.
    expect(t2 - t1).toBeGreaterThanOrEqual(50 * EMBEDDED_SPEED);
    expect(t2 - t1).toBeLessThan(86_400_000);
  });
});

describe('one state file, several emulators', () => {
  const numbersOf = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}${String(100000000 + i).slice(-9)}CN`);

  /** Register `numbers` 40 at a time, as a command would, retrying what the rate limit refuses. */
  async function registerAll(url: string, key: string, numbers: string[]): Promise<void> {
    for (let i = 0; i < numbers.length; i += 40) {
      const body = JSON.stringify(numbers.slice(i, i + 40).map((number) => ({ number, carrier: 3011 })));
      for (;;) {
        const a = await call(url, '/track/v2/register', { key, body });
        if (a.status === 429) {
          await clock().sleep(400);
          continue;
        }
        expect(a.json.data.accepted).toHaveLength(Math.min(40, numbers.length - i));
        break;
      }
    }
  }

  const savedNumbers = async (): Promise<string[]> => {
    const saved = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8'));
    const col = (saved.account.columns as string[]).indexOf('number');
    return (saved.account.records as unknown[][]).map((r) => r[col] as string).sort();
  };

  it('two embedded emulators take turns: the second waits (saying so), and no write is lost', async () => {
    // 280 each: 7 requests at 3 a second, some refused and sent again.
    const a = numbersOf('RA', 280);
    const b = numbersOf('RB', 280);
    const waits: string[] = [];
    const command = async (numbers: string[]) => {
      const sb = await startEmbeddedSandbox(dir, { onWait: (line) => waits.push(line), time: clock() });
      try {
        expect(sb.remote).toBe(false);
        await registerAll(sb.url, sb.key, numbers);
        // The first keeps the file until the second has said it waits (after a second of the machine's time).
        await vi.waitFor(() => expect(waits).toHaveLength(1), { timeout: 10_000, interval: 20 });
      } finally {
        await sb.close();
      }
    };
    await Promise.all([command(a), command(b)]);
    expect(await savedNumbers()).toEqual([...a, ...b].sort());
    expect(waits).toEqual([
      expect.stringMatching(/^waiting for another trk --sandbox command \(pid \d+\) to finish with .*sandbox\.json…$/),
    ]);
    await expect(readFile(path.join(dir, 'sandbox.json.lock'))).rejects.toThrow();
  });

  it('an embedded emulator talks to a running sandbox server instead of loading the file, on its clock', async () => {
    const stateFile = path.join(dir, 'sandbox.json');
    const server = await startSandbox({
      stateFile,
      speed: 0,
      start: Date.UTC(2026, 5, 1),
      rateLimit: 0,
      key: 'server-key',
    });
    try {
      const sb = await startEmbeddedSandbox(dir);
      expect(sb).toMatchObject({ remote: true, url: server.url, key: 'server-key' });
      expect(sb.now()).toBe(Date.UTC(2026, 5, 1));
      await registerAll(sb.url, sb.key, numbersOf('RC', 50));
      await sb.close();
      expect(server.state().account.records).toBe(50);
    } finally {
      await server.close();
    }
    // The server's save holds what the command wrote through it.
    expect(await savedNumbers()).toEqual(numbersOf('RC', 50).sort());
  });

  it('a second sandbox server on the same file is refused, naming the running one', async () => {
    const stateFile = path.join(dir, 'sandbox.json');
    const server = await startSandbox({ stateFile, speed: 0, rateLimit: 0 });
    try {
      const err = await startSandbox({ stateFile }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SandboxError);
      expect((err as Error).message).toBe(
        `another sandbox is running on ${stateFile} at ${server.url} (pid ${process.pid})`,
      );
    } finally {
      await server.close();
    }
  });

  it('a sandbox server waits for an embedded emulator to finish with the file, then loads what it wrote', async () => {
    const stateFile = path.join(dir, 'sandbox.json');
    const sb = await startEmbeddedSandbox(dir, { time: clock() });
    await registerAll(sb.url, sb.key, numbersOf('RD', 10));
    const waits: string[] = [];
    const starting = startSandbox({ stateFile, speed: 0, rateLimit: 0, onWait: (line) => waits.push(line) });
    // Said after a second of the machine's time: the lock is shared with other processes.
    await vi.waitFor(() => expect(waits).toHaveLength(1), { timeout: 10_000, interval: 20 });
    await sb.close();
    const server = await starting;
    try {
      expect(server.state().account.records).toBe(10);
      expect(waits).toEqual([
        expect.stringMatching(/^waiting for a trk --sandbox command \(pid \d+\) to finish with /),
      ]);
    } finally {
      await server.close();
    }
  });
});
