import { describe, expect, it } from 'vitest';
import { runItemAction } from '../../src/commands/item-action.js';
import { UsageError } from '../../src/errors.js';
import { createFake, rejecting } from './fake-context.js';

describe('runItemAction', () => {
  it.each([
    ['stop', 'stoptrack'],
    ['retrack', 'retrack'],
    ['push', 'push'],
  ] as const)('%s calls %s with the carrier when given', async (action, op) => {
    const fake = createFake();
    const code = await runItemAction(action, { numbers: ['AAA11111', 'BBB22222'], carrier: 3011 }, fake.ctx);
    expect(code).toBe(0);
    expect(fake.calls).toEqual([
      { op, body: [{ number: 'AAA11111', carrier: 3011 }, { number: 'BBB22222', carrier: 3011 }], opts: undefined },
    ]);
  });

  it('prints tab-separated rows without header when piped', async () => {
    const fake = createFake({ handler: rejecting(['BBB22222'], -18019906, 'not tracked') });
    const code = await runItemAction('stop', { numbers: ['AAA11111', 'BBB22222'] }, fake.ctx);
    expect(code).toBe(3);
    const lines = fake.io.stdoutText().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toContain('accepted');
    expect(lines[1]!.split('\t')).toEqual(expect.arrayContaining(['BBB22222', 'rejected', '-18019906', 'not tracked']));
  });

  it('--dry-run, --restart and --rejects without -f are refused, not ignored: nothing is sent', async () => {
    const cases = [
      [{ dryRun: true }, '--dry-run works with -f FILE only'],
      [{ restart: true }, '--restart works with -f FILE only'],
      [{ dryRun: true, rejects: 'r.csv' }, '--dry-run, --rejects work with -f FILE only'],
    ] as const;
    for (const [flags, message] of cases) {
      const fake = createFake({ global: { yes: true } });
      const err = await runItemAction('delete', { numbers: ['AAA11111'], ...flags }, fake.ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).toLine()).toBe(`${message}: put the numbers in a file, or pipe them in with -f -; nothing was sent`);
      expect(fake.calls).toHaveLength(0);
    }
  });

  it('delete without a terminal needs --yes and sends nothing without it', async () => {
    const fake = createFake();
    const err = await runItemAction('delete', { numbers: ['AAA11111'] }, fake.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).toLine()).toBe('deleting 1 number needs confirmation: pass --yes to confirm; nothing was sent');
    expect(fake.calls).toHaveLength(0);

    const yes = createFake({ global: { yes: true } });
    expect(await runItemAction('delete', { numbers: ['AAA11111'] }, yes.ctx)).toBe(0);
    expect(yes.calls[0]!.op).toBe('deletetrack');
  });

  it('delete on a terminal asks, and a no sends nothing', async () => {
    const no = createFake({ tty: true, confirms: [false] });
    await expect(runItemAction('delete', { numbers: ['AAA11111', 'BBB22222'] }, no.ctx)).rejects.toThrow('cancelled');
    expect(no.prompts).toEqual(['Delete 2 numbers from the account? This cannot be undone.']);
    expect(no.calls).toHaveLength(0);

    const yes = createFake({ tty: true, confirms: [true] });
    expect(await runItemAction('delete', { numbers: ['AAA11111'] }, yes.ctx)).toBe(0);
    expect(yes.calls).toHaveLength(1);
  });

  it('v1 delete without a carrier is refused before asking or sending', async () => {
    const fake = createFake({ version: 'v1', global: { yes: true } });
    await expect(runItemAction('delete', { numbers: ['AAA11111'] }, fake.ctx)).rejects.toThrow(/needs the carrier/);
    expect(fake.calls).toHaveLength(0);
  });

  it('an empty list exits 0 without asking', async () => {
    const fake = createFake({ stdin: '' });
    expect(await runItemAction('delete', { numbers: [] }, fake.ctx)).toBe(0);
    expect(fake.calls).toHaveLength(0);
  });
});
