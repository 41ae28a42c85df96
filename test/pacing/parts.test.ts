// The small parts of the pacers: the margin widened after a 429, callers taking turns, the stall watch.
import { describe, expect, it, vi } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { Margin } from '../../src/pacing/pacer.js';
import { StallWatch } from '../../src/pacing/stalls.js';
import { Turns } from '../../src/pacing/turns.js';

describe('Margin', () => {
  it('widens by 50 ms after a 429, at most once a second and 200 ms in all; other holds leave it', () => {
    const m = new Margin(30);
    m.held('unavailable', 0);
    expect(m.at(0)).toBe(30);
    m.held('rate-limited', 0);
    m.held('rate-limited', 999);
    expect(m.at(999)).toBe(80);
    for (let t = 1000; t < 10_000; t += 1000) m.held('rate-limited', t);
    expect(m.at(9000)).toBe(230);
  });

  it('narrows by 50 ms after each minute without a 429, down to where it started', () => {
    const m = new Margin(30);
    m.held('rate-limited', 0);
    m.held('rate-limited', 1000);
    expect(m.at(60_999)).toBe(130);
    expect(m.at(61_000)).toBe(80);
    expect(m.at(121_000)).toBe(30);
    expect(m.at(3_600_000)).toBe(30);
    m.held('rate-limited', 130_000); // from 30 again, not from 130
    expect(m.at(130_000)).toBe(80);
  });
});

describe('Turns', () => {
  it('runs callers one at a time, in the order they came', async () => {
    const turns = new Turns();
    const log: string[] = [];
    const work = (name: string, ms: number) => async () => {
      log.push(`${name} in`);
      await clock().sleep(ms);
      log.push(`${name} out`);
      return name;
    };
    const results = await Promise.all([turns.take(work('a', 30)), turns.take(work('b', 1)), turns.take(work('c', 1))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
  });

  it('a failed turn does not stop the next; an aborted caller stops waiting at once', async () => {
    const turns = new Turns();
    let release!: () => void;
    const first = turns.take(() => new Promise<void>((r) => (release = r)));
    const failing = turns.take(async () => Promise.reject(new Error('boom')));
    const stop = new AbortController();
    let ran = false;
    const waiting = turns.take(async () => (ran = true), stop.signal);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    await expect(turns.take(async () => 'x', stop.signal)).rejects.toThrow('stopped');
    release();
    await first;
    await expect(failing).rejects.toThrow('boom');
    await expect(turns.take(async () => 'next')).resolves.toBe('next');
    // The aborted caller's work still had its turn (a pacer checks the signal first and takes nothing).
    expect(ran).toBe(true);
  });
});

describe('StallWatch', () => {
  it('tells a blocked event loop, with its length and when it began, and stops when idle', async () => {
    const stalls: [number, number][] = [];
    const watch = new StallWatch(15, (ms, since) => stalls.push([ms, since]));
    const started = clock().now();
    expect(watch.watching).toBe(false);
    watch.touch();
    expect(watch.watching).toBe(true);
    // Real time: the watch ticks on the machine's timers, as a stall is the machine's; let it tick a few times.
    await new Promise((r) => setTimeout(r, 30));
    const before = clock().now();
    const until = before + 120;
    while (clock().now() < until) {
      // block the event loop
    }
    // Told at its next tick.
    await vi.waitFor(() => expect(Math.max(...stalls.map(([ms]) => ms))).toBeGreaterThanOrEqual(90), {
      timeout: 5000,
      interval: 5,
    });
    const [ms, since] = stalls.reduce((a, b) => (b[0] > a[0] ? b : a));
    expect(ms).toBeGreaterThanOrEqual(90);
    // Its last tick before the block: when a busy machine ran it is its own affair, but never after the block began.
    expect(since).toBeGreaterThanOrEqual(started);
    expect(since).toBeLessThanOrEqual(before + 1);
  });
});
