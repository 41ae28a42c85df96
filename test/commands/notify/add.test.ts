// trk notify add: a rule kept in the mirror, checked whole before it is kept.
import { describe, expect, it } from 'vitest';
import { trk } from '../../e2e/helpers.js';
import { syncedMirror } from '../mirror/synced-mirror.js';

const mirror = syncedMirror();
const notify = (...args: string[]) => trk(['notify', ...args], { env: mirror.env });
const names = async () =>
  (JSON.parse((await notify('list', '--json')).stdout) as { name: string }[]).map((r) => r.name);

describe('trk notify add', () => {
  it('keeps a rule that covers changes from now on; a second rule of that name is refused', async () => {
    const add = await notify('add', 'team', '--when', 'Exception,DeliveryFailure', '--to', 'mailto:ops@example.com');
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toContain('rule team added: it covers changes from now on');
    // No mail settings here: the rule is kept, with a note of what its first run needs.
    expect(add.stderr).toContain('set smtp-url and smtp-from before the first run');
    expect(await names()).toEqual(['team']);
    const again = await notify('add', 'team', '--when', 'Delivered', '--to', 'mailto:ops@example.com');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/there is a rule team already.*trk notify remove team/);
  });

  it('refuses a rule that matches nothing or cannot be sent, exit 2, and keeps none of them', async () => {
    const nothing = await notify('add', 'none', '--to', 'customer');
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toMatch(/the rule matches nothing.*--when STATUS/s);
    const ftp = await notify('add', 'ftp', '--when', 'Delivered', '--to', 'ftp://x');
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toMatch(/--to "ftp:\/\/x" is no target/);
    expect(await names()).not.toContain('none');
    expect(await names()).not.toContain('ftp');
  });
});
