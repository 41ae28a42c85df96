// The tests' clock (src/core/clock.ts): its waits take no time, and it counts the time they skip. A sleep of a second
// resolves as soon as the event loop has had a few turns to itself, and the clock is then a second later, for
// every part of trk and for an emulator in the same process alike: a pace of 3 requests a second, a back-off, a
// Retry-After of a minute cost nothing, and what trk sees of them (starts a window apart, a request after the
// hold) is what it would see in real time. What races real input and output (a request's time limit) keeps real
// timers, so it is not cut short.
//
// Sleepers wake one at a time, earliest first, each after TURNS turns of the event loop with no other wake: what
// was written to a socket before a wait is read by the other end (an emulator's rate limit counts it) before the
// clock moves on, as it would be in the real second that the wait stands for.

import { setImmediate as nextTurn } from 'node:timers/promises';
import { clock, systemClock, type Clock } from '../src/core/clock.js';

/** Turns of the event loop before a wake: enough for a request written to a loopback socket to be read. */
const TURNS = 8;

interface Sleeper {
  at: number;
  resolve(): void;
}

export class SkippingClock implements Clock {
  /** The time skipped so far, added to the machine's. */
  #skipped = 0;
  readonly #sleepers: Sleeper[] = [];
  #waking = false;
  /** Wall time at monotonic 0: the wall clock read from the monotonic one, so that both move together. */
  readonly #wallAtZero = systemClock.now() - systemClock.monotonic();

  /**
   * Whole milliseconds, as Date.now() tells them, moving with monotonic(): a sleep of N ms moves it by N at least
   * (Date.now() read anew is whole milliseconds of its own, and could lag a skip by one).
   */
  now(): number {
    return Math.floor(this.#wallAtZero + this.monotonic());
  }

  monotonic(): number {
    return systemClock.monotonic() + this.#skipped;
  }

  /** The milliseconds skipped so far: what the waits would have cost in real time. */
  get skippedMs(): number {
    return this.#skipped;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { at: this.monotonic() + Math.max(0, ms), resolve: () => settle(resolve) };
      const onAbort = () => settle(() => reject(signal?.reason));
      const settle = (then: () => void) => {
        signal?.removeEventListener('abort', onAbort);
        const i = this.#sleepers.indexOf(sleeper);
        if (i >= 0) this.#sleepers.splice(i, 1);
        then();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
      void this.#wake();
    });
  }

  /** Wakes the sleepers one by one, earliest first, moving the clock to each one's time. */
  async #wake(): Promise<void> {
    if (this.#waking) return;
    this.#waking = true;
    try {
      while (this.#sleepers.length > 0) {
        for (let i = 0; i < TURNS; i++) await nextTurn();
        const first = this.#sleepers.reduce<Sleeper | undefined>((a, b) => (a && a.at <= b.at ? a : b), undefined);
        if (!first) break;
        const late = first.at - this.monotonic();
        if (late > 0) this.#skipped += late;
        first.resolve();
      }
    } finally {
      this.#waking = false;
    }
  }
}

/** The clock every test runs on (test/setup.ts puts it in force). */
export function testClock(): SkippingClock {
  const c = clock();
  if (!(c instanceof SkippingClock)) throw new Error('the skipping clock is not in force (test/setup.ts)');
  return c;
}
