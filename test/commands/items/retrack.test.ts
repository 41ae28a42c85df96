// trk retrack: stopped numbers tracked again, a number tracked already done (not a rejection).
import { describe, expect, it } from 'vitest';
import { runItemAction } from '../../../src/commands/items/actions.js';
import { createFake, rejecting } from '../../fake-context.js';
import { runLine } from '../run-program.js';

describe('trk retrack', () => {
  it('sends the numbers with their carrier and says how many were retracked', async () => {
    const { code, sent, fake } = await runLine(['retrack', 'AAA11111', 'BBB22222', '--carrier', '3011']);
    expect(code).toBe(0);
    expect(sent('retrack')).toEqual([
      [
        { number: 'AAA11111', carrier: 3011 },
        { number: 'BBB22222', carrier: 3011 },
      ],
    ]);
    expect(fake.io.stderrText()).toBe('retracked 2\n');
  });

  it('a number tracked already is done, not a rejection (exit 0); one not registered is (exit 3)', async () => {
    const tracking = createFake({ handler: rejecting(['BBB22222'], -18019904, 'already tracking') });
    expect(await runItemAction('retrack', { numbers: ['AAA11111', 'BBB22222'] }, tracking.ctx)).toBe(0);
    expect(tracking.io.stderrText()).toBe('retracked 1, already tracking 1\n');
    const missing = createFake({ handler: rejecting(['BBB22222'], -18019902, 'not registered') });
    expect(await runItemAction('retrack', { numbers: ['AAA11111', 'BBB22222'] }, missing.ctx)).toBe(3);
  });
});
