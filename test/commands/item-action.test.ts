import { describe, expect, it } from 'vitest';
import { runItemAction } from '../../src/commands/items/actions.js';
import { UsageError } from '../../src/errors.js';
import { createFake, rejecting } from './fake-context.js';

describe('runItemAction', () => {
  it.each([
    ['stop', 'stoptrack'],
    ['retrack', 'retrack'],
    ['push', 'push'],
  ] as const)('%s sends %s with the carrier when given, through the item engine', async (action, op) => {
    const fake = createFake();
    const code = await runItemAction(action, { numbers: ['AAA11111', 'BBB22222'], carrier: 3011 }, fake.ctx);
    expect(code).toBe(0);
    expect(fake.calls.map((c) => [c.op, c.body])).toEqual([[op, [{ number: 'AAA11111', carrier: 3011 }, { number: 'BBB22222', carrier: 3011 }]]]);
    // The engine sends with the client's retries off and decides itself what to send again.
    expect(fake.calls[0]?.opts).toEqual({ retry: false });
  });

  it('prints tab-separated rows without header when piped, and exits 3 when some were rejected', async () => {
    const fake = createFake({ handler: rejecting(['BBB22222'], -18019909, 'no tracking information yet') });
    const code = await runItemAction('push', { numbers: ['AAA11111', 'BBB22222'] }, fake.ctx);
    expect(code).toBe(3);
    const lines = fake.io.stdoutText().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toContain('accepted');
    expect(lines[1]!.split('\t')).toEqual(expect.arrayContaining(['BBB22222', 'rejected', '-18019909', 'no tracking information yet']));
    expect(fake.io.stderrText()).toBe('queued for push 1, rejected 1\n');
  });

  it('stop on a number already stopped is done, not a rejection (exit 0)', async () => {
    const fake = createFake({ handler: rejecting(['BBB22222'], -18019906, 'only numbers being tracked can be stopped') });
    expect(await runItemAction('stop', { numbers: ['AAA11111', 'BBB22222'] }, fake.ctx)).toBe(0);
    expect(fake.io.stderrText()).toBe('stopped 1, already stopped 1\n');
  });

  it('exits 1 when no item was done at all', async () => {
    const fake = createFake({ handler: rejecting(['AAA11111'], -18019909, 'no tracking information yet') });
    expect(await runItemAction('push', { numbers: ['AAA11111'] }, fake.ctx)).toBe(1);
  });

  it('delete of a number that is not registered is a rejection, unless --ignore-missing', async () => {
    const missing = rejecting(['AAA11111'], -18019902, 'not registered');
    const plain = createFake({ handler: missing, global: { yes: true } });
    expect(await runItemAction('delete', { numbers: ['AAA11111'] }, plain.ctx)).toBe(1);
    const ignoring = createFake({ handler: missing, global: { yes: true } });
    expect(await runItemAction('delete', { numbers: ['AAA11111'], ignoreMissing: true }, ignoring.ctx)).toBe(0);
    expect(ignoring.io.stderrText()).toBe('deleted 0, already deleted 1\n');
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

  it('--dry-run works with arguments too, and sends nothing', async () => {
    const fake = createFake({ global: { yes: true } });
    expect(await runItemAction('stop', { numbers: ['AAA11111', 'BBB22222'], dryRun: true }, fake.ctx)).toBe(0);
    expect(fake.calls).toHaveLength(0);
    expect(fake.io.stderrText()).toContain('dry run: stop the arguments (API v2)');
    expect(fake.io.stderrText()).toContain('2 items in 1 request of up to 40');
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
    await expect(runItemAction('delete', { numbers: ['AAA11111'] }, fake.ctx)).rejects.toThrow(/the v1 API needs the carrier to delete a number/);
    expect(fake.calls).toHaveLength(0);
  });

  it('an empty pipe exits 0 without asking', async () => {
    const fake = createFake({ stdin: '' });
    expect(await runItemAction('delete', { numbers: [] }, fake.ctx)).toBe(0);
    expect(fake.calls).toHaveLength(0);
  });
});
