// The one clock (src/core/clock.ts) and the tests' clock that skips waits (test/skipping-clock.ts), which every other
// test relies on: a wait takes no real time, the clock is as much later, sleepers wake in the order of their times, and
// an abort ends a wait at once.

import { describe, expect, it } from 'vitest';
import { clock, setClock, systemClock } from '../src/core/clock.js';
import { SkippingClock, testClock } from './skipping-clock.js';

describe('the clock in force', () => {
  it('is the skipping clock in every test file, and can be replaced and put back', () => {
    expect(clock()).toBe(testClock());
    const mine = new SkippingClock();
    const previous = setClock(mine);
    try {
      expect(clock()).toBe(mine);
    } finally {
      setClock(previous);
    }
    expect(clock()).toBe(previous);
  });

  it("the machine's clock tells the epoch's time and a monotonic one", () => {
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(1000);
    const a = systemClock.monotonic();
    expect(systemClock.monotonic()).toBeGreaterThanOrEqual(a);
  });
});

describe('SkippingClock', () => {
  it('skips a wait: the clock is that much later, and no such time passed', async () => {
    const c = new SkippingClock();
    const real = systemClock.monotonic();
    const before = c.monotonic();
    const wall = c.now();
    await c.sleep(60_000);
    expect(c.monotonic() - before).toBeGreaterThanOrEqual(60_000);
    // The wall clock counts whole milliseconds: the same minute, give or take one.
    expect(c.now() - wall).toBeGreaterThanOrEqual(60_000 - 1);
    expect(c.skippedMs).toBeGreaterThan(59_000);
    // A minute skipped, not waited: far less than that passed on the machine.
    expect(systemClock.monotonic() - real).toBeLessThan(30_000);
  });

  it('wakes sleepers in the order of their times, each at its own time', async () => {
    const c = new SkippingClock();
    const start = c.monotonic();
    const woke: [string, number][] = [];
    const sleep = (name: string, ms: number) => c.sleep(ms).then(() => woke.push([name, c.monotonic() - start]));
    await Promise.all([sleep('late', 3000), sleep('early', 1000), sleep('middle', 2000)]);
    expect(woke.map(([name]) => name)).toEqual(['early', 'middle', 'late']);
    const [early, middle, late] = woke.map(([, at]) => at) as [number, number, number];
    expect(early).toBeGreaterThanOrEqual(1000);
    expect(middle).toBeGreaterThanOrEqual(2000);
    expect(late).toBeGreaterThanOrEqual(3000);
    // Each woke at its own time, not at the latest one's.
    expect(early).toBeLessThan(2000);
    expect(middle).toBeLessThan(3000);
  });

  it('ends a wait when its signal aborts, with the reason, and skips no time for it', async () => {
    const c = new SkippingClock();
    const stop = new AbortController();
    const waiting = c.sleep(10_000, stop.signal);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(c.skippedMs).toBe(0);
    await expect(c.sleep(1, stop.signal)).rejects.toThrow('stopped');
  });

  it('lets what was written before a wait be read before the clock moves on', async () => {
    const c = new SkippingClock();
    const { createServer, request } = await import('node:http');
    const arrivals: number[] = [];
    const server = createServer((req, res) => {
      arrivals.push(c.monotonic());
      req.resume();
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const sentAt = c.monotonic();
      const answered = new Promise<void>((resolve) =>
        request({ port, host: '127.0.0.1', method: 'POST' }, (res) => res.resume().on('end', resolve)).end('x'),
      );
      await c.sleep(1000);
      await answered;
      // The server read the request within the second the wait stood for, not after it.
      expect((arrivals[0] as number) - sentAt).toBeLessThan(1000);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
