import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { clock, setClock, type Clock } from '../../src/core/clock.js';
import { BudgetFileError } from '../../src/pacing/budget-file.js';
import { causeOfLimit, FilePacer, STALL_EXPLAINS_MS } from '../../src/pacing/file-pacer.js';
import type { TrkError } from '../../src/core/errors.js';
import { tempDir } from '../items/helpers.js';
import { SkippingClock, testClock } from '../skipping-clock.js';

/** The skipping clock without the machine's time: only waits move it, so a start is read as it was admitted. */
class WaitsOnlyClock extends SkippingClock {
  readonly #epoch = Date.now();
  override now(): number {
    return this.#epoch + this.skippedMs;
  }
  override monotonic(): number {
    return this.skippedMs;
  }
}

/** Runs `fn` with `next` in force, then puts the clock back. */
async function withClock<T>(next: Clock, fn: () => Promise<T>): Promise<T> {
  const previous = setClock(next);
  try {
    return await fn();
  } finally {
    setClock(previous);
  }
}

/** The tests' clock, but each wait is first told to `onSleep` (which may abort the sleeper). */
function toldOfSleeps(onSleep: (ms: number) => void): Clock {
  const c = testClock();
  return {
    now: () => c.now(),
    monotonic: () => c.monotonic(),
    sleep: (ms, signal) => {
      onSleep(ms);
      return c.sleep(ms, signal);
    },
  };
}

/** The largest number of starts inside any window of `windowMs`. */
function busiestWindow(starts: number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) - (sorted[i] as number) < windowMs) j++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

describe('FilePacer', () => {
  it('two pacers on one file admit no more than 3 starts in any second together', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const a = new FilePacer({ file, perSecond: 3, marginMs: 20 });
    const b = new FilePacer({ file, perSecond: 3, marginMs: 20 });
    const starts: number[] = [];
    const take = async (p: typeof a) => {
      await p.acquire();
      starts.push(clock().now());
    };
    await withClock(new WaitsOnlyClock(), async () => {
      const t0 = clock().now();
      await Promise.all([...Array.from({ length: 6 }, () => take(a)), ...Array.from({ length: 6 }, () => take(b))]);
      expect(starts).toHaveLength(12);
      expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(3);
      // 12 starts at 3 a second: the last waits at least three windows.
      expect(clock().now() - t0).toBeGreaterThanOrEqual(3000);
    });
  });

  it('a backoff in one process holds the starts of the other', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const a = new FilePacer({ file, perSecond: 3 });
    const b = new FilePacer({ file, perSecond: 3 });
    a.backoff(600);
    expect(a.heldUntil()).toBeGreaterThan(clock().now());
    const t0 = clock().now();
    await b.acquire();
    expect(clock().now() - t0).toBeGreaterThanOrEqual(550);
  });

  it('an aborted caller stops waiting at once and takes no start', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const p = new FilePacer({ file, perSecond: 1 });
    const startsIn = () => (JSON.parse(readFileSync(file, 'utf8')) as { starts: number[] }).starts;
    // Its request written at once, as the transport tells the pacer.
    (await p.acquire())?.sent();
    const [first] = startsIn();
    const controller = new AbortController();
    // Aborted as soon as it starts waiting for the next window.
    const aborting = toldOfSleeps(() => controller.abort(new Error('stop')));
    const skipped = testClock().skippedMs;
    await withClock(aborting, () => expect(p.acquire(controller.signal)).rejects.toThrow('stop'));
    // It did not wait the window out...
    expect(testClock().skippedMs).toBe(skipped);
    // ...and took no start: the next caller's comes one window after the first, not two.
    await p.acquire();
    expect(Math.max(...startsIn()) - (first as number)).toBeLessThan(2000);
  });

  it('removes a stale lock left by a killed process', async () => {
    const file = path.join(tempDir(), 'budget.json');
    writeFileSync(`${file}.lock`, '999999999');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(`${file}.lock`, old, old);
    const p = new FilePacer({ file, perSecond: 3 });
    await p.acquire();
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('caps a hold at a minute, in this process and in the file', () => {
    const file = path.join(tempDir(), 'budget.json');
    const p = new FilePacer({ file, perSecond: 3 });
    const t0 = clock().now();
    p.backoff(86_400_000);
    expect(p.heldUntil() - t0).toBeLessThanOrEqual(60_000 + 50);
    const state = JSON.parse(readFileSync(file, 'utf8')) as { holdUntil: number; holdReason: string };
    expect(state.holdUntil - t0).toBeLessThanOrEqual(60_000 + 50);
    expect(state.holdUntil - t0).toBeGreaterThan(59_000);
    expect(state.holdReason).toBe('rate-limited');
  });

  it('treats a hold further ahead than any can be, and a lock from the future, as stale', async () => {
    const file = path.join(tempDir(), 'budget.json');
    writeFileSync(file, JSON.stringify({ starts: [], holdUntil: clock().now() + 86_400_000 }));
    writeFileSync(`${file}.lock`, '999999999');
    const future = (Date.now() + 3_600_000) / 1000;
    utimesSync(`${file}.lock`, future, future);
    const holds: number[] = [];
    const p = new FilePacer({ file, perSecond: 3, onHold: (ms) => holds.push(ms) });
    const t0 = clock().now();
    await p.acquire();
    expect(clock().now() - t0).toBeLessThan(1000);
    expect(holds).toEqual([]);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { holdUntil: number }).holdUntil).toBe(0);
  });

  it('announces a hold set by another process once, however many starts wait for it', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const other = new FilePacer({ file, perSecond: 3 });
    other.backoff(800, 'unavailable');
    const told: [number, string][] = [];
    const p = new FilePacer({ file, perSecond: 3, onHold: (ms, reason) => told.push([ms, reason]) });
    await Promise.all([p.acquire(), p.acquire(), p.acquire()]);
    expect(told).toHaveLength(1);
    expect(told[0]![1]).toBe('unavailable');
    expect(told[0]![0]).toBeGreaterThan(500);
    expect(told[0]![0]).toBeLessThanOrEqual(800);
  });

  it('a file that cannot be written fails admissions with a BudgetFileError naming the path (exit 1)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'budget.json');
    mkdirSync(file); // a directory where the file should be
    const p = new FilePacer({ file, perSecond: 3 });
    const err = await p.acquire().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetFileError);
    expect((err as TrkError).exitCode).toBe(1);
    expect((err as TrkError).message).toContain(dir);
    expect((err as TrkError).toLine()).toMatch(/TRK_STATE_DIR/);
  });
});

describe('FilePacer: starts counted from when requests leave', () => {
  const starts = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { starts: number[] }).starts;
  /** An admission of the budget file's pacer, which always gives one. */
  const admitted = async (p: FilePacer) => {
    const admission = await p.acquire();
    if (!admission) throw new Error('the budget file gave no admission');
    return admission;
  };

  /** The wait the next start would begin with (the caller gives up there). */
  const waitsBeforeNext = async (p: FilePacer): Promise<number[]> => {
    const stop = new AbortController();
    const waits: number[] = [];
    const waiting = toldOfSleeps((ms) => {
      waits.push(ms);
      stop.abort(new Error('held'));
    });
    await withClock(waiting, () => expect(p.acquire(stop.signal)).rejects.toThrow('held'));
    return waits;
  };

  it('a start admitted and not written yet leaves no earlier than now: the next is reckoned from then', async () => {
    const file = path.join(tempDir(), 'budget.json');
    let t = 1_000_000;
    const p = new FilePacer({ file, perSecond: 1, marginMs: 30, stallMs: 0, now: () => t });
    await admitted(p);
    // A window later its request has still not left (a busy event loop, no connection yet)...
    t += 1500;
    const waits = await waitsBeforeNext(p);
    // ...so the next start waits a window from now (at most a second at a time), and others see it leave now.
    expect(waits).toEqual([1000]);
    expect(starts(file)).toEqual([1_001_500]);
  });

  it('sent() moves the admitted start to when the request was written; after a 429 the window is wider', async () => {
    const file = path.join(tempDir(), 'budget.json');
    let t = 1_000_000;
    const p = new FilePacer({ file, perSecond: 1, marginMs: 30, stallMs: 0, now: () => t });
    const first = await admitted(p);
    t += 40;
    first.sent();
    expect(starts(file)).toEqual([1_000_040]);
    // One start a window, counted from when the first was written.
    t = 1_000_040 + 1030;
    (await admitted(p)).sent();
    // After a 429 a window and the old margin is no longer enough: the start waits (and is then let go).
    p.backoff(0, 'rate-limited');
    t += 1030;
    const waits = await waitsBeforeNext(p);
    // The margin widened by 50 ms: the start would wait that long.
    expect(waits).toEqual([50]);
  });

  it('a stall moves the starts of requests not yet written to its end, and leaves those already written', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const p = new FilePacer({ file, perSecond: 3, stallMs: 15 });
    const before = await admitted(p);
    before.sent();
    const [writtenBefore] = starts(file);
    await admitted(p);
    // The event loop blocked (a long synchronous write); a request admitted and written as it ended, before the
    // watch got to run, had not left during the stall.
    const until = clock().now() + 120;
    while (clock().now() < until) {
      // block the event loop
    }
    const after = await admitted(p);
    after.sent();
    const writtenAfter = Math.max(...starts(file));
    /** The starts other than the two written: the one admitted before the stall and not written. */
    const unsentIn = (all: number[]) => {
      const rest = [...all];
      for (const written of [writtenBefore, writtenAfter]) rest.splice(rest.indexOf(written as number), 1);
      return rest;
    };
    // It counts from the stall's end (which can be the very millisecond the one written after the stall left: each
    // of the two is taken out once), moved by the stall watch, which ticks on the machine's timers (a stall is real
    // time), or already by the admission after the stall (a start not written leaves no earlier than then).
    await vi.waitFor(
      () => {
        const unsent = unsentIn(starts(file));
        expect(unsent).toHaveLength(1);
        expect(unsent[0]).toBeGreaterThanOrEqual(until - 20);
      },
      { timeout: 5000, interval: 5 },
    );
    // Already on their way: this process's stall delays neither.
    const now = starts(file);
    expect(now).toContain(writtenBefore);
    expect(now).toContain(writtenAfter);
  });

  it('finds its start when the stall watch (or another process at the same millisecond) moved it', async () => {
    const file = path.join(tempDir(), 'budget.json');
    let t = 2_000_000;
    const p = new FilePacer({ file, perSecond: 3, stallMs: 0, now: () => t });
    const admission = await admitted(p);
    // Moved forward by a stall, as the watch does: the exact value is gone from the file.
    writeFileSync(file, JSON.stringify({ starts: [2_000_025], holdUntil: 0 }));
    t += 60;
    admission.sent();
    expect(starts(file)).toEqual([2_000_060]);
  });
});

describe('FilePacer: why the service refused what the budget allowed', () => {
  const causes = (told: unknown[]) => (_ms: number, reason: string, cause?: unknown) => told.push({ reason, cause });

  it('its own 429 with no stall before it: something the budget does not count uses the key', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const told: unknown[] = [];
    const p = new FilePacer({ file, perSecond: 3, stallMs: 0, onHold: causes(told) });
    p.backoff(1000, 'rate-limited');
    await p.acquire();
    expect(told).toEqual([{ reason: 'rate-limited', cause: { kind: 'outside' } }]);
  });

  it('a 429 of another process sharing the budget (its hold in the file) is told as theirs', async () => {
    const file = path.join(tempDir(), 'budget.json');
    new FilePacer({ file, perSecond: 3, stallMs: 0 }).backoff(1000, 'rate-limited');
    const told: unknown[] = [];
    await new FilePacer({ file, perSecond: 3, stallMs: 0, onHold: causes(told) }).acquire();
    expect(told).toEqual([{ reason: 'rate-limited', cause: { kind: 'shared' } }]);
  });

  it('other waits carry no cause', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const told: unknown[] = [];
    const p = new FilePacer({ file, perSecond: 3, stallMs: 0, onHold: causes(told) });
    p.backoff(1000, 'unavailable');
    await p.acquire();
    expect(told).toEqual([{ reason: 'unavailable', cause: undefined }]);
  });

  it('a 429 just after a stall of this process is put down to the machine being busy, a later one is not', () => {
    const stall = { end: 1_000_000, ms: 240 };
    expect(causeOfLimit(1_000_000 + STALL_EXPLAINS_MS, stall)).toEqual({ kind: 'stall', ms: 240 });
    expect(causeOfLimit(1_000_001 + STALL_EXPLAINS_MS, stall)).toEqual({ kind: 'outside' });
    expect(causeOfLimit(5_000, { end: -Infinity, ms: 0 })).toEqual({ kind: 'outside' });
  });
});
