// gettrackinfo (v2, v2.1, v1) and getRealTimeTrackInfo.

import { describe, expect, it } from 'vitest';
import { formatCodeMessage } from '@trk/service/codes.js';
import { findNumber, planShipment, sampleNumber, trackInfoAt } from '../src/world/index.js';
import { HOUR, type Json, START, chinaPost, makeAccount } from './account-fixture.js';

const DELIVERED = findNumber(3011, { scenario: 'delivered' }) as string;
/** When DELIVERED, registered at START, is delivered (its last event). */
const DELIVERED_AT = planShipment(DELIVERED, 3011, START).events.at(-1)!.atMs;

describe('gettrackinfo', () => {
  it('v2: {number, carrier, param, tag, track_info} as known at the last run', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED, tag: 'o-1' }]);
    await t.advance(30_000);
    const env = t.v2('gettrackinfo', [{ number: DELIVERED }]);
    expect(env.code).toBe(0);
    expect(env.data.rejected).toEqual([]);
    const item = env.data.accepted[0];
    expect(Object.keys(item)).toEqual(['number', 'carrier', 'param', 'tag', 'track_info']);
    expect(item).toMatchObject({ number: DELIVERED, carrier: 3011, param: null, tag: 'o-1' });
    const trackMs = Date.parse(t.v2('gettracklist', {}).data.accepted[0].track_time);
    const expected = trackInfoAt(planShipment(DELIVERED, 3011, START), trackMs, t.now(), 'v2');
    expect(item.track_info).toEqual(expected);
    // v2 events carry no sub_status; v2.1 ones do.
    const v21 = t.v21('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track_info;
    expect(v21.latest_event).toHaveProperty('sub_status');
    expect(item.track_info.latest_event).not.toHaveProperty('sub_status');
  });

  it('the stored result does not move between tracking runs', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30_000);
    const a = t.v2('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track_info;
    t.setTime(t.now() + 2 * HOUR); // no run due yet (first interval is 6 hours or more)
    const b = t.v2('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track_info;
    expect(b.tracking.providers_hash).toBe(a.tracking.providers_hash);
    expect(b.latest_status).toEqual(a.latest_status);
  });

  it('before the first run the number is rejected -18019909 (account-clients.test.ts has the details)', () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED }]);
    expect(t.v2('gettrackinfo', [{ number: DELIVERED }]).data.rejected[0].error.code).toBe(-18019909);
  });

  it('v1: {number, tag, track}', async () => {
    const t = makeAccount();
    t.v1('register', [{ number: DELIVERED, carrier: 3011, tag: 'x' }]);
    await t.advance(30_000);
    const item = t.v1('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0];
    expect(Object.keys(item)).toEqual(['number', 'tag', 'track']);
    expect(item.track).toMatchObject({ w1: 3011, b: 301 });
    expect(t.v1('gettrackinfo', [{ number: chinaPost(77) }]).data.rejected).toEqual([
      {
        number: chinaPost(77),
        error: {
          code: -18019902,
          message: `The tracking number '${chinaPost(77)}' does not register, please register first.`,
        },
      },
    ]);
  });

  it('a translation appears once the lang unit was charged', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED, lang: 'de' }]);
    await t.advance(30_000);
    const info = t.v2('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track_info;
    expect(info.latest_event.description_translation).toMatchObject({ lang: 'de' });
  });
});

describe('getRealTimeTrackInfo', () => {
  it('an unregistered number is answered and not saved; level 0 costs 1, level 1 costs 10', () => {
    const t = makeAccount();
    const env = t.v2('getRealTimeTrackInfo', [{ number: DELIVERED }]);
    expect(env.code).toBe(0);
    expect(env.data.accepted[0]).toMatchObject({ number: DELIVERED, carrier: 3011, param: null, tag: null });
    expect(env.data.accepted[0].track_info.latest_status.status).toBeTypeOf('string');
    expect(t.v2('gettracklist', {}).page.data_total).toBe(0);
    expect(t.v2('getquota', []).data.quota_used).toBe(1);
    t.v2('getRealTimeTrackInfo', [{ number: DELIVERED, cacheLevel: 1 }]);
    expect(t.v2('getquota', []).data.quota_used).toBe(11);
  });

  it.each([
    ['Standard', 1],
    ['instant', 10],
    [0, 1],
    [1, 10],
  ])('cacheLevel %s costs %s', (level, cost) => {
    const t = makeAccount();
    expect(t.v2('getRealTimeTrackInfo', [{ number: DELIVERED, cacheLevel: level }]).data.accepted).toHaveLength(1);
    expect(t.v2('getquota', []).data.quota_used).toBe(cost);
  });

  it('an unregistered number tells the same story on repeated queries', () => {
    const t = makeAccount();
    const a = t.v2('getRealTimeTrackInfo', [{ number: DELIVERED, cacheLevel: 1 }]).data.accepted[0].track_info;
    t.setTime(t.now() + 60_000);
    const b = t.v2('getRealTimeTrackInfo', [{ number: DELIVERED, cacheLevel: 1 }]).data.accepted[0].track_info;
    expect(b.tracking.providers[0].events).toEqual(a.tracking.providers[0].events);
  });

  it('a registered number is refreshed; a change is pushed', async () => {
    const t = makeAccount({ settings: { webhookUrl: 'http://127.0.0.1:1/hook' } });
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30_000);
    const sentBefore = t.sent.length;
    // Past the delivery without a tick: the stored result is old, the parcel has moved.
    t.setTime(DELIVERED_AT + HOUR);
    const env = t.v2('getRealTimeTrackInfo', [{ number: DELIVERED, cacheLevel: 1 }]);
    expect(env.data.accepted[0].track_info.latest_status.status).toBe('Delivered');
    // The request first brings the due runs up to date: the one that saw the delivery set track_time.
    const rec = t.v2('gettracklist', {}).data.accepted[0];
    expect(rec.package_status).toBe('Delivered');
    expect(Date.parse(rec.track_time)).toBeGreaterThanOrEqual(DELIVERED_AT);
    expect(Date.parse(rec.track_time)).toBeLessThanOrEqual(t.now());
    await t.account.tick();
    expect(t.sent.length).toBeGreaterThan(sentBefore);
    expect(JSON.parse(t.sent.at(-1)?.body ?? '{}').data.track_info.latest_status.status).toBe('Delivered');
  });

  it('postal providers are listed origin first (as the real-time description states)', () => {
    const t = makeAccount();
    const providerKeys = (info: Json): number[] => info.tracking.providers.map((p: Json) => p.provider.key);
    // A number whose two providers both have events to show in a real-time answer now.
    let i = 0;
    let keys: number[] = [];
    for (; keys.length !== 2; i++) {
      const number = sampleNumber(3011, i);
      if (planShipment(number, 3011, START).route.length !== 2) continue;
      keys = providerKeys(t.v2('getRealTimeTrackInfo', [{ number, cacheLevel: 1 }]).data.accepted[0].track_info);
    }
    const number = sampleNumber(3011, i - 1);
    expect(keys[0]).toBe(3011);
    t.v2('register', [{ number }]);
    t.setTime(t.now() + 40 * 86_400_000);
    const stored = providerKeys(t.v2('gettrackinfo', [{ number }]).data.accepted[0].track_info);
    expect(stored).toEqual([...keys].reverse());
  });

  const whole: [string, unknown, number][] = [
    ['no items', [], -18010013],
    ['two items', [{ number: DELIVERED }, { number: chinaPost(2) }], -18010014],
    ['not an array', { number: DELIVERED }, -18010013],
  ];
  it.each(whole)('%s → data.errors', (_name, body, code) => {
    const env = makeAccount().v2('getRealTimeTrackInfo', body);
    expect(env).toEqual({ code, data: { errors: [{ code, message: formatCodeMessage(code) }] } });
  });

  it('an account without real time → -18019912', () => {
    const env = makeAccount({ settings: { realtimeAllowed: false } }).v2('getRealTimeTrackInfo', [
      { number: DELIVERED },
    ]);
    expect(env).toEqual({
      code: -18019912,
      data: { errors: [{ code: -18019912, message: 'account not authorised for real time' }] },
    });
  });

  const items: [string, Record<string, unknown>, number, string][] = [
    ['bad cacheLevel', { number: DELIVERED, cacheLevel: 2 }, -18010015, 'value 2 of field cacheLevel invalid'],
    [
      'bad cacheLevel word',
      { number: DELIVERED, cacheLevel: 'Fast' },
      -18010015,
      'value Fast of field cacheLevel invalid',
    ],
    ['malformed number', { number: '12' }, -18010012, "The format of '12' is invalid."],
    ['undetectable', { number: 'XX12345678' }, -18019903, 'carrier cannot be detected'],
    ['unsupported carrier', { number: sampleNumber(21051, 1) }, -18019818, 'carrier does not support real time'],
    [
      'final_carrier on non-postal',
      { number: sampleNumber(190012, 1), final_carrier: 21051 },
      -18010016,
      formatCodeMessage(-18010016),
    ],
    ['param missing', { number: sampleNumber(100012, 1) }, -18010020, formatCodeMessage(-18010020)],
  ];
  it.each(items)('%s', (_name, item, code, message) => {
    const t = makeAccount();
    const env = t.v2('getRealTimeTrackInfo', [item]);
    expect(env.code).toBe(0);
    expect(env.data.accepted).toEqual([]);
    expect(env.data.rejected[0].error).toEqual({ code, message });
    expect(t.v2('getquota', []).data.quota_used).toBe(0);
  });

  it('quota: 10 units needed for level 1', () => {
    const t = makeAccount({ settings: { quotaTotal: 9 } });
    expect(t.v2('getRealTimeTrackInfo', [{ number: DELIVERED, cacheLevel: 1 }]).data.rejected[0].error.code).toBe(
      -18019908,
    );
    expect(t.v2('getRealTimeTrackInfo', [{ number: DELIVERED }]).data.accepted).toHaveLength(1);
  });

  it('v2.1 answers in v2.1 shape', async () => {
    const t = makeAccount();
    t.v21('register', [{ number: DELIVERED }]);
    await t.advance(DELIVERED_AT - START + HOUR);
    const info = t.v21('getRealTimeTrackInfo', [{ number: DELIVERED, cacheLevel: 1 }]).data.accepted[0].track_info;
    expect(info.latest_event).toHaveProperty('sub_status', 'Delivered_Other');
  });
});
