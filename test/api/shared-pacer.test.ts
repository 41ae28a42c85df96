import { statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetFile, createSharedPacer } from '../../src/api/shared-pacer.js';
import { tempDir } from '../items/helpers.js';

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

describe('createSharedPacer', () => {
  it('two pacers on one file admit no more than 3 starts in any second together', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const a = createSharedPacer({ file, perSecond: 3, marginMs: 20 });
    const b = createSharedPacer({ file, perSecond: 3, marginMs: 20 });
    const starts: number[] = [];
    const take = async (p: typeof a) => {
      await p.acquire();
      starts.push(Date.now());
    };
    const t0 = Date.now();
    await Promise.all([...Array.from({ length: 6 }, () => take(a)), ...Array.from({ length: 6 }, () => take(b))]);
    expect(starts).toHaveLength(12);
    expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(3);
    // 12 starts at 3 a second: the last waits at least three windows.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(3000);
  });

  it('a backoff in one process holds the starts of the other', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const a = createSharedPacer({ file, perSecond: 3 });
    const b = createSharedPacer({ file, perSecond: 3 });
    a.backoff(600);
    expect(a.heldUntil()).toBeGreaterThan(Date.now());
    const t0 = Date.now();
    await b.acquire();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
  });

  it('an aborted caller stops waiting at once and takes no start', async () => {
    const file = path.join(tempDir(), 'budget.json');
    const p = createSharedPacer({ file, perSecond: 1 });
    await p.acquire();
    const controller = new AbortController();
    const waiting = p.acquire(controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const t0 = Date.now();
    await expect(waiting).rejects.toThrow('stop');
    expect(Date.now() - t0).toBeLessThan(500);
  });

  it('removes a stale lock left by a killed process', async () => {
    const file = path.join(tempDir(), 'budget.json');
    writeFileSync(`${file}.lock`, '999999999');
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(`${file}.lock`, old, old);
    const p = createSharedPacer({ file, perSecond: 3 });
    await p.acquire();
    expect(statSync(file).size).toBeGreaterThan(0);
  });

  it('names the budget after a digest of the key, never the key', () => {
    const f = budgetFile('/state', 'https://api.example.com/', 'SECRET-KEY');
    expect(f).toMatch(/^\/state\/budget\/[0-9a-f]{24}\.json$/);
    expect(f).not.toContain('SECRET');
    expect(budgetFile('/state', 'https://api.example.com', 'SECRET-KEY')).toBe(f);
    expect(budgetFile('/state', 'https://api.example.com', 'OTHER')).not.toBe(f);
  });
});
