// Automatic tracking over simulated time: first run, intervals, expiry, InvalidCarrier, retention,
// retrack, and that a clock jump gives the same account as ticking through the same time.

import { describe, expect, it } from 'vitest';
import {
  EXPIRY_AFTER_DELIVERY_MS,
  EXPIRY_MS,
  RETENTION_MS,
  firstRunDelay,
  runInterval,
} from '../src/account/tracking.js';
import { findNumber, planShipment, sampleNumber } from '../src/world/index.js';
import { DAY, HOUR, type Json, START, type TestAccount, advanceBy, chinaPost, makeAccount } from './account-fixture.js';

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const HOOK = { webhookUrl: 'http://127.0.0.1:1/hook' };

function record(t: TestAccount, number: string): Json {
  return t.v2('gettracklist', { number }).data.accepted[0];
}

function lastEventMs(number: string, carrier = 3011): number {
  const events = planShipment(number, carrier, START).events;
  return (events.at(-1) as { atMs: number }).atMs;
}

function events(t: TestAccount, number: string): string[] {
  return t.sent
    .map((d) => JSON.parse(d.body))
    .filter((b) => b.data.number === number)
    .map((b) => b.event);
}

describe('schedule rules', () => {
  it('first run 3 to 10 seconds after registration', async () => {
    const t = makeAccount();
    const n = chinaPost(1);
    t.v2('register', [{ number: n }]);
    const delay = firstRunDelay(n);
    expect(delay).toBeGreaterThanOrEqual(3000);
    expect(delay).toBeLessThanOrEqual(10_000);
    await t.advance(delay - 1);
    expect(record(t, n).track_time).toBeNull();
    await t.advance(1);
    expect(record(t, n).track_time).toBe(iso(START + delay));
  });

  it.each([
    ['InTransit', 6],
    ['OutForDelivery', 6],
    ['AvailableForPickup', 6],
    ['DeliveryFailure', 6],
    ['NotFound', 12],
    ['InfoReceived', 12],
    ['Expired', 12],
    ['Delivered', 24],
    ['Exception', 24],
  ] as const)('%s: every %s hours', (status, hours) => {
    expect(runInterval(status)).toBe(hours * HOUR);
  });

  it('runs follow the interval of the status last seen', async () => {
    const t = makeAccount();
    const n = findNumber(3011, { scenario: 'info_only' }) as string; // one InfoReceived event, before registration
    t.v2('register', [{ number: n }]);
    await t.advance(20_000);
    const first = Date.parse(record(t, n).track_time);
    expect(record(t, n).package_status).toBe('InfoReceived');
    await advanceBy(t, 25 * HOUR);
    expect(record(t, n).track_time).toBe(iso(first + 24 * HOUR));
  });
});

describe('expiry', () => {
  it('30 days without an event update → Stopped Expired at that moment, TRACKING_STOPPED, then nothing', async () => {
    const t = makeAccount({ settings: HOOK });
    const n = findNumber(3011, { scenario: 'stalled' }) as string;
    t.v2('register', [{ number: n, tag: 'st' }]);
    const stopAt = Math.max(START, lastEventMs(n)) + EXPIRY_MS;
    await advanceBy(t, stopAt - START - HOUR, 12 * HOUR);
    expect(record(t, n).tracking_status).toBe('Tracking');
    await advanceBy(t, 2 * HOUR);
    expect(record(t, n)).toMatchObject({
      tracking_status: 'Stopped',
      stop_track_reason: 'Expired',
      stop_track_time: iso(stopAt),
    });
    const sentEvents = events(t, n);
    expect(sentEvents.at(-1)).toBe('TRACKING_STOPPED');
    expect(sentEvents.filter((e) => e === 'TRACKING_STOPPED')).toHaveLength(1);
    const stoppedBody = JSON.parse(t.sent.at(-1)?.body ?? '{}');
    expect(stoppedBody).toEqual({
      event: 'TRACKING_STOPPED',
      data: { number: n, carrier: 3011, param: null, tag: 'st' },
    });
    const count = t.sent.length;
    await advanceBy(t, 10 * DAY, DAY);
    expect(t.sent.length).toBe(count);
  });

  it('delivered: 15 days without an update → Expired', async () => {
    const t = makeAccount();
    const n = findNumber(3011, { scenario: 'delivered' }) as string;
    t.v2('register', [{ number: n }]);
    const stopAt = Math.max(START, lastEventMs(n)) + EXPIRY_AFTER_DELIVERY_MS;
    await t.advance(stopAt - START - 1);
    expect(record(t, n)).toMatchObject({ tracking_status: 'Tracking', package_status: 'Delivered' });
    await t.advance(1);
    expect(record(t, n)).toMatchObject({
      tracking_status: 'Stopped',
      stop_track_reason: 'Expired',
      stop_track_time: iso(stopAt),
    });
  });

  it('never found: 30 days from the tracking start', async () => {
    const t = makeAccount();
    const n = findNumber(3011, { scenario: 'not_found' }) as string;
    t.v2('register', [{ number: n }]);
    await t.advance(EXPIRY_MS);
    expect(record(t, n)).toMatchObject({
      tracking_status: 'Stopped',
      stop_track_reason: 'Expired',
      stop_track_time: iso(START + EXPIRY_MS),
      package_status: 'NotFound',
    });
  });

  it('invalid number: stopped InvalidCarrier after 3 days, without notification', async () => {
    const t = makeAccount({ settings: HOOK });
    const n = findNumber(3011, { scenario: 'invalid_code' }) as string;
    t.v2('register', [{ number: n }]);
    await t.advance(HOUR);
    expect(t.v2('gettrackinfo', [{ number: n }]).data.accepted[0].track_info.latest_status.sub_status).toBe(
      'NotFound_InvalidCode',
    );
    await t.advance(3 * DAY);
    expect(record(t, n)).toMatchObject({
      tracking_status: 'Stopped',
      stop_track_reason: 'InvalidCarrier',
      stop_track_time: iso(START + 3 * DAY),
    });
    expect(events(t, n)).toEqual(['TRACKING_UPDATED']);
    expect(t.v1('gettracklist', {}).data.accepted[0].sr).toBe(4);
  });

  it('retrack after expiry: tracking again, 30 days counted from the retrack', async () => {
    const t = makeAccount();
    const n = findNumber(3011, { scenario: 'not_found' }) as string;
    t.v2('register', [{ number: n }]);
    await t.advance(EXPIRY_MS + DAY);
    const retrackAt = t.now();
    expect(t.v2('retrack', [{ number: n }]).data.accepted).toHaveLength(1);
    await t.advance(EXPIRY_MS - 1);
    expect(record(t, n)).toMatchObject({ tracking_status: 'Tracking', is_retracked: true });
    await t.advance(1);
    expect(record(t, n)).toMatchObject({ tracking_status: 'Stopped', stop_track_time: iso(retrackAt + EXPIRY_MS) });
  });
});

describe('retention', () => {
  it('a stopped record is deleted 90 days after its stop', async () => {
    const t = makeAccount();
    const n = chinaPost(5);
    t.v2('register', [{ number: n }]);
    t.v2('stoptrack', [{ number: n }]);
    await t.advance(RETENTION_MS - 1);
    expect(record(t, n)).toMatchObject({ tracking_status: 'Stopped' });
    await t.advance(1);
    expect(record(t, n)).toBeUndefined();
    expect(t.account.stats().records).toBe(0);
    // Registering again is a new registration, charged again.
    expect(t.v2('register', [{ number: n }]).data.accepted).toHaveLength(1);
    expect(t.v2('getquota', []).data.quota_used).toBe(2);
  });

  it('an expired record is deleted 90 days after it stopped', async () => {
    const t = makeAccount();
    const n = findNumber(3011, { scenario: 'not_found' }) as string;
    t.v2('register', [{ number: n }]);
    await t.advance(EXPIRY_MS + RETENTION_MS - 1);
    expect(record(t, n)).toBeDefined();
    await t.advance(1);
    expect(record(t, n)).toBeUndefined();
  });
});

describe('clock jumps and saved state', () => {
  const numbers = [
    ...Array.from({ length: 12 }, (_, i) => sampleNumber(3011, i)),
    ...Array.from({ length: 6 }, (_, i) => sampleNumber(190012, i)),
    ...Array.from({ length: 6 }, (_, i) => sampleNumber(100002, i)),
  ];

  function fresh(): TestAccount {
    const t = makeAccount();
    t.v21(
      'register',
      numbers.slice(0, 12).map((number) => ({ number })),
    );
    t.v21(
      'register',
      numbers.slice(12).map((number) => ({ number, lang: 'fr' })),
    );
    return t;
  }

  function list(t: TestAccount): Json[] {
    return t.v21('gettracklist', {}).data.accepted;
  }

  it('one jump of 50 days gives the same records as ticking hour by hour', async () => {
    const stepped = fresh();
    await advanceBy(stepped, 50 * DAY, HOUR);
    const jumped = fresh();
    await jumped.advance(50 * DAY);
    expect(list(jumped)).toEqual(list(stepped));
    // (today_used differs: units that fall due during a jump count on the day they are processed.)
    expect(jumped.v2('getquota', []).data.quota_used).toBe(stepped.v2('getquota', []).data.quota_used);
    const stopped = list(jumped).filter((r) => r.tracking_status === 'Stopped');
    expect(stopped.length).toBeGreaterThan(0);
  });

  it('toJSON → new Account continues exactly as the original', async () => {
    const a = fresh();
    await advanceBy(a, 9 * DAY, 6 * HOUR);
    a.v2('stoptrack', [{ number: numbers[0] }]);
    const state = JSON.parse(JSON.stringify(a.account.toJSON()));
    const b = makeAccount({ state, start: a.now() });
    expect(list(b)).toEqual(list(a));
    expect(b.v2('gettrackinfo', [{ number: numbers[3] }])).toEqual(a.v2('gettrackinfo', [{ number: numbers[3] }]));
    await a.advance(30 * DAY);
    await b.advance(30 * DAY);
    expect(list(b)).toEqual(list(a));
    expect(b.v2('getquota', []).data).toEqual(a.v2('getquota', []).data);
  });

  it('reset forgets records and usage', async () => {
    const t = fresh();
    await t.advance(HOUR);
    t.account.reset();
    expect(t.v2('gettracklist', {}).page.data_total).toBe(0);
    expect(t.v2('getquota', []).data.quota_used).toBe(0);
    expect(t.account.stats()).toMatchObject({ records: 0, queuedWebhooks: 0 });
    expect(t.v2('register', [{ number: numbers[0] }]).data.accepted).toHaveLength(1);
  });
});
