// trk notify test: one sample message of a rule sent to its target now, nothing written to the ledger.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trk } from '../../e2e/helpers.js';
import { syncedMirror } from '../mirror/synced-mirror.js';

const mirror = syncedMirror();
const notify = (...args: string[]) => trk(['notify', ...args], { env: mirror.env });

describe('trk notify test', () => {
  it("sends one message about a made-up parcel to the rule's target, and records nothing", async () => {
    const file = path.join(String(mirror.env.HOME), 'sample.txt');
    expect((await notify('add', 'script', '--when', 'Exception', '--to', `exec:cat >> '${file}'`)).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    const r = await notify('test', 'script');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/Exception/);
    const [rule] = JSON.parse((await notify('list', '--json')).stdout) as { sent: number }[];
    expect(rule!.sent).toBe(0);
  });

  it('tests a rule to customers on you alone: refused without --to, exit 2', async () => {
    expect((await notify('add', 'customers', '--when', 'Delivered', '--to', 'customer')).code).toBe(0);
    const r = await notify('test', 'customers');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/rule customers writes to customers: a test goes to you.*--to mailto:/);
    expect((await notify('test', 'nope')).stderr).toMatch(/there is no rule "nope"/);
  });
});
