// trk realtime: one item with its cache level, --fresh and its confirmation, v1 without it.
import { describe, expect, it } from 'vitest';
import { realtimeItem, runRealtime } from '../../../src/commands/items/realtime-run.js';
import { UsageError } from '../../../src/core/errors.js';
import { createFake } from '../../fake-context.js';
import { trackInfo } from '../track-info.js';
import { runLine } from '../run-program.js';
import { withCachedLists } from '../carrier-lists.js';

describe('runRealtime', () => {
  it('sends one item with cacheLevel 0 by default', async () => {
    const fake = createFake({ handler: trackInfo, global: { output: 'json' } });
    expect(await runRealtime({ number: 'AA123456789BR', carrier: 2151, fresh: false }, fake.ctx)).toBe(0);
    expect(fake.calls).toEqual([
      {
        op: 'getRealTimeTrackInfo',
        body: [{ number: 'AA123456789BR', carrier: 2151, cacheLevel: 0 }],
        opts: undefined,
      },
    ]);
  });

  it('--fresh without a terminal needs --yes, and sends nothing without it', async () => {
    const fake = createFake({ handler: trackInfo });
    const err = await runRealtime({ number: 'AA123456789BR', fresh: true }, fake.ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).toLine()).toContain('--fresh (10 quota units) needs confirmation: pass --yes');
    expect(fake.calls).toHaveLength(0);

    const yes = createFake({ handler: trackInfo, global: { yes: true, output: 'json' } });
    await runRealtime({ number: 'AA123456789BR', fresh: true }, yes.ctx);
    expect((yes.calls[0]!.body as { cacheLevel: number }[])[0]!.cacheLevel).toBe(1);
  });

  it('--fresh on a terminal asks, naming the cost', async () => {
    const fake = createFake({ handler: trackInfo, tty: true, confirms: [false] });
    await expect(runRealtime({ number: 'AA123456789BR', fresh: true }, fake.ctx)).rejects.toThrow('cancelled');
    expect(fake.prompts[0]).toMatch(/10 quota units instead of 1/);
    expect(fake.calls).toHaveLength(0);
  });

  it('a rejected number exits 1 (nothing was done); v1 has no real-time operation', async () => {
    const fake = createFake({ handler: trackInfo, global: { output: 'json' } });
    expect(await runRealtime({ number: 'XX000000000XX', fresh: false }, fake.ctx)).toBe(1);
    const v1 = createFake({ version: 'v1' });
    await expect(runRealtime({ number: 'AA123456789BR', fresh: false }, v1.ctx)).rejects.toThrow(
      /v1 API has no real-time/,
    );
    expect(v1.calls).toHaveLength(0);
  });

  it('realtimeItem maps the options', () => {
    expect(realtimeItem({ number: ' AB12345 ', param: 'p', finalCarrier: 9, fresh: true })).toEqual({
      number: 'AB12345',
      param: 'p',
      final_carrier: 9,
      cacheLevel: 1,
    });
  });
});

describe('trk realtime: the command line', () => {
  it('realtime --fresh --yes', async () => {
    const { calls } = await runLine([
      'realtime',
      'AAA11111',
      '--carrier',
      '3011',
      '--param',
      'p',
      '--final-carrier',
      '5',
      '--fresh',
      '--yes',
      '--json',
    ]);
    expect(calls[0]).toMatchObject({
      op: 'getRealTimeTrackInfo',
      body: [{ number: 'AAA11111', carrier: 3011, param: 'p', final_carrier: 5, cacheLevel: 1 }],
    });
  });
});

describe('trk realtime: carrier names', () => {
  const parse = withCachedLists();

  it('realtime --carrier and --final-carrier', async () => {
    const { code, calls } = await parse([
      'realtime',
      'RR123456789CN',
      '--carrier',
      'china post',
      '--final-carrier',
      'usps',
    ]);
    expect(code).toBe(0);
    expect(calls[0]!.body).toEqual([{ number: 'RR123456789CN', carrier: 3011, final_carrier: 21051, cacheLevel: 0 }]);
  });
});
