import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../src/http/rate-limit.js';

function fakeNow() {
  let t = 5000;
  return { now: () => t, pass: (ms: number) => void (t += ms) };
}

describe('RateLimiter', () => {
  it('admits 3 in any one-second window and refuses the 4th with the wait until a slot frees', () => {
    const clock = fakeNow();
    const limiter = new RateLimiter(3, clock.now);
    expect(limiter.take('k')).toEqual({ ok: true });
    clock.pass(100);
    expect(limiter.take('k')).toEqual({ ok: true });
    clock.pass(100);
    expect(limiter.take('k')).toEqual({ ok: true });
    clock.pass(100);
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterMs: 700 });
  });

  it('counts a sliding window, not calendar seconds', () => {
    const clock = fakeNow();
    const limiter = new RateLimiter(3, clock.now);
    clock.pass(900);
    for (let i = 0; i < 3; i++) expect(limiter.take('k').ok).toBe(true);
    // A new "calendar second" starts 100 ms later, but the window still holds three arrivals.
    clock.pass(200);
    expect(limiter.take('k').ok).toBe(false);
    clock.pass(800); // exactly one second after the three
    expect(limiter.take('k').ok).toBe(true);
  });

  it('lets requests spaced by a third of a second through for ever', () => {
    const clock = fakeNow();
    const limiter = new RateLimiter(3, clock.now);
    for (let i = 0; i < 30; i++) {
      expect(limiter.take('k').ok).toBe(true);
      clock.pass(334);
    }
  });

  it('does not count refused requests, so an early retry does not extend the lock-out', () => {
    const clock = fakeNow();
    const limiter = new RateLimiter(1, clock.now);
    expect(limiter.take('k').ok).toBe(true);
    for (let i = 1; i <= 10; i++) {
      clock.pass(100);
      // Nine refusals in the second after the admitted request; the tenth try is a second later.
      expect(limiter.take('k').ok).toBe(i === 10);
    }
  });

  it('counts an arrival decided after a later one at its own time', () => {
    const clock = fakeNow();
    const limiter = new RateLimiter(2, clock.now);
    expect(limiter.take('k', 5100).ok).toBe(true);
    expect(limiter.take('k', 5000).ok).toBe(true); // its body came in after the other's
    clock.pass(1050);
    // 5000 left the window, 5100 has not: one more fits, a second does not until 6100.
    expect(limiter.take('k').ok).toBe(true);
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterMs: 50 });
  });

  it('keeps keys apart, and 0 turns the limit off', () => {
    const clock = fakeNow();
    const limiter = new RateLimiter(1, clock.now);
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('b').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
    limiter.perSecond = 0;
    for (let i = 0; i < 100; i++) expect(limiter.take('a').ok).toBe(true);
    expect(() => new RateLimiter(-1)).toThrow(RangeError);
  });
});
