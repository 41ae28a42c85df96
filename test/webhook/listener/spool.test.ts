import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool } from '../../../src/webhook/listener/spool.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function root(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'trk-spool-'));
  dirs.push(d);
  return path.join(d, 'queue');
}

describe('Spool', () => {
  it('keeps each notification as a saved pair in a folder of its own, made with the first', async () => {
    const spool = new Spool(await root(), { maxCount: 10, maxBytes: 1000 }, () => {});
    expect(spool.dir).toBeUndefined();
    const entry = await spool.put(
      '20250301T120000.250Z-TRACKING_STOPPED-RR1',
      Buffer.from('{"a":1}'),
      'POST /hook HTTP/1.1\nsign: x\n',
    );
    expect(entry).toMatchObject({ bytes: 7 + 28 });
    expect((await stat(spool.dir!)).isDirectory()).toBe(true);
    expect((await readdir(spool.dir!)).sort()).toEqual([
      '20250301T120000.250Z-TRACKING_STOPPED-RR1.headers',
      '20250301T120000.250Z-TRACKING_STOPPED-RR1.json',
    ]);
    expect(await readFile((entry as { file: string }).file, 'utf8')).toBe('{"a":1}');
    expect(spool.size).toBe(1);
  });

  it('refuses past its count or its bytes, and has room again once one is removed', async () => {
    const spool = new Spool(await root(), { maxCount: 2, maxBytes: 100 }, () => {});
    const a = await spool.put('a', Buffer.alloc(40), 'h');
    expect(await spool.put('big', Buffer.alloc(60), 'h')).toBe('full'); // 41 + 61 > 100
    const b = await spool.put('b', Buffer.alloc(10), 'h');
    expect(await spool.put('c', Buffer.alloc(1), 'h')).toBe('full'); // a third
    await spool.remove(a as Exclude<typeof a, 'full'>);
    expect(await spool.put('c', Buffer.alloc(1), 'h')).not.toBe('full');
    expect(spool.size).toBe(2);
    expect(b).not.toBe('full');
  });

  it('notifications arriving together keep to the bound', async () => {
    const spool = new Spool(await root(), { maxCount: 3, maxBytes: 10_000 }, () => {});
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => spool.put(`n${i}`, Buffer.from('{}'), 'h')));
    expect(all.filter((e) => e === 'full')).toHaveLength(7);
    expect(await readdir(spool.dir!)).toHaveLength(6);
  });

  it('removes its folder at the stop when nothing is left in it, and keeps it otherwise', async () => {
    const r = await root();
    const empty = new Spool(r, { maxCount: 10, maxBytes: 1000 }, () => {});
    const e = await empty.put('x', Buffer.from('{}'), 'h');
    await empty.remove(e as Exclude<typeof e, 'full'>);
    await empty.close();
    const kept = new Spool(r, { maxCount: 10, maxBytes: 1000 }, () => {});
    await kept.put('y', Buffer.from('{}'), 'h');
    await kept.close();
    expect(await readdir(r)).toEqual([path.basename(kept.dir!)]);
  });

  it('a disk that refuses is an error, and what it did not keep is not counted', async () => {
    const file = path.join(path.dirname(await root()), 'a-file');
    await (await import('node:fs/promises')).writeFile(file, '');
    const spool = new Spool(file, { maxCount: 1, maxBytes: 1000 }, () => {});
    await expect(spool.put('x', Buffer.from('{}'), 'h')).rejects.toThrow();
    expect(spool.size).toBe(0);
  });
});
