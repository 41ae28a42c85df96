import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RetrySchedule, type Retry } from '../../../src/webhook/listener/retry.js';

interface Item extends Retry {
  name: string;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A schedule whose attempts succeed once `up` is true; what was tried, in order, with the time. */
function schedule(limits = { firstDelayMs: 100, maxDelayMs: 400, maxAttempts: 5 }) {
  const state = { up: false, tried: [] as string[], givenUp: [] as string[] };
  const s = new RetrySchedule<Item>(
    limits,
    async (item) => {
      state.tried.push(`${item.name}@${Date.now()}#${item.attempts}`);
      return state.up;
    },
    (item) => state.givenUp.push(item.name),
  );
  return { s, state };
}

const item = (name: string): Item => ({ name, attempts: 1 });

describe('RetrySchedule', () => {
  it('tries one at a time after a delay that doubles up to a ceiling, moving a failed one to the back', async () => {
    vi.setSystemTime(0);
    const { s, state } = schedule();
    s.add(item('a'));
    s.add(item('b'));
    await vi.advanceTimersByTimeAsync(100 + 200 + 400 + 400);
    expect(state.tried).toEqual(['a@100#2', 'b@300#2', 'a@700#3', 'b@1100#3']);
    s.stop();
  });

  it('once the app takes one, what waits goes at once and the pace starts over', async () => {
    vi.setSystemTime(0);
    const { s, state } = schedule();
    s.add(item('a'));
    s.add(item('b'));
    s.add(item('c'));
    await vi.advanceTimersByTimeAsync(100); // a fails
    state.up = true;
    await vi.advanceTimersByTimeAsync(200); // b succeeds, then c and a at once
    expect(state.tried).toEqual(['a@100#2', 'b@300#2', 'c@300#2', 'a@300#3']);
    expect(s.nextDelayMs).toBe(100);
  });

  it('appBack: a forward that worked elsewhere tries what waits now', async () => {
    vi.setSystemTime(0);
    const { s, state } = schedule();
    s.add(item('a'));
    state.up = true;
    s.appBack();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.tried).toEqual(['a@0#2']);
  });

  it('gives up an item after its attempts, and goes on with the others', async () => {
    vi.setSystemTime(0);
    const { s, state } = schedule({ firstDelayMs: 10, maxDelayMs: 10, maxAttempts: 3 });
    s.add(item('a'));
    await vi.advanceTimersByTimeAsync(10);
    s.add(item('b'));
    await vi.advanceTimersByTimeAsync(100);
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
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.tried).toEqual([]);
    await s.settled();
  });
});
