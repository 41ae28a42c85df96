// trk push: piped rows and the summary of a push with a rejection.
import { describe, expect, it } from 'vitest';
import { runItemAction } from '../../../src/commands/items/actions.js';
import { createFake, rejecting } from '../../fake-context.js';

describe('runItemAction push', () => {
  it('prints tab-separated rows without header when piped, and exits 3 when some were rejected', async () => {
    const fake = createFake({ handler: rejecting(['BBB22222'], -18019909, 'no tracking information yet') });
    const code = await runItemAction('push', { numbers: ['AAA11111', 'BBB22222'] }, fake.ctx);
    expect(code).toBe(3);
    const lines = fake.io.stdoutText().trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toContain('accepted');
    expect(lines[1]!.split('\t')).toEqual(
      expect.arrayContaining(['BBB22222', 'rejected', '-18019909', 'no tracking information yet']),
    );
    expect(fake.io.stderrText()).toBe('queued for push 1, rejected 1\n');
  });
});
