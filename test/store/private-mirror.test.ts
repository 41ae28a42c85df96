// The mirror in a SQLite file holds customers' data: it, its -wal and its -shm are 0600 whether trk makes them or
// finds them (a mirror copied with cp), whatever the umask (set to 0 here: anything not set exactly is open to all).
import { chmodSync, copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modeOf, underOpenUmask } from '../open-umask.js';
import { SqliteStore } from '../../src/store/sqlite.js';

underOpenUmask();

async function written(file: string, warn: (line: string) => void = () => {}): Promise<SqliteStore> {
  const store = await SqliteStore.open(file, { warn });
  await store.setState({ account: 'sandbox' });
  return store;
}

describe.skipIf(process.platform === 'win32')('the mirror file', () => {
  it('is made 0600, its -wal and -shm too', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'trk-mirror-')), 'm.db');
    const store = await written(file);
    try {
      expect([file, `${file}-wal`, `${file}-shm`].map(modeOf)).toEqual([0o600, 0o600, 0o600]);
    } finally {
      await store.close();
    }
  });

  it('copied with mode 0644, with a -wal of 0644 beside it, is set to 0600 with one warning each', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-mirror-'));
    const original = path.join(dir, 'original.db');
    await (await written(original)).close();
    const file = path.join(dir, 'copy.db');
    copyFileSync(original, file);
    chmodSync(file, 0o644);
    // A writer killed before its checkpoint leaves its -wal behind; an empty one is a valid log.
    writeFileSync(`${file}-wal`, '', { mode: 0o644 });
    const lines: string[] = [];
    const store = await written(file, (line) => lines.push(line));
    try {
      expect([file, `${file}-wal`, `${file}-shm`].map(modeOf)).toEqual([0o600, 0o600, 0o600]);
      expect(lines).toEqual([
        `warning: the mirror file ${file} could be read by others (mode 0644), and it holds customers' data: ` +
          'set to 0600',
        `warning: the mirror file ${file}-wal could be read by others (mode 0644), and it holds customers' ` +
          'data: set to 0600',
      ]);
      expect(await store.state('account')).toBe('sandbox');
    } finally {
      await store.close();
    }
    lines.length = 0;
    await (await written(file, (line) => lines.push(line))).close();
    expect(lines).toEqual([]);
  });
});
