import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  readStateFile,
  removeStateFile,
  type SandboxStateFile,
  StateFileError,
  StateSaver,
  writeStateFile,
} from '../src/state-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trk-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const clock = { time: Date.UTC(2026, 5, 1), savedAt: Date.now(), speed: 1 };

function state(account: unknown): SandboxStateFile {
  return { version: 1, clock, settings: { quotaTotal: 5 }, account };
}

describe('state file', () => {
  it('is undefined when missing and round-trips what was written', async () => {
    const path = join(dir, 'deep', 'er', 'sandbox.json');
    expect(await readStateFile(path)).toBeUndefined();
    await writeStateFile(path, state({ records: [1, 2] }));
    expect(await readStateFile(path)).toEqual(state({ records: [1, 2] }));
    // No temporary file is left beside it.
    expect(await readdir(join(dir, 'deep', 'er'))).toEqual(['sandbox.json']);
  });

  it('refuses a corrupt file, another version or a missing clock, pointing at reset', async () => {
    const path = join(dir, 'sandbox.json');
    await writeFile(path, '{"version":1,');
    await expect(readStateFile(path)).rejects.toThrow(StateFileError);
    await expect(readStateFile(path)).rejects.toThrow(/not valid JSON/);
    await writeFile(path, JSON.stringify({ ...state({}), version: 2 }));
    await expect(readStateFile(path)).rejects.toThrow(/version 2/);
    await writeFile(path, JSON.stringify({ version: 1, account: {} }));
    const err = await readStateFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StateFileError);
    expect((err as StateFileError).toLine()).toMatch(/clock.*trk sandbox reset/);
  });

  it('copes with 100,000 records', async () => {
    const path = join(dir, 'sandbox.json');
    const records = Array.from({ length: 100_000 }, (_, i) => ({
      id: i,
      number: `RR${String(i).padStart(9, '0')}CN`,
      carrier: 3011,
      tag: null,
      status: 'InTransit',
      registerMs: 1_780_000_000_000 + i,
    }));
    await writeStateFile(path, state({ records }));
    const back = await readStateFile(path);
    const kept = (back?.account as { records: { number: string }[] } | undefined)?.records;
    expect(kept).toHaveLength(100_000);
    expect(kept?.[99_999]?.number).toBe('RR000099999CN');
  });

  it('removes the file, saying whether there was one', async () => {
    const path = join(dir, 'sandbox.json');
    await writeStateFile(path, state({}));
    expect(await removeStateFile(path)).toBe(true);
    expect(await removeStateFile(path)).toBe(false);
    expect(await readStateFile(path)).toBeUndefined();
  });
});

describe('StateSaver', () => {
  it('saves once for a run of changes, then again after later changes; close always writes', async () => {
    const path = join(dir, 'sandbox.json');
    let n = 0;
    let snapshots = 0;
    const saver = new StateSaver({
      path,
      minIntervalMs: 20,
      snapshot: () => {
        snapshots += 1;
        return state({ n });
      },
    });
    for (n = 1; n <= 50; n++) saver.changed();
    await saver.flush();
    expect(snapshots).toBe(1);
    expect((await readStateFile(path))?.account).toEqual({ n: 51 });

    n = 100;
    saver.changed();
    // The interval grows with the time a save takes (fsync on a busy disk), so wait for it rather than sleep.
    await vi.waitFor(async () => expect((await readStateFile(path))?.account).toEqual({ n: 100 }), {
      timeout: 5000,
      interval: 10,
    });
    expect(snapshots).toBe(2);

    n = 200;
    await saver.close();
    expect(snapshots).toBe(3);
    expect((await readStateFile(path))?.account).toEqual({ n: 200 });
    saver.changed(); // ignored after close: nothing left for a flush to write
    await saver.flush();
    expect(snapshots).toBe(3);
  });

  it('reports a failed background save and throws from flush', async () => {
    // A directory where the file should be: rename fails.
    const path = join(dir, 'taken');
    await writeStateFile(join(path, 'x.json'), state({}));
    const errors: unknown[] = [];
    const saver = new StateSaver({ path, minIntervalMs: 1, snapshot: () => state({}), onError: (e) => errors.push(e) });
    saver.changed();
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(1), { timeout: 5000, interval: 5 });
    await expect(saver.flush()).rejects.toThrow();
    // The failed write left no temporary file behind.
    expect((await readdir(dir)).sort()).toEqual(['taken']);
    expect(await readFile(join(path, 'x.json'), 'utf8')).toContain('"version":1');
  });
});
