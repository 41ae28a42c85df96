import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetFile, budgetName, withLocalFallback } from '../../src/pacing/budget.js';
import { BudgetFileError } from '../../src/pacing/budget-file.js';
import { FilePacer } from '../../src/pacing/file-pacer.js';
import { createPacer } from '../../src/pacing/pacer.js';
import { tempDir } from '../items/helpers.js';

describe('the name of a budget', () => {
  it('is a digest of the address and the key, never the key', () => {
    const f = budgetFile('/state', 'https://api.example.com/', 'SECRET-KEY');
    // SHA-256 of the address and the key, as every version of trk names it: processes of older and newer trk
    // on one key share the file (and the Redis keys named after it).
    expect(f).toBe('/state/budget/977fd3b6ec81dff8e00b99fb.json');
    expect(budgetName('https://api.example.com', 'SECRET-KEY')).toBe('977fd3b6ec81dff8e00b99fb');
    expect(f).not.toContain('SECRET');
    expect(budgetFile('/state', 'https://api.example.com', 'SECRET-KEY')).toBe(f);
    expect(budgetFile('/state', 'https://api.example.com', 'OTHER')).not.toBe(f);
  });
});

describe('withLocalFallback', () => {
  it("reads go on with this process's own pace after one warning; writes fail", async () => {
    const dir = tempDir();
    const file = path.join(dir, 'budget.json');
    mkdirSync(file);
    const warnings: string[] = [];
    const local = createPacer({ perSecond: 3, marginMs: 0 });
    const pacer = withLocalFallback(new FilePacer({ file, perSecond: 3 }), local, (l) => warnings.push(l));
    await pacer.acquire(undefined, { readOnly: true });
    await pacer.acquire(undefined, { readOnly: true });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: cannot use the rate budget file .*; pacing requests in this process only$/);
    await expect(pacer.acquire(undefined, { readOnly: false })).rejects.toBeInstanceOf(BudgetFileError);
    await expect(pacer.acquire()).rejects.toBeInstanceOf(BudgetFileError);
    // A budget that could not even be set up behaves the same.
    const setUpFailed = new BudgetFileError(dir, Object.assign(new Error('x'), { code: 'EROFS' }));
    const unset = withLocalFallback(setUpFailed, createPacer({ perSecond: 3, marginMs: 0 }), () => {});
    await unset.acquire(undefined, { readOnly: true });
    await expect(unset.acquire()).rejects.toThrow(/read-only file system \(EROFS\)/);
  });

  it('tells a hold to both the shared budget and the local pace', async () => {
    const told: string[] = [];
    const spy = (name: string) => ({
      acquire: async () => {},
      backoff: (ms: number, reason?: string) => void told.push(`${name} ${ms} ${reason}`),
    });
    withLocalFallback(spy('shared'), spy('local'), () => {}).backoff(500, 'unavailable');
    expect(told.sort()).toEqual(['local 500 unavailable', 'shared 500 unavailable']);
  });
});
