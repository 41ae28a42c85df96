// trk runs forget: remembered runs forgotten by id (a prefix is enough) or all of them; ids that name no run refused.
import { describe, expect, it } from 'vitest';
import { trk } from '../../e2e/helpers.js';
import { rememberedRuns } from './remembered-runs.js';

const runs = rememberedRuns();
const forget = (...args: string[]) => trk(['runs', 'forget', ...args], { env: runs.env });

describe('trk runs forget', () => {
  it('forgets the run a prefix of its id names and no other, then the rest with --all', async () => {
    await runs.register('a.txt', 2, 'FA');
    await runs.register('b.txt', 2, 'FB');
    await runs.register('c.txt', 2, 'FC');
    const [newest, ...older] = await runs.list();
    const r = await forget(newest!.id.slice(0, 8));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('forgot 1 run');
    expect((await runs.list()).map((x) => x.id)).toEqual(older.map((x) => x.id));
    const all = await forget('--all');
    expect(all.stderr).toContain('forgot 2 runs');
    expect(await runs.list()).toEqual([]);
  });

  it('refuses an id that names no run, ids with --all, and nothing given, exit 2', async () => {
    for (const [args, message] of [
      [['abc'], /no run abc: see "trk runs" for the ids/],
      [['abc', '--all'], /give run ids or --all, not both/],
      [[], /no run given/],
    ] as const) {
      const r = await forget(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});
