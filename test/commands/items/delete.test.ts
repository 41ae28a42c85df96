// trk delete: its confirmation (the records a terminal is asked about), --ignore-missing, v1's carrier, the
// command line's --yes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runItemAction } from '../../../src/commands/items/actions.js';
import { UsageError } from '../../../src/core/errors.js';
import { acceptAll, createFake, rejecting, type Handler } from '../../fake-context.js';
import { runLine } from '../run-program.js';

/** The account holds these numbers under these carriers (gettracklist); other operations are accepted. */
function holding(records: Record<string, number[]>): Handler {
  return (op, body) => {
    if (op !== 'gettracklist') return acceptAll(op, body);
    const asked = String((body as { number: string }).number).split(',');
    const accepted = asked.flatMap((number) =>
      (records[number] ?? []).map((carrier) => ({ number, carrier, package_status: 'InTransit' })),
    );
    return {
      code: 0,
      data: { accepted, rejected: [] },
      page: { data_total: accepted.length, page_total: 1, page_no: 1, page_size: 40, has_next: false },
    };
  };
}

describe('runItemAction delete', () => {
  it('delete of a number that is not registered is a rejection, unless --ignore-missing', async () => {
    const missing = rejecting(['AAA11111'], -18019902, 'not registered');
    const plain = createFake({ handler: missing, global: { yes: true } });
    expect(await runItemAction('delete', { numbers: ['AAA11111'] }, plain.ctx)).toBe(1);
    const ignoring = createFake({ handler: missing, global: { yes: true } });
    expect(await runItemAction('delete', { numbers: ['AAA11111'], ignoreMissing: true }, ignoring.ctx)).toBe(0);
    expect(ignoring.io.stderrText()).toBe('deleted 0, already deleted 1\n');
  });

  it('delete without a terminal needs --yes and sends nothing without it', async () => {
    const fake = createFake();
    const err = await runItemAction('delete', { numbers: ['AAA11111'] }, fake.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).toLine()).toBe(
      'deleting 1 number needs confirmation: pass --yes to confirm; nothing was sent',
    );
    expect(fake.calls).toHaveLength(0);

    const yes = createFake({ global: { yes: true } });
    expect(await runItemAction('delete', { numbers: ['AAA11111'] }, yes.ctx)).toBe(0);
    expect(yes.calls[0]!.op).toBe('deletetrack');
  });

  it(
    'delete on a terminal looks the numbers up, asks about the records they hold, and a no sends ' + 'nothing',
    async () => {
      const no = createFake({
        tty: true,
        confirms: [false],
        handler: holding({ AAA11111: [3011, 190271], BBB22222: [3011] }),
      });
      await expect(runItemAction('delete', { numbers: ['AAA11111', 'BBB22222', 'CCC33333'] }, no.ctx)).rejects.toThrow(
        'cancelled',
      );
      // A number under two carriers is two records: the question counts records and the records are listed.
      expect(no.prompts).toEqual(['Delete these 3 records of 2 numbers from the account? This cannot be undone.']);
      expect(no.io.stderrText()).toBe(
        '  AAA11111  3011  InTransit\n  AAA11111  190271  InTransit\n  BBB22222  3011  InTransit\n  not ' +
          'registered: CCC33333\n',
      );
      // One lookup (no quota), nothing deleted.
      expect(no.calls.map((c) => [c.op, c.body])).toEqual([
        ['gettracklist', { number: 'AAA11111,BBB22222,CCC33333', page_no: 1 }],
      ]);

      const yes = createFake({ tty: true, confirms: [true], handler: holding({ AAA11111: [3011] }) });
      expect(await runItemAction('delete', { numbers: ['AAA11111'] }, yes.ctx)).toBe(0);
      expect(yes.prompts).toEqual(['Delete this record from the account? This cannot be undone.']);
      expect(yes.sent('deletetrack')).toHaveLength(1);
    },
  );

  it('delete with --carrier counts only the records under that carrier', async () => {
    const fake = createFake({ tty: true, confirms: [false], handler: holding({ AAA11111: [3011, 190271] }) });
    await expect(
      runItemAction('delete', { numbers: ['AAA11111'], fields: { carrier: 190271 } }, fake.ctx),
    ).rejects.toThrow('cancelled');
    expect(fake.prompts).toEqual(['Delete this record from the account? This cannot be undone.']);
    expect(fake.io.stderrText()).toBe('  AAA11111  190271  InTransit\n');
  });

  it('delete of a file asks by numbers and says what a number without a carrier deletes', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'trk-delete-')), 'numbers.txt');
    writeFileSync(file, 'AAA11111\nBBB22222\n');
    const fake = createFake({ tty: true, confirms: [false] });
    await expect(runItemAction('delete', { numbers: [], file }, fake.ctx)).rejects.toThrow('cancelled');
    expect(fake.prompts).toEqual([
      'Delete 2 numbers from the account (a number without a carrier goes under every carrier that holds it)? ' +
        'This cannot be undone.',
    ]);
    expect(fake.calls).toHaveLength(0);
  });

  it('v1 delete without a carrier is refused before asking or sending', async () => {
    const fake = createFake({ version: 'v1', global: { yes: true } });
    await expect(runItemAction('delete', { numbers: ['AAA11111'] }, fake.ctx)).rejects.toThrow(
      /the v1 API needs the carrier to delete a number/,
    );
    expect(fake.calls).toHaveLength(0);
  });

  it('an empty pipe exits 0 without asking', async () => {
    const fake = createFake({ stdin: '' });
    expect(await runItemAction('delete', { numbers: [] }, fake.ctx)).toBe(0);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('trk delete: the command line', () => {
  it('delete --yes after or before the command', async () => {
    expect((await runLine(['delete', 'AAA11111', '--yes'])).calls[0]!.op).toBe('deletetrack');
    expect((await runLine(['--yes', 'delete', 'AAA11111'])).calls[0]!.op).toBe('deletetrack');
    const refused = await runLine(['delete', 'AAA11111']);
    expect(refused.code).toBe(2);
    expect(refused.calls).toHaveLength(0);
  });
});
