import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BudgetFile, BudgetFileError } from '../../src/pacing/budget-file.js';
import { tempDir } from '../items/helpers.js';

describe('BudgetFile', () => {
  it('reads a fresh budget when the file is missing, and writes it privately, whole', () => {
    const file = new BudgetFile(path.join(tempDir(), 'budget.json'));
    expect(file.read()).toEqual({ starts: [], holdUntil: 0 });
    file.write({ starts: [1, 2], holdUntil: 0 });
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toEqual({ starts: [1, 2], holdUntil: 0 });
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(file.read()).toEqual({ starts: [1, 2], holdUntil: 0 });
  });

  it('runs under the lock file, and not while another holds it', () => {
    const file = new BudgetFile(path.join(tempDir(), 'budget.json'));
    expect(file.tryLocked(() => existsSync(`${file.path}.lock`))).toBe(true);
    expect(existsSync(`${file.path}.lock`)).toBe(false);
    writeFileSync(`${file.path}.lock`, '12345');
    expect(file.tryLocked(() => 'ran')).toBeUndefined();
  });

  it('removes a lock left by a killed process, or written in the future, for the next try', () => {
    const file = new BudgetFile(path.join(tempDir(), 'budget.json'), { staleLockMs: 2000 });
    for (const offset of [-60_000, 3_600_000]) {
      writeFileSync(`${file.path}.lock`, '999999999');
      const at = (Date.now() + offset) / 1000;
      utimesSync(`${file.path}.lock`, at, at);
      expect(file.tryLocked(() => 'ran')).toBeUndefined();
      expect(file.tryLocked(() => 'ran')).toBe('ran');
    }
  });

  it('update() writes a change under the lock, and swallows what cannot be written', () => {
    const dir = tempDir();
    const file = new BudgetFile(path.join(dir, 'budget.json'));
    file.update((s) => ({ ...s, holdUntil: 42 }));
    expect(file.read().holdUntil).toBe(42);
    file.update(() => undefined);
    expect(file.read().holdUntil).toBe(42);
    const blocked = new BudgetFile(path.join(dir, 'gone', 'budget.json'));
    expect(() => blocked.update((s) => s)).not.toThrow();
  });

  it("a directory in place of the file fails the write with the system's reason", () => {
    const file = new BudgetFile(path.join(tempDir(), 'budget.json'));
    mkdirSync(file.path);
    expect(file.read()).toEqual({ starts: [], holdUntil: 0 });
    let thrown: unknown;
    try {
      file.tryLocked(() => file.write({ starts: [], holdUntil: 0 }));
    } catch (err) {
      thrown = new BudgetFileError(file.path, err);
    }
    const message = (thrown as Error).message;
    expect(message).toMatch(/^cannot use the rate budget file .*budget\.json.*: a directory is in the way \(EISDIR\)$/);
  });
});
