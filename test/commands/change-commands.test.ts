// change-carrier, update and api: the remaining commands that send items.
import { describe, expect, it } from 'vitest';
import { findOperation, parseData, runApi } from '../../src/commands/api/api.js';
import { runChangeCarrier } from '../../src/commands/items/change-carrier.js';
import { runUpdate } from '../../src/commands/items/update.js';
import { UsageError } from '../../src/core/errors.js';
import { createFake, rejecting, type Fake } from '../fake-context.js';

/** What was sent to `op` (the engine reads the quota first for operations that cost it). */
const sentTo = (fake: Fake, op: string) => fake.calls.filter((c) => c.op === op).map((c) => c.body);

describe('runChangeCarrier', () => {
  it('maps --from/--to/--final-from/--final-to to the wire fields', async () => {
    const fake = createFake();
    expect(
      await runChangeCarrier(
        {
          numbers: ['AAA11111'],
          fields: { carrier_old: 1, carrier_new: 2, final_carrier_old: 3, final_carrier_new: 4 },
        },
        fake.ctx,
      ),
    ).toBe(0);
    expect(sentTo(fake, 'changecarrier')).toEqual([
      [{ number: 'AAA11111', carrier_old: 1, carrier_new: 2, final_carrier_old: 3, final_carrier_new: 4 }],
    ]);
  });

  it('needs --to or --final-to; nothing is sent without', async () => {
    const fake = createFake();
    await expect(runChangeCarrier({ numbers: ['AAA11111'], fields: { carrier_old: 1 } }, fake.ctx)).rejects.toThrow(
      UsageError,
    );
    expect(fake.calls).toHaveLength(0);
  });

  it('--dry-run reads the quota and changes nothing: a carrier change costs quota', async () => {
    const fake = createFake();
    expect(await runChangeCarrier({ numbers: ['AAA11111'], fields: { carrier_new: 5 }, dryRun: true }, fake.ctx)).toBe(
      0,
    );
    expect(fake.calls.map((c) => c.op)).toEqual(['getquota']);
    expect(fake.io.stderrText()).toContain('quota: 1 unit, 90 left');
  });

  it('exits 3 when some item is rejected and some done, 1 when none is done', async () => {
    const some = createFake({ handler: rejecting(['AAA11111'], -18019807, 'limit') });
    expect(await runChangeCarrier({ numbers: ['AAA11111', 'BBB22222'], fields: { carrier_new: 5 } }, some.ctx)).toBe(3);
    const none = createFake({ handler: rejecting(['AAA11111'], -18019807, 'limit') });
    expect(await runChangeCarrier({ numbers: ['AAA11111'], fields: { carrier_new: 5 } }, none.ctx)).toBe(1);
  });
});

describe('runUpdate', () => {
  it('sends the changes under items', async () => {
    const fake = createFake();
    await runUpdate({ numbers: ['AAA11111'], fields: { carrier: 7, tag: 'x', lang: 'de' } }, fake.ctx);
    expect(sentTo(fake, 'changeinfo')).toEqual([[{ number: 'AAA11111', carrier: 7, items: { tag: 'x', lang: 'de' } }]]);
  });

  it('needs something to change', async () => {
    const fake = createFake();
    await expect(runUpdate({ numbers: ['AAA11111'] }, fake.ctx)).rejects.toThrow(/nothing to change/);
    expect(fake.calls).toHaveLength(0);
  });

  it('v1: one item per request, and only the tag', async () => {
    const fake = createFake({
      version: 'v1',
      handler: (_op, body) => ({
        code: 0,
        data: { accepted: [{ number: (body as { number: string }).number, carrier: 1 }], rejected: [] },
      }),
    });
    await runUpdate({ numbers: ['AAA11111', 'BBB22222'], fields: { tag: 't' } }, fake.ctx);
    expect(sentTo(fake, 'changeinfo')).toEqual([
      { number: 'AAA11111', items: { tag: 't' } },
      { number: 'BBB22222', items: { tag: 't' } },
    ]);
    const refused = createFake({ version: 'v1' });
    await expect(runUpdate({ numbers: ['AAA11111'], fields: { lang: 'de' } }, refused.ctx)).rejects.toThrow(
      /the v1 API cannot send --lang/,
    );
    expect(refused.calls).toHaveLength(0);
  });
});

describe('runApi', () => {
  it('finds operations by any spelling', () => {
    expect(findOperation('getquota')).toBe('getquota');
    expect(findOperation('deleteTrack')).toBe('deletetrack');
    expect(findOperation('/Retrack')).toBe('retrack');
    expect(findOperation('getrealtimetrackinfo')).toBe('getRealTimeTrackInfo');
    expect(findOperation('nope')).toBeUndefined();
  });

  it('sends [] by default, {} for gettracklist, and prints the envelope', async () => {
    const fake = createFake();
    expect(await runApi({ operation: 'getquota' }, fake.ctx)).toBe(0);
    expect(JSON.parse(fake.io.stdoutText())).toMatchObject({ code: 0, data: { quota_total: 100 } });
    const list = createFake({
      handler: () => ({
        code: 0,
        data: { accepted: [] },
        page: { data_total: 0, page_total: 0, page_no: 1, page_size: 40 },
      }),
    });
    await runApi({ operation: 'gettracklist' }, list.ctx);
    expect(list.calls[0]!.body).toEqual({});
  });

  it('sends --data as given, or from stdin, and exits 3 on rejections', async () => {
    const fake = createFake({ handler: rejecting(['BBB22222']) });
    expect(
      await runApi({ operation: 'stoptrack', data: '[{"number":"AAA11111"},{"number":"BBB22222"}]' }, fake.ctx),
    ).toBe(3);
    expect(fake.calls[0]!.body).toEqual([{ number: 'AAA11111' }, { number: 'BBB22222' }]);
    const piped = createFake({ stdin: '[{"number":"CCC33333"}]' });
    await runApi({ operation: 'push', data: '-' }, piped.ctx);
    expect(piped.calls[0]!.body).toEqual([{ number: 'CCC33333' }]);
  });

  it('refuses unknown operations and bad JSON before sending', async () => {
    const fake = createFake();
    await expect(runApi({ operation: 'frobnicate' }, fake.ctx)).rejects.toThrow(/unknown operation "frobnicate"/);
    await expect(runApi({ operation: 'push', data: '[{' }, fake.ctx)).rejects.toThrow(/--data is not valid JSON/);
    expect(fake.calls).toHaveLength(0);
    expect(() => parseData('nope', 'stdin')).toThrow(UsageError);
  });
});
