// trk change-carrier: its flags on the wire, what it needs, --dry-run and its exit codes.
import { describe, expect, it } from 'vitest';
import { runChangeCarrier } from '../../../src/commands/items/change-carrier.js';
import { UsageError } from '../../../src/core/errors.js';
import { createFake, rejecting } from '../../fake-context.js';
import { sentTo } from '../sent-to.js';
import { runLine } from '../run-program.js';
import { withCachedLists } from '../carrier-lists.js';

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

describe('trk change-carrier: the command line', () => {
  it('--to, --from, --final-to, --final-from', async () => {
    const cc = await runLine([
      'change-carrier',
      'AAA11111',
      '--to',
      '2',
      '--from',
      '1',
      '--final-to',
      '4',
      '--final-from',
      '3',
    ]);
    expect(cc.sent('changecarrier')).toEqual([
      [{ number: 'AAA11111', carrier_old: 1, carrier_new: 2, final_carrier_old: 3, final_carrier_new: 4 }],
    ]);
  });
});

describe('trk change-carrier: carrier names', () => {
  const parse = withCachedLists();

  it('change-carrier --to, --from, --final-to, --final-from', async () => {
    const { code, fake } = await parse([
      'change-carrier',
      'RR123456789CN',
      '--to',
      'Yanwen',
      '--from',
      'China Post',
      '--final-to',
      'USPS',
      '--final-from',
      'Canada Post',
    ]);
    expect(code).toBe(0);
    expect(fake.sent('changecarrier')).toEqual([
      [
        {
          number: 'RR123456789CN',
          carrier_old: 3011,
          carrier_new: 190012,
          final_carrier_old: 3041,
          final_carrier_new: 21051,
        },
      ],
    ]);
  });
});
