// One command, one file, and its test beside it: every command file of src/commands/<noun>/<verb>.ts (a file that
// exports a declaration) has its tests in test/commands/<noun>/<verb>.test.ts. This fails naming the test file a
// command lacks, so a new command cannot come without one, and a reader finds a command's tests by its path.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testFileOf } from './test-file-of.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The command files: src/commands/<noun>/<verb>.ts exporting `declaration`, by their path from the root. */
function commandFiles(read: (file: string) => string): string[] {
  const folders = readdirSync(path.join(ROOT, 'src/commands'), { withFileTypes: true }).filter((e) => e.isDirectory());
  return folders
    .flatMap((folder) =>
      readdirSync(path.join(ROOT, 'src/commands', folder.name))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `src/commands/${folder.name}/${name}`),
    )
    .filter((file) => /^export const declaration\b/m.test(read(file)))
    .sort();
}

/** The test files missing for these command files, as `test file: what it tests` lines. */
function missingTests(files: readonly string[], exists: (file: string) => boolean): string[] {
  return files
    .map((file) => [file, testFileOf(file)] as const)
    .filter(([, test]) => !exists(test))
    .map(([file, test]) => `${test}: the tests of ${file}`);
}

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => existsSync(path.join(ROOT, file));

describe('the test file of every command', () => {
  const files = commandFiles(read);

  it('finds the command files, a group and its commands among them', () => {
    expect(files).toContain('src/commands/items/register.ts');
    expect(files).toContain('src/commands/auth/auth.ts');
    expect(files).toContain('src/commands/auth/login.ts');
    // Helpers of a command's folder declare nothing and need no test file of their own.
    expect(files).not.toContain('src/commands/list/filters.ts');
  });

  it('is test/commands/<noun>/<verb>.test.ts for each of them', () => {
    expect(missingTests(files, exists)).toEqual([]);
  });

  it('names the test file of a made-up command that has none, and nothing once it is there', () => {
    const withSnooze = ['src/commands/items/register.ts', 'src/commands/items/snooze.ts'];
    expect(missingTests(withSnooze, exists)).toEqual([
      'test/commands/items/snooze.test.ts: the tests of src/commands/items/snooze.ts',
    ]);
    const added = (file: string) => file === 'test/commands/items/snooze.test.ts' || exists(file);
    expect(missingTests(withSnooze, added)).toEqual([]);
  });
});
