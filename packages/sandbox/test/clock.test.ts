import { describe, expect, it } from 'vitest';
import { SimClock } from '../src/clock.js';

const HOUR = 3_600_000;

function fakeReal(start = 1_000_000) {
  let t = start;
  return { now: () => t, pass: (ms: number) => void (t += ms) };
}

describe('SimClock', () => {
  it('runs at real speed by default from a fixed start', () => {
    const real = fakeReal();
    const clock = new SimClock({ start: Date.UTC(2026, 0, 1), realNow: real.now });
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1));
    real.pass(1500);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1) + 1500);
  });

  it('multiplies elapsed real time by the speed (3600 = an hour per second)', () => {
    const real = fakeReal();
    const clock = new SimClock({ start: 0, speed: 3600, realNow: real.now });
    real.pass(1000);
    expect(clock.now()).toBe(HOUR);
  });

  it('keeps elapsed time when the speed changes, and speed 0 freezes it', () => {
    const real = fakeReal();
    const clock = new SimClock({ start: 0, speed: 10, realNow: real.now });
    real.pass(100);
    clock.speed = 0;
    real.pass(5000);
    expect(clock.now()).toBe(1000);
    clock.speed = 2;
    real.pass(10);
    expect(clock.now()).toBe(1020);
  });

  it('advances by hand and never runs back', () => {
    const real = fakeReal();
    const clock = new SimClock({ start: 0, speed: 0, realNow: real.now });
    clock.advance(2 * HOUR);
    expect(clock.now()).toBe(2 * HOUR);
    clock.advanceTo(5 * HOUR);
    expect(clock.now()).toBe(5 * HOUR);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advanceTo(HOUR)).toThrow(/back/);
    expect(clock.now()).toBe(5 * HOUR);
  });

  it('refuses a negative or non-finite speed', () => {
    expect(() => new SimClock({ speed: -1 })).toThrow(RangeError);
    expect(() => new SimClock({ speed: Number.NaN })).toThrow(RangeError);
  });

  it('resumes from saved state: paused while down by default, or caught up by a factor with a cap', () => {
    const real = fakeReal();
    const clock = new SimClock({ start: 10 * HOUR, speed: 3, realNow: real.now });
    real.pass(1000);
    const saved = clock.toJSON();
    expect(saved).toEqual({ time: 10 * HOUR + 3000, savedAt: real.now(), speed: 3 });
    // Survives a JSON round trip (it goes into the state file).
    const state = JSON.parse(JSON.stringify(saved)) as typeof saved;

    real.pass(60_000); // down for a minute
    const paused = SimClock.resume(state, { realNow: real.now });
    expect(paused.now()).toBe(10 * HOUR + 3000);
    expect(paused.speed).toBe(3);

    const caughtUp = SimClock.resume(state, { catchUp: 60, speed: 1, realNow: real.now });
    expect(caughtUp.now()).toBe(10 * HOUR + 3000 + 60 * 60_000);
    expect(caughtUp.speed).toBe(1);

    const capped = SimClock.resume(state, { catchUp: 60, catchUpMaxMs: 1000, realNow: real.now });
    expect(capped.now()).toBe(10 * HOUR + 4000);
  });
});
