// What every item command given numbers as arguments does through the engine (stop, retrack, push and delete
// alike); each command's own cases are in its file (test/commands/items/<command>.test.ts).
import { describe, expect, it } from 'vitest';
import { runItemAction } from '../../src/commands/items/actions.js';
import { UsageError } from '../../src/core/errors.js';
import { createFake, rejecting } from '../fake-context.js';

describe('runItemAction', () => {
  it.each([
    ['stop', 'stoptrack'],
    ['retrack', 'retrack'],
    ['push', 'push'],
  ] as const)('%s sends %s with the carrier when given, through the item engine', async (action, op) => {
    const fake = createFake();
    const code = await runItemAction(
      action,
      { numbers: ['AAA11111', 'BBB22222'], fields: { carrier: 3011 } },
      fake.ctx,
    );
    expect(code).toBe(0);
    expect(fake.calls.map((c) => [c.op, c.body])).toEqual([
      [
        op,
        [
          { number: 'AAA11111', carrier: 3011 },
          { number: 'BBB22222', carrier: 3011 },
        ],
      ],
    ]);
    // The engine sends with the client's retries off and decides itself what to send again.
    expect(fake.calls[0]?.opts).toEqual({ retry: false });
  });

  it('exits 1 when no item was done at all', async () => {
    const fake = createFake({ handler: rejecting(['AAA11111'], -18019909, 'no tracking information yet') });
    expect(await runItemAction('push', { numbers: ['AAA11111'] }, fake.ctx)).toBe(1);
  });

  it('--restart and --again are about remembered runs of files and pipes: refused with arguments', async () => {
    for (const flags of [{ restart: true }, { again: true }]) {
      const fake = createFake({ global: { yes: true } });
      const err = await runItemAction('delete', { numbers: ['AAA11111'], ...flags }, fake.ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).hint).toContain('put the numbers in a file');
      expect(fake.calls).toHaveLength(0);
    }
  });
});
