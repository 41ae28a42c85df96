// What makes a message one: a customer's claim is the parcel and status whatever the rule (at most one message per
// parcel and status), the team's is the rule, change and target; the Message-ID follows the claims; back-offs double.

import { expect, it } from 'vitest';
import { backoff, claimOf, MAX_BACKOFF_MS, messageIdOf } from '../../../src/mirror/notify/ledger.js';
import { parseTarget } from '../../../src/mirror/notify/rules.js';
import { sampleMatch } from '../../../src/mirror/notify/sample.js';

const m = sampleMatch('Delivered', 'Ann@Example.com', Date.parse('2026-06-10T00:00:00Z'));
const rule = (id: number, to: string, digest = false) => ({ id, to, target: parseTarget(to), digest });

it('claims one message per customer, parcel and status, and one per rule, change and target for the team', () => {
  expect(claimOf(rule(1, 'customer'), m, 'ann@example.com')).toBe(claimOf(rule(2, 'customer'), m, 'Ann@Example.com'));
  const other = { ...m, change: { ...m.change, to_status: 'OutForDelivery' } };
  expect(claimOf(rule(1, 'customer'), other, 'ann@example.com')).not.toBe(
    claimOf(rule(1, 'customer'), m, 'ann@example.com'),
  );
  const team = claimOf(rule(1, 'mailto:ops@example.com'), m);
  expect(team).not.toBe(claimOf(rule(2, 'mailto:ops@example.com'), m));
  expect(team).not.toBe(claimOf(rule(1, 'mailto:ops@example.com', true), m));
});

it("makes the Message-ID from the rule and the claims, in the sender's domain", () => {
  const id = messageIdOf('r', ['a', 'b'], 'Shop <shop@example.com>');
  expect(id).toMatch(/^<[0-9a-f]{40}@example\.com>$/);
  expect(messageIdOf('r', ['a', 'b'], 'shop@example.com')).toBe(id);
  expect(messageIdOf('r', ['a', 'c'], 'shop@example.com')).not.toBe(id);
  expect(messageIdOf('s', ['a', 'b'], 'shop@example.com')).not.toBe(id);
});

it('waits a minute after a first failure, doubling, at most a day', () => {
  expect([1, 2, 3, 4].map(backoff)).toEqual([60_000, 120_000, 240_000, 480_000]);
  expect(backoff(30)).toBe(MAX_BACKOFF_MS);
});
