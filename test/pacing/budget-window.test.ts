import { describe, expect, it } from 'vitest';
import {
  admit,
  movedByStall,
  movedToSent,
  parseBudget,
  withHold,
  type BudgetState,
} from '../../src/pacing/budget-window.js';

const window = { perSecond: 3, windowMs: 1030 };
const noHold = { until: 0, reason: 'rate-limited' as const };
const state = (starts: number[], holdUntil = 0, holdReason?: BudgetState['holdReason']): BudgetState => ({
  starts,
  holdUntil,
  ...(holdReason ? { holdReason } : {}),
});

describe('admit', () => {
  it('takes a start while fewer than perSecond fall in the window, recording it', () => {
    const due = { due: 5000 };
    expect(admit(state([]), 5000, window, noHold)).toEqual({
      start: 5000,
      next: { ...state([5000]), ...due },
      held: 0,
    });
    const third = admit(state([4000, 4500]), 5000, window, noHold);
    expect(third).toEqual({ start: 5000, next: { ...state([4000, 4500, 5000]), ...due }, held: 0 });
  });

  it('waits until the oldest of the last perSecond starts leaves the window', () => {
    expect(admit(state([4500, 4600, 4700]), 5000, window, noHold)).toEqual({ wait: 4500 + 1030 - 5000, held: 0 });
    // Starts older than the window no longer count.
    expect('start' in admit(state([3900, 4600, 4700]), 5000, window, noHold)).toBe(true);
  });

  it('forgets starts out of the window, and those more than a window ahead (the clock was set back)', () => {
    const got = admit(state([3000, 5500, 9000]), 6000, window, noHold);
    expect(got).toMatchObject({ start: 6000, next: { starts: [5500, 6000] } });
  });

  it("waits for a hold, saying whose: the file's reason, or this process's own when it is longer", () => {
    expect(admit(state([], 5800, 'unavailable'), 5000, window, noHold)).toEqual({
      wait: 800,
      hold: { until: 5800, reason: 'unavailable' },
      held: 5800,
    });
    // A file of an older version names no reason: a 429.
    expect(admit(state([], 5800), 5000, window, noHold)).toMatchObject({ hold: { reason: 'rate-limited' } });
    expect(admit(state([], 5800, 'unavailable'), 5000, window, { until: 6000, reason: 'network' })).toMatchObject({
      wait: 1000,
      hold: { until: 6000, reason: 'network' },
    });
  });

  it('keeps a hold still in force when it takes a start, and forgets one that is over', () => {
    const over = admit(state([], 4000, 'network'), 5000, window, noHold);
    expect(over).toEqual({ start: 5000, next: { ...state([5000]), due: 5000 }, held: 0 });
  });

  it('spreads starts through the window: each due a third of it after the one before was due', () => {
    // The latest was due at 4600: the next is due at 4943, whatever the window would allow.
    const early = admit({ ...state([4600]), due: 4600 }, 4800, window, noHold);
    expect('wait' in early && early.wait).toBeCloseTo(143 + 1 / 3);
    const onTime = admit({ ...state([4600]), due: 4600 }, 4600 + 1030 / 3, window, noHold);
    expect(onTime).toMatchObject({ next: { due: 4600 + 1030 / 3 } });
    // Taken 100 ms late: the next is still due a spacing after this one was due (no lateness passed on)...
    const late = admit({ ...state([4600]), due: 4600 }, 5043, window, noHold);
    expect(late).toMatchObject({ next: { due: 4600 + 1030 / 3 } });
    // ...and taken 400 ms late, half a spacing after it at the earliest.
    const later = admit({ ...state([4600]), due: 4600 }, 5343, window, noHold);
    expect(later).toMatchObject({ next: { due: 5343 - 1030 / 6 } });
    // A due time more than a window ahead (the clock was set back) is dropped.
    expect(admit({ ...state([]), due: 9000 }, 5000, window, noHold)).toMatchObject({ start: 5000 });
  });
});

describe('parseBudget', () => {
  it('reads starts and a hold, dropping what is not a number', () => {
    const text = '{"starts":[1,"x",2],"holdUntil":5,"holdReason":"network"}';
    expect(parseBudget(text, 0)).toEqual(state([1, 2], 5, 'network'));
    expect(parseBudget('{"starts":[],"holdUntil":5,"holdReason":"bogus"}', 0)).toEqual(state([], 5));
  });

  it('starts from nothing when the text is torn, and drops a hold further ahead than any can be', () => {
    expect(parseBudget('{"starts":[1,2', 0)).toEqual(state([]));
    expect(parseBudget('null', 0)).toEqual(state([]));
    expect(parseBudget(JSON.stringify(state([], 1000 + 60_001)), 1000)).toEqual(state([], 0));
    expect(parseBudget(JSON.stringify(state([], 1000 + 60_000)), 1000)).toEqual(state([], 61_000));
  });
});

describe('movedToSent', () => {
  it('moves the earliest start from the admission on that is before now', () => {
    expect(movedToSent([100, 200, 250], 200, 240)).toEqual([100, 240, 250]);
    // Moved by a stall meanwhile: the next one after the admission is taken for it.
    expect(movedToSent([100, 225], 200, 260)).toEqual([100, 260]);
  });

  it('is undefined when no start is left to move', () => {
    expect(movedToSent([100], 200, 240)).toBeUndefined();
    expect(movedToSent([300], 200, 240)).toBeUndefined();
  });
});

describe('movedByStall', () => {
  it("moves the starts of requests not yet written to the stall's end, and no other", () => {
    // A stall until 1050; 985 and 1040 were admitted here and not written yet; 900 and 1000 (another process's, or
    // already written) are on their way, and a start is never moved further than the stall's end.
    expect(movedByStall([900, 985, 1000, 1040], [985, 1040], 1050)).toEqual([900, 1000, 1050, 1050]);
    // Nothing unsent: nothing moves.
    expect(movedByStall([900, 1000], [], 1050)).toEqual([900, 1000]);
  });
});

describe('withHold', () => {
  it('a longer hold wins; a shorter one changes nothing', () => {
    const longer = withHold(state([1], 500, 'network'), { until: 800, reason: 'rate-limited' });
    expect(longer).toEqual(state([1], 800, 'rate-limited'));
    expect(withHold(state([1], 800, 'network'), { until: 800, reason: 'rate-limited' })).toBeUndefined();
  });
});
