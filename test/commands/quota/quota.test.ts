// trk quota: the quota object as sent, its CSV row, v1 without it.
import { describe, expect, it } from 'vitest';
import { runQuota } from '../../../src/commands/quota/quota.js';
import { createFake } from '../../fake-context.js';
import { fixture } from '../track-info.js';
import { runLine } from '../run-program.js';

describe('runQuota', () => {
  it('--json prints the quota object as sent', async () => {
    const quota = fixture('getquota.json');
    const fake = createFake({ handler: () => quota, global: { output: 'json' } });
    expect(await runQuota({}, fake.ctx)).toBe(0);
    expect(JSON.parse(fake.io.stdoutText())).toEqual(quota.data);
    expect(fake.calls[0]).toMatchObject({ op: 'getquota', body: [] });
  });

  it('CSV prints a header and one row', async () => {
    const fake = createFake({ global: { output: 'csv' } });
    await runQuota({}, fake.ctx);
    const lines = fake.io.stdoutText().trim().split(/\r?\n/);
    expect(lines).toEqual([
      'quota_total,quota_used,quota_remain,today_used,max_track_daily,free_email_quota,free_email_quotaused',
      '100,10,90,1,0,0,0',
    ]);
  });

  it('v1 has no quota operation', async () => {
    const fake = createFake({ version: 'v1' });
    await expect(runQuota({}, fake.ctx)).rejects.toThrow(/v1 API has no quota operation/);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('trk quota: the command line', () => {
  it('quota', async () => {
    const { calls } = await runLine(['quota', '--json']);
    expect(calls[0]).toMatchObject({ op: 'getquota', body: [] });
  });
});
