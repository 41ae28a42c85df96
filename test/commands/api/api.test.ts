// trk api: any operation by any spelling, its body as given, the envelope printed.
import { describe, expect, it } from 'vitest';
import { findOperation, parseData, runApi } from '../../../src/commands/api/api.js';
import { UsageError } from '../../../src/core/errors.js';
import { createFake, rejecting } from '../../fake-context.js';
import { runLine } from '../run-program.js';

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

describe('trk api: the command line', () => {
  it('api OPERATION --data', async () => {
    const { calls, code } = await runLine(['api', 'gettrackinfo', '--data', '[{"number":"AAA11111"}]']);
    expect(code).toBe(0);
    expect(calls[0]).toMatchObject({ op: 'gettrackinfo', body: [{ number: 'AAA11111' }] });
  });
});
