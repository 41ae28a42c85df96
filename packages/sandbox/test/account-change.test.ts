// changecarrier and changeinfo.

import { describe, expect, it } from 'vitest';
import { sampleNumber } from '../src/world/index.js';
import { type Json, type TestAccount, chinaPost, makeAccount } from './account-fixture.js';

const CN = chinaPost(1);

/** An account with CN registered under China Post and its first result in. */
async function ready(extra: Record<string, unknown>[] = []): Promise<TestAccount> {
  const t = makeAccount();
  t.v2('register', [{ number: CN }, ...extra]);
  await t.advance(30_000);
  return t;
}

function errorOf(env: Json): { code: number; message: string } {
  expect(env.code).toBe(0);
  expect(env.data.rejected).toHaveLength(1);
  return env.data.rejected[0].error;
}

describe('changecarrier', () => {
  it('moves the record, counts the change, charges one unit', async () => {
    const t = await ready();
    const env = t.v2('changecarrier', [{ number: CN, carrier_new: 21051 }]);
    expect(env).toEqual({ code: 0, data: { accepted: [{ number: CN, carrier: 21051 }], rejected: [] } });
    const rec = t.v2('gettracklist', {}).data.accepted;
    expect(rec).toHaveLength(1);
    expect(rec[0]).toMatchObject({
      carrier: 21051,
      carrier_change_count: 1,
      tracking_status: 'Tracking',
      track_time: null,
    });
    expect(t.v2('getquota', []).data.quota_used).toBe(2);
    expect(t.v2('gettrackinfo', [{ number: CN, carrier: 3011 }]).data.rejected[0].error.code).toBe(-18019902);
  });

  it('final_carrier_new alone changes the last-mile carrier of a postal record', async () => {
    const t = await ready();
    expect(t.v2('changecarrier', [{ number: CN, final_carrier_new: 21051 }]).data.accepted).toEqual([
      { number: CN, carrier: 3011 },
    ]);
    expect(t.v2('gettracklist', {}).data.accepted[0]).toMatchObject({
      carrier: 3011,
      final_carrier: 21051,
      carrier_change_count: 1,
    });
  });

  const cases: [string, Record<string, unknown>[], Record<string, unknown>, number, string][] = [
    ['neither new carrier given', [], { number: CN }, -18019804, 'carrier_new or final_carrier_new must be specified'],
    [
      'not registered',
      [],
      { number: chinaPost(50), carrier_new: 21051 },
      -18019805,
      `number ${chinaPost(50)} not registered under carrier 0, or carrier_old wrong`,
    ],
    [
      'not registered under carrier_old',
      [],
      { number: CN, carrier_old: 21051, carrier_new: 11031 },
      -18019805,
      `number ${CN} not registered under carrier 21051, or carrier_old wrong`,
    ],
    [
      'final_carrier_old does not match',
      [],
      { number: CN, carrier_old: 3011, final_carrier_old: 21051, carrier_new: 11031 },
      -18019805,
      `number ${CN} not registered under carrier 3011, or carrier_old wrong`,
    ],
    [
      'several carriers without carrier_old',
      [{ number: CN, carrier: 21051 }],
      { number: CN, carrier_new: 11031 },
      -18019801,
      'several carriers registered for the number; give carrier_old',
    ],
    [
      'several match final_carrier_old',
      [{ number: CN, carrier: 21051 }],
      { number: CN, final_carrier_old: 0, carrier_new: 11031 },
      -18019810,
      'records matching the update condition are not unique',
    ],
    ['carrier_new 0 and nothing else', [], { number: CN, carrier_new: 0 }, -18019811, 'no valid item to change'],
    ['unknown carrier_new', [], { number: CN, carrier_new: 999999 }, -18019802, 'carrier_new 999999 may be wrong'],
    [
      'unknown final_carrier_new',
      [],
      { number: CN, final_carrier_new: 999999 },
      -18019802,
      'carrier_new 999999 may be wrong',
    ],
    ['same carrier', [], { number: CN, carrier_new: 3011 }, -18019803, 'old and new carrier are the same'],
    [
      'duplicate registration',
      [{ number: CN, carrier: 21051 }],
      { number: CN, carrier_old: 3011, carrier_new: 21051 },
      -18019809,
      'same registration already exists; duplicate not allowed',
    ],
    [
      'final carrier on a non-postal carrier',
      [],
      { number: CN, carrier_new: 190012, final_carrier_new: 21051 },
      -18010016,
      'last-mile carrier can only be set for postal services',
    ],
    ['number missing', [], { carrier_new: 21051 }, -18010010, 'required data number missing'],
    ['carrier_new not an integer', [], { number: CN, carrier_new: 'x' }, -18010011, 'value of carrier_new invalid'],
  ];
  it.each(cases)('%s', async (_name, extra, item, code, message) => {
    const t = await ready(extra);
    expect(errorOf(t.v2('changecarrier', [item]))).toEqual({ code, message });
  });

  it('final_carrier_old singles out one of several records', async () => {
    const t = makeAccount();
    t.v2('register', [
      { number: CN, final_carrier: 21051 },
      { number: CN, carrier: 11031 },
    ]);
    await t.advance(30_000);
    expect(
      t.v2('changecarrier', [{ number: CN, final_carrier_old: 21051, final_carrier_new: 3041 }]).data.accepted,
    ).toEqual([{ number: CN, carrier: 3011 }]);
  });

  it('stopped → -18019806', async () => {
    const t = await ready();
    t.v2('stoptrack', [{ number: CN }]);
    expect(errorOf(t.v2('changecarrier', [{ number: CN, carrier_new: 21051 }])).code).toBe(-18019806);
  });

  it('pending result → -18019808 until the first run after registration or change', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    expect(errorOf(t.v2('changecarrier', [{ number: CN, carrier_new: 21051 }])).code).toBe(-18019808);
    await t.advance(30_000);
    expect(t.v2('changecarrier', [{ number: CN, carrier_new: 21051 }]).data.accepted).toHaveLength(1);
    expect(errorOf(t.v2('changecarrier', [{ number: CN, carrier_new: 11031 }])).code).toBe(-18019808);
    await t.advance(30_000);
    expect(t.v2('changecarrier', [{ number: CN, carrier_new: 11031 }]).data.accepted).toHaveLength(1);
  });

  it('at most 5 changes → -18019807', async () => {
    const t = await ready();
    const carriers = [21051, 11031, 1151, 2151, 7041];
    for (const c of carriers) {
      expect(t.v2('changecarrier', [{ number: CN, carrier_new: c }]).data.accepted).toHaveLength(1);
      await t.advance(30_000);
    }
    expect(t.v2('gettracklist', {}).data.accepted[0].carrier_change_count).toBe(5);
    expect(errorOf(t.v2('changecarrier', [{ number: CN, carrier_new: 6051 }])).code).toBe(-18019807);
  });

  it('quota exhausted → -18019908 and nothing changes', async () => {
    const t = makeAccount({ settings: { quotaTotal: 1 } });
    t.v2('register', [{ number: CN }]);
    await t.advance(30_000);
    expect(errorOf(t.v2('changecarrier', [{ number: CN, carrier_new: 21051 }])).code).toBe(-18019908);
    expect(t.v2('gettracklist', {}).data.accepted[0]).toMatchObject({ carrier: 3011, carrier_change_count: 0 });
  });

  it('v1: accepted {number, carrier}, rejected {number, error}', async () => {
    const t = await ready();
    expect(t.v1('changecarrier', [{ number: CN, carrier_new: 21051 }]).data.accepted).toEqual([
      { number: CN, carrier: 21051 },
    ]);
    expect(t.v1('changecarrier', [{ number: CN, carrier_new: 21051 }]).data.rejected).toEqual([
      { number: CN, error: { code: -18019803, message: 'old and new carrier are the same' } },
    ]);
  });

  it('the new carrier is tracked: first result within seconds', async () => {
    const t = await ready();
    t.v2('changecarrier', [{ number: CN, carrier_new: 21051 }]);
    await t.advance(30_000);
    const rec = t.v2('gettracklist', {}).data.accepted[0];
    expect(rec.track_time).not.toBeNull();
    const info = t.v2('gettrackinfo', [{ number: CN }]).data.accepted[0];
    expect(info.carrier).toBe(21051);
    expect(info.track_info.tracking.providers.map((p: Json) => p.provider.key)).toContain(21051);
  });
});

describe('changeinfo', () => {
  it('v2 changes tag, param and lang; null clears', async () => {
    const t = makeAccount();
    t.v21('register', [
      { number: CN, tag: 'old' },
      { number: sampleNumber(100012, 1), param: '1234' },
    ]);
    const env = t.v2('changeinfo', [
      { number: CN, items: { tag: 'new', lang: 'fr' } },
      { number: sampleNumber(100012, 1), carrier: 100012, items: { param: '9876', tag: null } },
    ]);
    expect(env).toEqual({
      code: 0,
      data: {
        accepted: [
          { number: CN, carrier: 3011 },
          { number: sampleNumber(100012, 1), carrier: 100012 },
        ],
        rejected: [],
      },
    });
    const list = t.v21('gettracklist', { order_by: 'RegisterTimeAsc' }).data.accepted;
    expect(list[0]).toMatchObject({ tag: 'new', lang: 'fr' });
    expect(list[1]).toMatchObject({ tag: null, param: '9876' });
    t.v2('changeinfo', [{ number: CN, items: { tag: null } }]);
    expect(t.v2('gettracklist', { number: CN }).data.accepted[0].tag).toBeNull();
  });

  it('a lang set later is charged with the next result', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: CN }]);
    await t.advance(30_000);
    t.v2('changeinfo', [{ number: CN, items: { lang: 'de' } }]);
    expect(t.v2('getquota', []).data.quota_used).toBe(1);
    await t.advance(60 * 24 * 3600_000);
    expect(t.v2('getquota', []).data.quota_used).toBe(2);
    const events = t.v2('gettrackinfo', [{ number: CN }]).data.accepted[0].track_info.tracking.providers[0].events;
    expect(events[0].description_translation).toMatchObject({ lang: 'de' });
  });

  const cases: [string, unknown, number, string][] = [
    [
      'not registered',
      { number: chinaPost(70), items: { tag: 'x' } },
      -18019902,
      `The tracking number '${chinaPost(70)}' does not register, please register first.`,
    ],
    ['items missing', { number: CN }, -18010010, 'required data items missing'],
    ['items not an object', { number: CN, items: 'tag' }, -18010011, 'value of items invalid'],
    ['tag over 100', { number: CN, items: { tag: 'x'.repeat(101) } }, -18010011, 'value of tag invalid'],
    ['unknown lang', { number: CN, items: { lang: 'pt' } }, -18010015, 'value pt of field lang invalid'],
    [
      'param of the wrong form',
      { number: sampleNumber(100012, 1), items: { param: 'abc' } },
      -18010011,
      'value of param invalid',
    ],
    [
      'clearing a required param',
      { number: sampleNumber(100012, 1), items: { param: null } },
      -18010020,
      'extra field required: phone number',
    ],
    [
      'unknown carrier',
      { number: CN, carrier: 999999, items: { tag: 'x' } },
      -18019910,
      'carrier code 999999 incorrect',
    ],
  ];
  it.each(cases)('%s', (_name, item, code, message) => {
    const t = makeAccount();
    t.v2('register', [
      { number: CN, tag: 'keep' },
      { number: sampleNumber(100012, 1), param: '1234' },
    ]);
    expect(errorOf(t.v2('changeinfo', [item]))).toEqual({ code, message });
    // A refused item changes nothing.
    expect(t.v2('gettracklist', { number: CN }).data.accepted[0].tag).toBe('keep');
  });

  it('whole-request errors', () => {
    const t = makeAccount();
    expect(t.v2('changeinfo', { number: CN, items: {} }).code).toBe(-18010013);
    expect(
      t.v2(
        'changeinfo',
        Array.from({ length: 41 }, () => ({ number: CN, items: {} })),
      ).code,
    ).toBe(-18010014);
    expect(
      t.v1('changeinfo', [
        { number: CN, items: {} },
        { number: CN, items: {} },
      ]).code,
    ).toBe(-18010013);
    expect(t.v1('changeinfo', ['x']).code).toBe(-18010013);
  });

  it('v1 also takes its single object inside a one-element array (what array-only clients send)', () => {
    const t = makeAccount();
    t.v1('register', [{ number: CN, carrier: 3011 }]);
    expect(t.v1('changeinfo', [{ number: CN, carrier: 3011, items: { tag: 'from-array' } }])).toEqual({
      code: 0,
      data: { accepted: [{ number: CN, carrier: 3011 }], rejected: [] },
    });
    expect(t.v1('gettracklist', {}).data.accepted[0].tag).toBe('from-array');
  });

  it('v1 takes a single object and changes only the tag (the live answers)', () => {
    const t = makeAccount();
    // Ten digits: DHL Express by detection.
    expect(t.v1('register', [{ number: '1234567890', auto_detection: true }]).data.accepted[0].carrier).toBe(100001);
    expect(t.v1('changeinfo', { number: '1234567890', carrier: 100001, items: { tag: 'x', lang: 'de' } })).toEqual({
      code: 0,
      data: { accepted: [{ number: '1234567890', carrier: 100001 }], rejected: [] },
    });
    expect(t.v1('gettracklist', {}).data.accepted[0].tag).toBe('x');
    expect(t.v21('gettracklist', {}).data.accepted[0].lang).toBe('');
    expect(t.v1('changeinfo', { number: '1234567891', items: { tag: 'x' } })).toEqual({
      code: 0,
      data: {
        accepted: [],
        rejected: [
          {
            number: '1234567891',
            error: {
              code: -18019902,
              message: "The tracking number '1234567891' does not register, please register first.",
            },
          },
        ],
      },
    });
  });
});
