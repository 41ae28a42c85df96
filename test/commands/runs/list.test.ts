// trk runs list: the runs of files trk remembers, newest first, with their input and how far they got.
import { describe, expect, it } from 'vitest';
import { parseCsv, trk } from '../../e2e/helpers.js';
import { rememberedRuns } from './remembered-runs.js';

const runs = rememberedRuns();

describe('trk runs list', () => {
  it('says none is remembered, then lists each run of a file, newest first, finished with its count', async () => {
    const none = await trk(['runs', 'list', '--json'], { env: runs.env });
    expect(none.stdout.trim()).toBe('[]');
    expect(none.stderr).toContain('no runs remembered');
    await runs.register('first.txt', 3, 'RA');
    await runs.register('second.txt', 5, 'RB');
    const listed = await runs.list();
    expect(listed.map((r) => [r.command, r.input.split('/').at(-1), r.done])).toEqual([
      ['register', 'second.txt', 5],
      ['register', 'first.txt', 3],
    ]);
    expect(new Set(listed.map((r) => r.id)).size).toBe(2);
    const csv = parseCsv((await trk(['runs', 'list', '--csv', '--columns', 'id,command'], { env: runs.env })).stdout);
    expect(csv.map((r) => r.id)).toEqual(listed.map((r) => r.id));
  });
});
