// The lists of modules the build writes (scripts/write-lists.mjs): the operations' modules, the emulator's rows and
// the commands of `trk --help`, each read from its folder, so that a new operation or command is its files alone.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { lists } from '../scripts/write-lists.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tree of the three folders holding `files` (path from the root: text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'trk-lists-'));
  made.push(root);
  for (const folder of ['packages/service/src/operations', 'packages/sandbox/src/ops', 'src/commands/items']) {
    mkdirSync(path.join(root, folder), { recursive: true });
  }
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, file), text);
  return root;
}

const SNOOZE = {
  'packages/service/src/operations/snooze-track.ts': [
    "import type { ItemOperationSpec } from './operation.js';",
    'export const snoozeTrack = {',
    "  name: 'snoozetrack',",
    "} as const satisfies ItemOperationSpec<'snoozetrack', readonly NumberCarrierItem[]>;",
  ].join('\n'),
  'packages/service/src/operations/shapes.ts': 'export const quotaFields = {};',
  'packages/sandbox/src/ops/snooze.ts': [
    'export const snoozeOperation: EmulatedOperation = {',
    "  operation: 'snoozetrack',",
    '};',
    'export const wakeOperation: EmulatedOperation = {',
    '};',
  ].join('\n'),
  'src/commands/items/snooze.ts': [
    'export const listing = {',
    "  name: 'snooze',",
    '  summary: "put numbers\' tracking to sleep",',
    "  section: 'numbers',",
    '} satisfies Listing;',
    "export const declaration = itemActionDeclaration('snooze', 'trk snooze N');",
  ].join('\n'),
  'src/commands/items/engine-flags.ts': 'export const itemActionDeclaration = () => {};',
};

describe('the lists of modules the build writes', () => {
  it('are those of the tree as it is (the build wrote them)', () => {
    for (const [file, text] of Object.entries(lists())) {
      expect(readFileSync(path.join(ROOT, file), 'utf8'), file).toBe(text);
    }
  });

  it('take in a new operation, its handler and its command from their files alone', () => {
    const written = lists(tree(SNOOZE));
    const modules = written['packages/service/src/operations/modules.ts']!;
    expect(modules).toContain("import { snoozeTrack } from './snooze-track.js';");
    expect(modules).toMatch(/OPERATION_MODULES = \[\n {2}snoozeTrack,\n\] as const;/);
    expect(modules).not.toContain('quotaFields');
    const rows = written['packages/sandbox/src/ops/rows.ts']!;
    expect(rows).toContain("import { snoozeOperation, wakeOperation } from './snooze.js';");
    expect(rows).toMatch(
      /EMULATED_ROWS: readonly EmulatedOperation\[\] = \[\n {2}snoozeOperation,\n {2}wakeOperation,\n\];/,
    );
    const listed = written['src/commands/listed.ts']!;
    expect(listed).toContain(
      [
        '  {',
        "    name: 'snooze',",
        "    summary: 'put numbers\\' tracking to sleep',",
        "    section: 'numbers',",
        "    declaration: () => import('./items/snooze.js'),",
        '  },',
      ].join('\n'),
    );
    expect(listed).not.toContain('engine-flags');
  });

  it('refuse a listing that is not a literal, naming its file', () => {
    const root = tree({
      'src/commands/items/snooze.ts': "export const listing = { name: SNOOZE, summary: '' } satisfies Listing;",
    });
    expect(() => lists(root)).toThrow('src/commands/items/snooze.ts: its listing must be a literal');
  });
});
