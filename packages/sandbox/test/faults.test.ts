import { describe, expect, it } from 'vitest';
import { FaultInjector, NO_FAULTS, parseFaults, seededRandom } from '../src/http/faults.js';

describe('parseFaults', () => {
  it('accepts a partial setting', () => {
    expect(parseFaults({ failureRate: 0.25, latencyMs: 20, retryAfter: false, pageOverlap: 39 })).toEqual({
      failureRate: 0.25,
      latencyMs: 20,
      retryAfter: false,
      pageOverlap: 39,
    });
  });

  it.each([
    [{ failureRate: 1.5 }, /failureRate/],
    [{ dropRate: -0.1 }, /dropRate/],
    [{ latencyMs: 2.5 }, /latencyMs/],
    [{ burst429: '3' }, /burst429/],
    [{ retryAfter: 1 }, /retryAfter/],
    [{ pageOverlap: 40 }, /pageOverlap must be a whole number from 0 to 39/],
    [{ pageOverlap: 1.5 }, /pageOverlap/],
    [{ failurerate: 0.1 }, /unknown fault "failurerate"/],
    [[], /object/],
  ])('refuses %j', (input, message) => {
    expect(() => parseFaults(input)).toThrow(message);
  });
});

describe('FaultInjector', () => {
  it('injects nothing by default', () => {
    const f = new FaultInjector();
    expect(f.faults).toEqual(NO_FAULTS);
    for (let i = 0; i < 100; i++) {
      expect(f.burst()).toBeUndefined();
      expect(f.failure()).toBeUndefined();
      expect(f.drop()).toBe(false);
      expect(f.delay()).toBe(0);
    }
  });

  it('replays the same choices for the same seed, and fails about the share asked', () => {
    const run = () => {
      const f = new FaultInjector({ failureRate: 0.3, dropRate: 0.1, jitterMs: 50 }, { seed: 42 });
      return Array.from({ length: 2000 }, () => [f.failure(), f.drop(), f.delay()]);
    };
    const a = run();
    expect(run()).toEqual(a);
    const failures = a.filter(([s]) => s !== undefined);
    expect(failures.length).toBeGreaterThan(450);
    expect(failures.length).toBeLessThan(750);
    expect(new Set(failures.map(([s]) => s))).toEqual(new Set([500, 503]));
    expect(a.every(([, , d]) => typeof d === 'number' && d >= 0 && d <= 50)).toBe(true);
  });

  it('answers 429 to the next N requests only', () => {
    const f = new FaultInjector({ burst429: 2 });
    expect(f.burst()).toBe(1000);
    expect(f.burst()).toBe(1000);
    expect(f.burst()).toBeUndefined();
    expect(f.faults.burst429).toBe(0);
  });

  it('runs periodic bursts from the moment they are set', () => {
    let t = 0;
    const f = new FaultInjector({}, { now: () => t });
    t = 12_345;
    f.set({ burst429EveryMs: 1000, burst429ForMs: 200 });
    expect(f.burst()).toBe(200);
    t += 150;
    expect(f.burst()).toBe(50);
    t += 100;
    expect(f.burst()).toBeUndefined();
    t += 800; // 1050 ms after the start: inside the second burst
    expect(f.burst()).toBe(150);
  });

  it('adds fixed latency plus jitter', () => {
    const f = new FaultInjector({ latencyMs: 100, jitterMs: 10 }, { seed: 1 });
    for (let i = 0; i < 50; i++) {
      const d = f.delay();
      expect(d).toBeGreaterThanOrEqual(100);
      expect(d).toBeLessThanOrEqual(110);
    }
  });

  it('has a generator spread over [0, 1)', () => {
    const r = seededRandom(7);
    const xs = Array.from({ length: 1000 }, r);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.filter((x) => x < 0.5).length).toBeGreaterThan(400);
  });
});
