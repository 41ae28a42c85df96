import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { budgetFile } from '../../src/pacing/budget.js';
import { BudgetFileError } from '../../src/pacing/budget-file.js';
import { openSharedBudget, type SharedBudgetOptions } from '../../src/pacing/open.js';
import { createPacer } from '../../src/pacing/pacer.js';
import { RedisBudgetError } from '../../src/pacing/redis-pacer.js';
import { tempDir } from '../items/helpers.js';

function options(overrides: Partial<SharedBudgetOptions> = {}): SharedBudgetOptions & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    baseUrl: 'http://127.0.0.1:1',
    apiKey: 'KEY',
    stateDirectory: tempDir(),
    makePrivateDirectory: (dir) => mkdirSync(dir, { recursive: true, mode: 0o700 }),
    perSecond: 3,
    onHold: () => {},
    local: createPacer({ perSecond: 3, marginMs: 0 }),
    warn: (line) => warnings.push(line),
    warnings,
    ...overrides,
  };
}

describe('openSharedBudget', () => {
  it('keeps the budget in a file of the state folder, in a folder it makes private', async () => {
    const made: string[] = [];
    const opts = options();
    const makePrivateDirectory = (dir: string) => {
      made.push(dir);
      opts.makePrivateDirectory(dir);
    };
    const budget = await openSharedBudget({ ...opts, makePrivateDirectory });
    await budget.pacer.acquire();
    const file = budgetFile(opts.stateDirectory, opts.baseUrl, opts.apiKey);
    expect(made).toEqual([path.dirname(file)]);
    expect(existsSync(file)).toBe(true);
    await budget.close();
  });

  it("a budget folder that cannot be made: reads at this process's pace after a warning, writes refused", async () => {
    const opts = options({
      makePrivateDirectory: () => {
        throw Object.assign(new Error('read-only'), { code: 'EROFS' });
      },
    });
    const budget = await openSharedBudget(opts);
    await budget.pacer.acquire(undefined, { readOnly: true });
    expect(opts.warnings).toHaveLength(1);
    await expect(budget.pacer.acquire()).rejects.toBeInstanceOf(BudgetFileError);
  });

  it('a budget URL keeps it in Redis instead; Redis that cannot be reached refuses writes', async () => {
    const opts = options({ budgetUrl: 'redis://127.0.0.1:1/0' });
    const budget = await openSharedBudget(opts);
    await expect(budget.pacer.acquire()).rejects.toBeInstanceOf(RedisBudgetError);
    await budget.pacer.acquire(undefined, { readOnly: true });
    expect(opts.warnings[0]).toMatch(/^warning: cannot use the rate budget in Redis at 127\.0\.0\.1:1: /);
    expect(existsSync(path.join(opts.stateDirectory, 'budget'))).toBe(false);
    await budget.close();
  });
});
