// Files of customers' data are 0600 in 0700 folders, whether trk makes them or finds them; a folder the user named
// is left as it is. Modes are checked under a umask of 0, which would leave anything not set exactly open to all.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modeOf, underOpenUmask } from '../open-umask.js';
import { ensureFolder, keepPrivate, ownFolder } from '../../src/core/private-files.js';

underOpenUmask();

function collect(): { warn: (line: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { warn: (line) => lines.push(line), lines };
}

describe.skipIf(process.platform === 'win32')('private files', () => {
  it('a file others can read is set to 0600 with one warning naming it and both modes; then nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-private-'));
    const file = path.join(dir, 'm.db');
    writeFileSync(file, 'x', { mode: 0o644 });
    const { warn, lines } = collect();
    keepPrivate(file, 'mirror file', warn);
    expect(modeOf(file)).toBe(0o600);
    expect(lines).toEqual([
      `warning: the mirror file ${file} could be read by others (mode 0644), and it holds customers' data: set to 0600`,
    ]);
    keepPrivate(file, 'mirror file', warn);
    keepPrivate(path.join(dir, 'missing'), 'mirror file', warn);
    expect(lines).toHaveLength(1);
    chmodSync(file, 0o400);
    keepPrivate(file, 'mirror file', warn);
    expect(modeOf(file)).toBe(0o400);
  });

  it("trk's own folder is made 0700, its missing parents too; one found open is set to 0700 with a warning", () => {
    const base = mkdtempSync(path.join(tmpdir(), 'trk-private-'));
    const { warn, lines } = collect();
    const made = path.join(base, 'state', 'rejects');
    ownFolder(made, 'rejects folder', warn);
    expect([modeOf(made), modeOf(path.dirname(made))]).toEqual([0o700, 0o700]);
    expect(lines).toEqual([]);
    const found = path.join(base, 'queue');
    mkdirSync(found, { mode: 0o755 });
    ownFolder(found, 'forward queue folder', warn);
    expect(modeOf(found)).toBe(0o700);
    expect(lines).toEqual([
      `warning: the forward queue folder ${found} could be read by others (mode 0755), and it holds customers' ` +
        'data: set to 0700',
    ]);
  });

  it("a folder that may be the user's is made 0700 when missing, and left as it is when there", () => {
    const base = mkdtempSync(path.join(tmpdir(), 'trk-private-'));
    const made = path.join(base, 'a', 'b');
    ensureFolder(made);
    expect([modeOf(made), modeOf(path.dirname(made))]).toEqual([0o700, 0o700]);
    const desktop = path.join(base, 'Desktop');
    mkdirSync(desktop, { mode: 0o755 });
    ensureFolder(desktop);
    expect(modeOf(desktop)).toBe(0o755);
  });
});
