// trk notify list: the rules the mirror keeps, what each matches, whom it tells, and its ledger's counts.
import { describe, expect, it } from 'vitest';
import { parseCsv, trk } from '../../e2e/helpers.js';
import { syncedMirror } from '../mirror/synced-mirror.js';

const mirror = syncedMirror();
const notify = (...args: string[]) => trk(['notify', ...args], { env: mirror.env });

describe('trk notify list', () => {
  it('lists no rule as an empty list, then each rule by name with its target and counts', async () => {
    expect((await notify('list', '--json')).stdout.trim()).toBe('[]');
    expect(
      (await notify('add', 'team', '--when', 'Exception', '--to', 'mailto:ops@example.com', '--digest')).code,
    ).toBe(0);
    expect((await notify('add', 'chat', '--when', 'Delivered', '--to', 'https://chat.example/hook')).code).toBe(0);
    const rules = JSON.parse((await notify('list', '--json')).stdout) as Record<string, unknown>[];
    // A chat webhook's path is its secret: the list names its host alone.
    expect(rules.map((r) => [r.name, r.to, r.digest, r.sent, r.failed])).toEqual([
      ['chat', 'https://chat.example/…', false, 0, 0],
      ['team', 'mailto:ops@example.com', true, 0, 0],
    ]);
    expect(String(rules[1]!.matches)).toContain('Exception');
    const csv = parseCsv((await notify('list', '--csv')).stdout);
    expect(csv.map((r) => r.name)).toEqual(['chat', 'team']);
  });
});
