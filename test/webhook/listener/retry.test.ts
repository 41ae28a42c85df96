import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clock, setClock, type Clock } from '../../../src/core/clock.js';
import { RetrySchedule, type Retry } from '../../../src/webhook/listener/retry.js';

interface Item extends Retry {
  name: string;
}

/** A clock that stands still until the test moves it on; it starts at 0. */
class SteppedClock implements Clock {
  #t = 0;
  readonly #sleepers: { at: number; wake(): void }[] = [];

  now(): number {
    return this.#t;
  }

  monotonic(): number {
    return this.#t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const sleeper = { at: this.#t + Math.max(0, ms), wake: () => settle(resolve) };
      const onAbort = () => settle(() => reject(signal?.reason));
      const settle = (then: () => void) => {
        signal?.removeEventListener('abort', onAbort);
        this.#sleepers.splice(this.#sleepers.indexOf(sleeper), 1);
        then();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.push(sleeper);
    });
  }

  /** Moves the clock `ms` on, waking each sleeper due on the way at its time, once what woke before has run. */
  async advance(ms: number): Promise<void> {
    const end = this.#t + ms;
    for (;;) {
      await nextTurn();
      const due = this.#sleepers.filter((s) => s.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#t = Math.max(this.#t, due.at);
      due.wake();
    }
    this.#t = end;
  }
}

let time: SteppedClock;
let previous: Clock;
beforeEach(() => {
  time = new SteppedClock();
  previous = setClock(time);
});
afterEach(() => {
  setClock(previous);
});

/** A schedule whose attempts succeed once `up` is true; what was tried, in order, with the time. */
function schedule(limits = { firstDelayMs: 100, maxDelayMs: 400, maxAttempts: 5 }) {
  const state = { up: false, tried: [] as string[], givenUp: [] as string[] };
  const s = new RetrySchedule<Item>(
    limits,
    async (item) => {
      state.tried.push(`${item.name}@${clock().now()}#${item.attempts}`);
      return state.up;
    },
    (item) => state.givenUp.push(item.name),
  );
  return { s, state };
}

const item = (name: string): Item => ({ name, attempts: 1 });

describe('RetrySchedule', () => {
  it('tries one at a time after a delay that doubles up to a ceiling, moving a failed one to the back', async () => {
    const { s, state } = schedule();
    s.add(item('a'));
    s.add(item('b'));
    await time.advance(100 + 200 + 400 + 400);
    expect(state.tried).toEqual(['a@100#2', 'b@300#2', 'a@700#3', 'b@1100#3']);
    s.stop();
  });

  it('once the app takes one, what waits goes at once and the pace starts over', async () => {
    const { s, state } = schedule();
    s.add(item('a'));
    s.add(item('b'));
    s.add(item('c'));
    await time.advance(100); // a fails
    state.up = true;
    await time.advance(200); // b succeeds, then c and a at once
    expect(state.tried).toEqual(['a@100#2', 'b@300#2', 'c@300#2', 'a@300#3']);
    expect(s.nextDelayMs).toBe(100);
  });

  it('appBack: a forward that worked elsewhere tries what waits now', async () => {
    const { s, state } = schedule();
    s.add(item('a'));
    state.up = true;
    s.appBack();
    await time.advance(0);
    expect(state.tried).toEqual(['a@0#2']);
  });

  it('gives up an item after its attempts, and goes on with the others', async () => {
    const { s, state } = schedule({ firstDelayMs: 10, maxDelayMs: 10, maxAttempts: 3 });
    s.add(item('a'));
    await time.advance(10);
    s.add(item('b'));
    await time.advance(100);
    expect(state.givenUp).toEqual(['a', 'b']);
    // b came after a had gone to the back.
    expect(state.tried).toEqual(['a@10#2', 'a@20#3', 'b@30#2', 'b@40#3']);
    // One whose attempts are used up already is not tried at all.
    s.add({ name: 'c', attempts: 3 });
    expect(state.givenUp).toEqual(['a', 'b', 'c']);
  });

  it('after stop, nothing more is tried', async () => {
    const { s, state } = schedule();
    s.add(item('a'));
    s.stop();
    s.add(item('b'));
    await time.advance(10_000);
    expect(state.tried).toEqual([]);
    await s.settled();
  });
});
