// The webhook queue: bodies and signatures of every version, retries 600/1800/3600 s, push fields.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findNumber } from '../src/world/index.js';
import { DAY, HOUR, type Json, SEC, START, type TestAccount, chinaPost, makeAccount } from './account-fixture.js';

const HOOK = 'http://127.0.0.1:1/hook';
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const DELIVERED = findNumber(3011, { scenario: 'delivered' }) as string;

function firstResult(version: 'v1' | 'v2' | 'v2.1', overrides: Record<string, unknown> = {}): Promise<TestAccount> {
  const t = makeAccount({ settings: { webhookUrl: HOOK, ...overrides } });
  const item = version === 'v1' ? { number: DELIVERED, carrier: 3011, tag: 't1' } : { number: DELIVERED, tag: 't1' };
  t.call(version, 'register', [item]);
  return t.advance(30 * SEC).then(() => t);
}

describe('bodies and signatures', () => {
  it('v2: {event, data{number, carrier, param, tag, track_info}}, header sign = sha256(body/key)', async () => {
    const t = await firstResult('v2');
    expect(t.sent).toHaveLength(1);
    const d = t.sent[0] as Json;
    expect(d.url).toBe(HOOK);
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.headers.sign).toBe(sha(`${d.body}/test-key`));
    expect(d.headers.sign).toMatch(/^[0-9a-f]{64}$/);
    const body = JSON.parse(d.body);
    expect(Object.keys(body)).toEqual(['event', 'data']);
    expect(body.event).toBe('TRACKING_UPDATED');
    expect(Object.keys(body.data)).toEqual(['number', 'carrier', 'param', 'tag', 'track_info']);
    expect(body.data.track_info).toEqual(t.v2('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track_info);
  });

  it('v2.1: the v2.1 track_info (events with sub_status)', async () => {
    const t = await firstResult('v2.1');
    const body = JSON.parse(t.sent[0]?.body ?? '{}');
    expect(body.data.track_info).toEqual(t.v21('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track_info);
  });

  it('v1: {event, sign, data{number, tag, track}}, sign = sha256(event/data/key), no header', async () => {
    const t = await firstResult('v1');
    const d = t.sent[0] as Json;
    expect(d.headers.sign).toBeUndefined();
    const body = JSON.parse(d.body);
    expect(Object.keys(body)).toEqual(['event', 'sign', 'data']);
    expect(Object.keys(body.data)).toEqual(['number', 'tag', 'track']);
    // As a receiver checks it: the compact JSON of data, field order as sent.
    expect(body.sign).toBe(sha(`TRACKING_UPDATED/${JSON.stringify(body.data)}/test-key`));
    // The same track as gettrackinfo answers, except zex: numbers there, without pickup and return (as recorded).
    const { zex, ...track } = body.data.track;
    const { zex: answered, ...answeredTrack } = t.v1('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track;
    expect(track).toEqual(answeredTrack);
    const { pickup: _pickup, return: _return, ...answeredTimes } = answered;
    expect(zex).toEqual(
      Object.fromEntries(Object.entries(answeredTimes).map(([k, v]) => [k, /^dt/.test(k) ? Number(v) : v])),
    );
  });

  it('settings.webhookVersion overrides the version of registration', async () => {
    const t = await firstResult('v2', { webhookVersion: 'v1' });
    const body = JSON.parse(t.sent[0]?.body ?? '{}');
    expect(body).toHaveProperty('sign');
    expect(body.data).toHaveProperty('track');
  });

  it('TRACKING_STOPPED in v1: {number, carrier, tag}', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    const n = findNumber(3011, { scenario: 'not_found' }) as string;
    t.v1('register', [{ number: n, carrier: 3011, tag: 'x' }]);
    await t.advance(31 * DAY);
    const body = JSON.parse(t.sent.at(-1)?.body ?? '{}');
    expect(body.event).toBe('TRACKING_STOPPED');
    expect(body.data).toEqual({ number: n, carrier: 3011, tag: 'x' });
    expect(body.sign).toBe(sha(`TRACKING_STOPPED/${JSON.stringify(body.data)}/test-key`));
  });

  it('a change of key signs later bodies with the new key', async () => {
    const t = await firstResult('v2');
    t.account.settings.key = 'new-key';
    t.v2('push', [{ number: DELIVERED }]);
    await t.account.tick();
    const d = t.sent.at(-1) as Json;
    expect(d.headers.sign).toBe(sha(`${d.body}/new-key`));
  });
});

describe('delivery policy', () => {
  it('failures are retried after 600, 1800 and 3600 s, then abandoned', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    const times: number[] = [];
    t.webhookStatus = () => {
      times.push(t.now());
      return 503;
    };
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30 * SEC);
    const first = times[0] as number;
    expect(t.v2('gettracklist', {}).data.accepted[0]).toMatchObject({
      push_status: 'Failure',
      push_status_code: 503,
      push_time: new Date(first).toISOString().replace('.000Z', 'Z'),
    });
    expect(t.account.stats().queuedWebhooks).toBe(1);
    // Tick every minute for two hours and a half: three retries at their times, then nothing.
    for (let i = 0; i < 150; i++) await t.advance(60 * SEC);
    const gaps = times.slice(1).map((x, i) => x - (times[i] as number));
    // Each retry falls on the first tick at or after its due time.
    expect(times).toHaveLength(4);
    expect(gaps[0]).toBeGreaterThanOrEqual(600 * SEC);
    expect(gaps[0]).toBeLessThan(660 * SEC);
    expect(gaps[1]).toBeGreaterThanOrEqual(1800 * SEC);
    expect(gaps[1]).toBeLessThan(1860 * SEC);
    expect(gaps[2]).toBeGreaterThanOrEqual(3600 * SEC);
    expect(gaps[2]).toBeLessThan(3660 * SEC);
    expect(t.account.stats().queuedWebhooks).toBe(0);
    const log = t.account.deliveries().map((d) => d.attempt);
    expect(log).toEqual([1, 2, 3, 4]);
  });

  it('a retry that succeeds ends the series and sets Success', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    let calls = 0;
    t.webhookStatus = () => (++calls === 2 ? 200 : 500);
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30 * SEC);
    await t.advance(600 * SEC);
    expect(calls).toBe(2);
    await t.advance(3 * HOUR);
    expect(calls).toBe(2);
    expect(t.v2('gettracklist', {}).data.accepted[0]).toMatchObject({ push_status: 'Success', push_status_code: 200 });
    expect(t.v2('gettracklist', { push_status: 'Success' }).page.data_total).toBe(1);
    expect(t.v2('gettracklist', { push_status_code: 200 }).page.data_total).toBe(1);
  });

  it('a network failure (0 or a thrown error) is a failure with code 0', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    t.webhookStatus = () => {
      throw new Error('ECONNREFUSED');
    };
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30 * SEC);
    expect(t.v2('gettracklist', {}).data.accepted[0]).toMatchObject({ push_status: 'Failure', push_status_code: 0 });
  });

  it('without a URL nothing is queued; changes after the URL is set are sent', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30 * SEC);
    expect(t.account.stats().queuedWebhooks).toBe(0);
    expect(t.v2('gettracklist', {}).data.accepted[0]).toMatchObject({
      push_status: 'NotPushed',
      push_time: null,
      push_status_code: null,
    });
    t.account.settings.webhookUrl = HOOK;
    await t.advance(8 * DAY);
    expect(t.sent.length).toBeGreaterThan(0);
    expect(JSON.parse(t.sent[0]?.body ?? '{}').event).toBe('TRACKING_UPDATED');
  });

  it('a queued notification of a deleted record is dropped', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    t.v2('register', [{ number: DELIVERED }]);
    t.setTime(START + 30 * SEC);
    t.v2('gettracklist', {}); // requests bring the schedule up to date: the first result is queued
    expect(t.account.stats().queuedWebhooks).toBe(1);
    t.v2('deletetrack', [{ number: DELIVERED }]);
    await t.account.tick();
    expect(t.sent).toEqual([]);
  });

  it('a jump sends the updates of a record in order, TRACKING_STOPPED last', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    const stalled = findNumber(3011, { scenario: 'stalled' }) as string;
    t.v2('register', [{ number: stalled }, { number: chinaPost(2) }]);
    await t.advance(60 * DAY);
    const mine = t.sent.map((d) => JSON.parse(d.body)).filter((b) => b.data.number === stalled);
    expect(mine.map((b) => b.event).at(-1)).toBe('TRACKING_STOPPED');
    expect(mine.filter((b) => b.event === 'TRACKING_UPDATED').length).toBeGreaterThan(0);
    const counts = mine
      .filter((b) => b.event === 'TRACKING_UPDATED')
      .map((b) => b.data.track_info.tracking.providers.flatMap((p: Json) => p.events).length);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('no automatic TRACKING_UPDATED after TRACKING_STOPPED, not even a retry still queued', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    const n = findNumber(3011, { scenario: 'not_found' }) as string;
    let failUpdates = true;
    t.webhookStatus = (d) => (failUpdates && JSON.parse(d.body).event === 'TRACKING_UPDATED' ? 500 : 200);
    t.v2('register', [{ number: n }]);
    await t.advance(30 * SEC); // first result: attempt 1 fails, retry due in 600 s
    await t.advance(30 * DAY); // one tick: attempt 2 fails (retry due in 1800 s), then TRACKING_STOPPED
    const sent = (): string[] => t.sent.map((d) => JSON.parse(d.body).event);
    expect(sent()).toEqual(['TRACKING_UPDATED', 'TRACKING_UPDATED', 'TRACKING_STOPPED']);
    expect(t.account.stats().queuedWebhooks).toBe(1);
    failUpdates = false;
    t.v2('retrack', [{ number: n }]);
    await t.advance(HOUR); // the retry falls due: dropped
    expect(sent()).toEqual(['TRACKING_UPDATED', 'TRACKING_UPDATED', 'TRACKING_STOPPED']);
    expect(t.account.stats().queuedWebhooks).toBe(0);
    // A manual push is still sent.
    t.v2('push', [{ number: n }]);
    await t.account.tick();
    expect(sent().at(-1)).toBe('TRACKING_UPDATED');
  });
});

describe('stats', () => {
  it('counts records, tracking, queued webhooks and keeps the delivery history', async () => {
    const t = makeAccount({ settings: { webhookUrl: HOOK } });
    t.v2('register', [{ number: chinaPost(1) }, { number: chinaPost(2) }]);
    t.v2('stoptrack', [{ number: chinaPost(2) }]);
    t.setTime(START + 20 * SEC);
    t.v2('getquota', []);
    expect(t.account.stats()).toMatchObject({ records: 2, tracking: 1, stopped: 1, queuedWebhooks: 1, quotaUsed: 2 });
    await t.account.tick();
    expect(t.account.stats()).toMatchObject({ queuedWebhooks: 0 });
    expect(t.account.deliveries()).toEqual([
      {
        timeMs: START + 20 * SEC,
        event: 'TRACKING_UPDATED',
        number: chinaPost(1),
        carrier: 3011,
        attempt: 1,
        status: 200,
        url: HOOK,
      },
    ]);
  });
});
