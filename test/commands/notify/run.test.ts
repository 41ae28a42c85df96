// trk notify run: what each rule matched since it was added, sent once (the whole story, with mail, chats and
// crashes, is test/commands/notify/notify.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trk } from '../../e2e/helpers.js';
import { syncedMirror } from '../mirror/synced-mirror.js';

const mirror = syncedMirror();
const notify = (...args: string[]) => trk(['notify', ...args], { env: mirror.env });
const EVERY_MOVE = 'InTransit,OutForDelivery,AvailableForPickup,Delivered,Exception,DeliveryFailure,Expired';

describe('trk notify run', () => {
  it('sends nothing of the past; after a sync, each change once; --dry-run prints and records nothing', async () => {
    const file = path.join(String(mirror.env.HOME), 'moves.txt');
    expect((await notify('add', 'script', '--when', EVERY_MOVE, '--to', `exec:cat >> '${file}'`)).code).toBe(0);
    // The changes the mirror recorded before the rule are the past.
    expect((await notify('run')).code).toBe(0);
    expect(existsSync(file)).toBe(false);

    expect(await mirror.later(3)).toBeGreaterThan(0);
    const dry = await notify('run', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).not.toBe('');
    expect(existsSync(file)).toBe(false);

    const run = await notify('run');
    expect(run.code, run.stderr).toBe(0);
    const sent = readFileSync(file, 'utf8');
    expect(sent).not.toBe('');
    const [rule] = JSON.parse((await notify('list', '--json')).stdout) as { sent: number }[];
    expect(rule!.sent).toBeGreaterThan(0);
    expect((await notify('run')).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(sent);
  });

  it('refuses a rule that is not there and a bad pace, exit 2', async () => {
    expect((await notify('run', '--rule', 'nope')).stderr).toMatch(/there is no rule "nope"/);
    const pace = await notify('run', '--pace', '-1');
    expect(pace.code).toBe(2);
    expect(pace.stderr).toMatch(/--pace must be a number of messages a second/);
  });
});
