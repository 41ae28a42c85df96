import { describe, expect, it } from 'vitest';
import { chunk, mergeResults, runChunks } from '../../src/commands/shared/chunks.js';
import type { ItemResults } from '../../src/api/types.js';

const accepted = (...n: string[]): ItemResults<{ number: string }> => ({ accepted: n.map((number) => ({ number })), rejected: [] });

describe('chunk', () => {
  it('splits into pieces of at most size', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 40)).toEqual([]);
    expect(chunk(Array.from({ length: 81 }, (_, i) => i), 40).map((c) => c.length)).toEqual([40, 40, 1]);
  });
  it('refuses a size below 1', () => {
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});

describe('mergeResults', () => {
  it('concatenates in order and skips missing parts', () => {
    const merged = mergeResults([
      accepted('a'),
      undefined,
      { accepted: [{ number: 'b' }], rejected: [{ number: 'c', error: { code: -1, message: 'x' } }] },
    ]);
    expect(merged.accepted.map((a) => a.number)).toEqual(['a', 'b']);
    expect(merged.rejected.map((r) => r.number)).toEqual(['c']);
  });
});

describe('runChunks', () => {
  it('merges in input order whatever the completion order, with bounded concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const chunks = [['1'], ['2'], ['3'], ['4'], ['5'], ['6']];
    const run = await runChunks(
      chunks,
      async (c, i) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, (6 - i) * 3));
        inFlight--;
        return accepted(...c);
      },
      { concurrency: 3 },
    );
    expect(run.results.accepted.map((a) => a.number)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(peak).toBeLessThanOrEqual(3);
    expect(run.error).toBeUndefined();
    expect(run.unanswered).toBe(0);
  });

  it('stops starting chunks after a failure and returns what completed', async () => {
    const started: number[] = [];
    const boom = new Error('boom');
    const run = await runChunks(
      [['a'], ['b'], ['c'], ['d']],
      async (c, i) => {
        started.push(i);
        if (i === 1) throw boom;
        return accepted(...c);
      },
      { concurrency: 1 },
    );
    expect(started).toEqual([0, 1]);
    expect(run.error).toBe(boom);
    expect(run.results.accepted.map((a) => a.number)).toEqual(['a']);
    expect(run.unanswered).toBe(3);
  });

  it('starts nothing new once the signal is aborted, letting started chunks finish', async () => {
    const controller = new AbortController();
    const run = await runChunks(
      [['a', 'b'], ['c'], ['d']],
      async (c, i) => {
        if (i === 0) controller.abort();
        await new Promise((r) => setTimeout(r, 5));
        return accepted(...c);
      },
      { concurrency: 1, signal: controller.signal },
    );
    expect(run.results.accepted.map((a) => a.number)).toEqual(['a', 'b']);
    expect(run.unanswered).toBe(2);
    expect(run.error).toBeUndefined();
  });
});
