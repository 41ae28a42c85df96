// What a new item operation costs, as ARCHITECTURE.md's checklist says: its module in @trk/service/operations/, its
// command's file in src/commands/items/ (with its listing, which the build copies into the list of commands), the
// emulator's handler, a test of the command and a test of the handler. Everything else (the lists of modules, the
// operations' names, the unions, the flags, the columns, the man pages' list) is derived from those. This fails,
// naming the file, when an item operation lacks one of them.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EMULATED_OPERATIONS } from '@trk/sandbox/ops/table.js';
import { commandName, ITEM_OPERATIONS } from '@trk/service/operations/index.js';
import { testFileOf } from './test-file-of.js';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The files of a folder below the root, recursively, by their path from the root. */
function filesUnder(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** What the check reads: the text of each file by its path, and the operations the emulator answers. */
interface Tree {
  text(file: string): string | undefined;
  files(folder: string): readonly string[];
  emulated: ReadonlySet<string>;
}

/** The pieces an item operation lacks, as `file: what` lines (none when it has them all). */
function missingFiles(op: string, command: string, tree: Tree): string[] {
  const missing: string[] = [];
  // The command's file: the one whose listing names the command, in items/ as a new one goes (the list's is in list/).
  const names = new RegExp(`^export const listing = \\{\\s*name: '${command}',`, 'm');
  const commandFile =
    tree.files('src/commands').find((f) => names.test(tree.text(f) ?? '')) ?? `src/commands/items/${command}.ts`;
  const text = tree.text(commandFile) ?? '';
  if (!/^export const declaration\b/m.test(text))
    missing.push(`${commandFile}: the command's file, exporting its declaration`);
  if (!names.test(text)) missing.push(`${commandFile}: its listing, naming ${command} for trk --help`);
  if (!tree.emulated.has(op)) missing.push(`packages/sandbox/src/ops/: the emulator's handler of ${op}`);
  // Its test beside it (test-files.test.ts holds every command to that).
  const testFile = testFileOf(commandFile);
  if (tree.text(testFile) === undefined) missing.push(`${testFile}: a test of trk ${command}`);
  if (!tree.files('packages/sandbox/test').some((f) => tree.text(f)?.includes(`'${op}'`)))
    missing.push(`packages/sandbox/test/: a test of the emulator's ${op}`);
  return missing;
}

const REAL: Tree = {
  text: (file) => {
    try {
      return readFileSync(path.join(ROOT, file), 'utf8');
    } catch {
      return undefined;
    }
  },
  files: filesUnder,
  emulated: new Set(Object.keys(EMULATED_OPERATIONS)),
};

describe('the files of an item operation', () => {
  it.each(ITEM_OPERATIONS.map((op) => [op, commandName(op)]))('%s (trk %s) has all five', (op, command) => {
    expect(missingFiles(op, command, REAL)).toEqual([]);
  });

  it('names each file a made-up operation lacks, and none once it has them', () => {
    const snooze = 'snoozetrack';
    expect(missingFiles(snooze, 'snooze', REAL)).toEqual([
      "src/commands/items/snooze.ts: the command's file, exporting its declaration",
      'src/commands/items/snooze.ts: its listing, naming snooze for trk --help',
      "packages/sandbox/src/ops/: the emulator's handler of snoozetrack",
      'test/commands/items/snooze.test.ts: a test of trk snooze',
      "packages/sandbox/test/: a test of the emulator's snoozetrack",
    ]);
    const added: Record<string, string> = {
      'src/commands/items/snooze.ts': [
        "export const listing = { name: 'snooze', summary: 'snooze numbers', section: 'numbers' } satisfies Listing;",
        "export const declaration = itemActionDeclaration('snooze', 'trk snooze N');",
      ].join('\n'),
      'test/commands/items/snooze.test.ts': "await runProgram(['snooze', 'RR123456789CN']);",
      'packages/sandbox/test/snooze.test.ts': "call('snoozetrack', [{ number: 'RR123456789CN' }]);",
    };
    const withSnooze: Tree = {
      text: (file) => added[file] ?? REAL.text(file),
      files: (folder) => [...REAL.files(folder), ...Object.keys(added).filter((f) => f.startsWith(`${folder}/`))],
      emulated: new Set([...REAL.emulated, snooze]),
    };
    expect(missingFiles(snooze, 'snooze', withSnooze)).toEqual([]);
  });
});
