import { describe, expect, it } from 'vitest';
import {
  createPacer,
  processPacer,
  UNSENT_LEAVES_LATER_MS,
  type Admission,
  type Pacer,
} from '../../src/pacing/pacer.js';

/** A fake clock: sleeping advances it, so the pacer's waits take no real time. */
function fakeClock() {
  const clock = {
    t: 0,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number, signal: AbortSignal) => {
      clock.sleeps.push(ms);
      // Let everything admitted so far run first, as real time would.
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw signal.reason;
      clock.t += ms;
    },
  };
  return clock;
}

/** A start taken and its request written at once, as the transport tells the pacer. */
async function leave(pacer: Pacer, signal?: AbortSignal): Promise<Admission | void> {
  const admission = await pacer.acquire(signal);
  admission?.sent();
  return admission;
}

/** No more than `n` starts in any window shorter than `windowMs`. */
function maxInWindow(starts: number[], windowMs: number): number {
  let max = 0;
  for (let i = 0; i < starts.length; i++) {
    let count = 0;
    for (let j = i; j < starts.length && (starts[j] as number) - (starts[i] as number) < windowMs; j++) count++;
    max = Math.max(max, count);
  }
  return max;
}

describe('pacer', () => {
  it('admits at most 3 starts in any window of 1 s + margin under a burst', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ perSecond: 3, marginMs: 100, now: clock.now, sleep: clock.sleep });
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 10 }, () => leave(pacer).then(() => starts.push(clock.t))));
    expect(starts).toHaveLength(10);
    expect(maxInWindow(starts, 1100)).toBe(3);
    // ...and no slower than needed: the 10th start comes right after three full windows.
    expect(starts[9]).toBe(3300);
  });

  it('keeps the limit over random bursts and gaps', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ perSecond: 3, marginMs: 50, now: clock.now, sleep: clock.sleep });
    const starts: number[] = [];
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let burst = 0; burst < 40; burst++) {
      clock.t += Math.floor(rand() * 1500);
      const n = 1 + Math.floor(rand() * 6);
      await Promise.all(Array.from({ length: n }, () => leave(pacer).then(() => starts.push(clock.t))));
    }
    const sorted = [...starts].sort((a, b) => a - b);
    expect(maxInWindow(sorted, 1050)).toBeLessThanOrEqual(3);
    for (let i = 3; i < sorted.length; i++)
      expect((sorted[i] as number) - (sorted[i - 3] as number)).toBeGreaterThanOrEqual(1050);
  });

  it('does not limit concurrency: starts are admitted without anything being released', async () => {
    const clock = fakeClock();
    // A window of 1.2 s: a start due every 400 ms.
    const pacer = createPacer({ perSecond: 3, marginMs: 200, now: clock.now, sleep: clock.sleep });
    // Three requests start a third of the window apart and are "in flight" (never released).
    const starts: number[] = [];
    await Promise.all([leave(pacer), leave(pacer), leave(pacer)].map((p) => p.then(() => starts.push(clock.t))));
    expect(starts).toEqual([0, 400, 800]);
    // Three more start on the same pace while the first three are still in flight.
    await Promise.all([leave(pacer), leave(pacer), leave(pacer)].map((p) => p.then(() => starts.push(clock.t))));
    expect(starts.slice(3)).toEqual([1200, 1600, 2000]);
  });

  it('spreads starts through the window, and a start that came late passes on at most half a spacing', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ perSecond: 3, marginMs: 200, now: clock.now, sleep: clock.sleep });
    const at = async () => {
      await leave(pacer);
      return clock.t;
    };
    expect([await at(), await at(), await at()]).toEqual([0, 400, 800]);
    // The next was due at 1200 and comes 150 ms late (a busy machine): the one after is still due at 1600, no
    // later; one 300 ms late leaves only half a spacing (200 ms) for the next, and the window still holds.
    clock.t = 1350;
    expect(await at()).toBe(1350);
    expect(await at()).toBe(1600);
    clock.t = 2300;
    expect(await at()).toBe(2300);
    // Half a spacing after it was the window's turn too (a window after 1350); then back on the pace.
    expect(await at()).toBe(2550);
    expect(await at()).toBe(2900);
  });

  it('holds every start after backoff()', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ perSecond: 3, marginMs: 200, now: clock.now, sleep: clock.sleep });
    await leave(pacer);
    pacer.backoff(5000);
    const starts: number[] = [];
    await Promise.all([leave(pacer), leave(pacer)].map((p) => p.then(() => starts.push(clock.t))));
    // The first when the hold ends, the next half a spacing later (caught up with the pace; the 429 widened the
    // window to 1.25 s).
    expect(starts[0]).toBe(5000);
    expect(starts[1]).toBeCloseTo(5000 + 1250 / 6);
    // A shorter backoff does not shorten a longer one already set.
    pacer.backoff(2000);
    pacer.backoff(100);
    await leave(pacer);
    expect(clock.t).toBeCloseTo(5000 + 1250 / 6 + 2000);
  });

  it('caps a hold at a minute and announces it once, whatever the number of waiting starts', async () => {
    const clock = fakeClock();
    const told: [number, string][] = [];
    const pacer = createPacer({
      perSecond: 3,
      marginMs: 200,
      now: clock.now,
      sleep: clock.sleep,
      onHold: (ms, r) => told.push([ms, r]),
    });
    await leave(pacer);
    pacer.backoff(86_400_000);
    const starts: number[] = [];
    await Promise.all([leave(pacer), leave(pacer), leave(pacer)].map((p) => p.then(() => starts.push(clock.t))));
    expect(starts).toEqual([60_000, 60_200, 60_600]);
    expect(told).toEqual([[60_000, 'rate-limited']]);
    // A short hold (under half a second) passes without a word.
    pacer.backoff(300, 'network');
    await leave(pacer);
    expect(told).toHaveLength(1);
  });

  it('rejects with the signal reason when aborted, and keeps serving the others', async () => {
    const clock = fakeClock();
    // A sleep that never ends by itself, so the aborted waiter is really waiting.
    let wake: (() => void) | undefined;
    const sleep = (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        wake = () => {
          clock.t += ms;
          resolve();
        };
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const pacer = createPacer({ perSecond: 1, marginMs: 0, now: clock.now, sleep });
    await leave(pacer);
    const controller = new AbortController();
    const aborted = pacer.acquire(controller.signal);
    const next = leave(pacer);
    await Promise.resolve();
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    wake?.();
    await next;
    expect(clock.t).toBe(1000);
    const already = new AbortController();
    already.abort(new Error('early'));
    await expect(pacer.acquire(already.signal)).rejects.toThrow('early');
  });

  it('processPacer() is one instance per process', () => {
    expect(processPacer()).toBe(processPacer());
  });
});

describe('pacer: starts counted from when requests leave, margin widened after a 429', () => {
  it('a request written later than it was admitted counts from when it was written', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ perSecond: 3, marginMs: 200, now: clock.now, sleep: clock.sleep });
    const first = await pacer.acquire();
    await leave(pacer);
    await leave(pacer);
    expect(clock.t).toBe(800);
    // The first request waited for its connection: it left at 1000, not at 0. The fourth start, due at 1200 by
    // the pace, waits a window after it (and would have gone at 1200 had it counted from 0).
    clock.t = 1000;
    first?.sent();
    await leave(pacer);
    expect(clock.t).toBe(1600);
  });

  it('after a 429 the margin is wider for the rest of the run (once a second however often it is told)', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ perSecond: 1, marginMs: 100, now: clock.now, sleep: clock.sleep });
    await leave(pacer);
    await leave(pacer);
    expect(clock.t).toBe(1100);
    pacer.backoff(0, 'rate-limited');
    pacer.backoff(0, 'rate-limited');
    await leave(pacer);
    expect(clock.t).toBe(1100 + 1150);
    // A failing service is no reason to widen it.
    clock.t += 2000;
    pacer.backoff(0, 'unavailable');
    const at = clock.t;
    await leave(pacer);
    await leave(pacer);
    expect(clock.t - at).toBe(1150);
  });

  it('a request admitted and not written yet leaves no earlier than now: the next start counts from it', async () => {
    const clock = fakeClock();
    const pacer = createPacer({ perSecond: 3, marginMs: 100, now: clock.now, sleep: clock.sleep });
    // Three admitted at 0 whose requests are held back (a busy event loop, no connection yet)...
    const held = await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()]);
    // ...do not let a fourth go at 1100 beside them: it waits until a window after they can have left.
    const fourth = leave(pacer);
    await new Promise((resolve) => setImmediate(resolve));
    clock.t = 900;
    for (const a of held) a?.sent();
    await fourth;
    expect(clock.t).toBeGreaterThanOrEqual(900 + 1100);
    // One never written (it failed before it left) holds the budget back for a while only.
    const clock2 = fakeClock();
    const p2 = createPacer({ perSecond: 1, marginMs: 0, now: clock2.now, sleep: clock2.sleep });
    await p2.acquire();
    await leave(p2);
    expect(clock2.t).toBeGreaterThanOrEqual(UNSENT_LEAVES_LATER_MS);
    expect(clock2.t).toBeLessThan(UNSENT_LEAVES_LATER_MS + 2000);
  });
});
