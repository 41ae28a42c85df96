// trk stop: a number stopped already is done, and a dry run of arguments sends nothing.
import { describe, expect, it } from 'vitest';
import { runItemAction } from '../../../src/commands/items/actions.js';
import { createFake, rejecting } from '../../fake-context.js';

describe('runItemAction stop', () => {
  it('stop on a number already stopped is done, not a rejection (exit 0)', async () => {
    const fake = createFake({
      handler: rejecting(['BBB22222'], -18019906, 'only numbers being tracked can be stopped'),
    });
    expect(await runItemAction('stop', { numbers: ['AAA11111', 'BBB22222'] }, fake.ctx)).toBe(0);
    expect(fake.io.stderrText()).toBe('stopped 1, already stopped 1\n');
  });

  it('--dry-run works with arguments too, and sends nothing', async () => {
    const fake = createFake({ global: { yes: true } });
    expect(await runItemAction('stop', { numbers: ['AAA11111', 'BBB22222'], dryRun: true }, fake.ctx)).toBe(0);
    expect(fake.calls).toHaveLength(0);
    expect(fake.io.stderrText()).toContain('dry run: stop the arguments (API v2)');
    expect(fake.io.stderrText()).toContain('2 items in 1 request of up to 40');
  });
});
