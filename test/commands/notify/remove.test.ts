// trk notify remove: a rule taken out of the mirror; a name that is no rule refused.
import { describe, expect, it } from 'vitest';
import { trk } from '../../e2e/helpers.js';
import { syncedMirror } from '../mirror/synced-mirror.js';

const mirror = syncedMirror();
const notify = (...args: string[]) => trk(['notify', ...args], { env: mirror.env });
const names = async () =>
  (JSON.parse((await notify('list', '--json')).stdout) as { name: string }[]).map((r) => r.name);

describe('trk notify remove', () => {
  it('removes the rule named and no other; removing it again is exit 2 naming it', async () => {
    await notify('add', 'a', '--when', 'Delivered', '--to', 'https://chat.example/a');
    await notify('add', 'b', '--when', 'Delivered', '--to', 'https://chat.example/b');
    const removed = await notify('remove', 'a');
    expect(removed.code, removed.stderr).toBe(0);
    expect(await names()).toEqual(['b']);
    const again = await notify('remove', 'a');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/there is no rule "a"/);
    expect(await names()).toEqual(['b']);
  });
});
