// What public clients of the service meet (issue: "the emulator and real clients"): a number without a first
// result is rejected -18019909 by gettrackinfo; v1's z0 is {} without events; gettracklist's page_no 0 and
// carrier 0 mean "not set"; v2.2 to v2.4 answer with the fields the service's newer documentation shows.

import { describe, expect, it } from 'vitest';
import { findNumber } from '../src/world/index.js';
import { fixtureJson } from '../../../test/fixture-files.js';
import { HOUR, makeAccount } from './account-fixture.js';

const DELIVERED = findNumber(3011, { scenario: 'delivered' }) as string;
const NOT_FOUND = findNumber(3011, { scenario: 'not_found' }) as string;
const NO_RESULT = { code: -18019909, message: 'no tracking information yet' };

describe('gettrackinfo before the first tracking result', () => {
  it('v2 and v2.1: rejected -18019909, with the carrier and tag of the record', () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED, tag: 'o-1' }]);
    for (const version of ['v2', 'v2.1', 'v2.4'] as const) {
      expect(t.call(version, 'gettrackinfo', [{ number: DELIVERED }]).data).toEqual({
        accepted: [],
        rejected: [{ number: DELIVERED, carrier: 3011, tag: 'o-1', error: NO_RESULT }],
      });
    }
  });

  it('v1: rejected {number, error} -18019909', () => {
    const t = makeAccount();
    t.v1('register', [{ number: DELIVERED, carrier: 3011 }]);
    expect(t.v1('gettrackinfo', [{ number: DELIVERED }]).data).toEqual({
      accepted: [],
      rejected: [{ number: DELIVERED, error: NO_RESULT }],
    });
  });

  it('accepted once the first run is in; numbers of one request are answered each on its own', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30_000);
    t.v2('register', [{ number: NOT_FOUND }]);
    const env = t.v2('gettrackinfo', [{ number: DELIVERED }, { number: NOT_FOUND }]);
    expect(env.data.accepted.map((a: { number: string }) => a.number)).toEqual([DELIVERED]);
    expect(env.data.rejected).toEqual([{ number: NOT_FOUND, carrier: 3011, tag: null, error: NO_RESULT }]);
    await t.advance(30_000);
    // A first result without events (NotFound) is a result.
    const later = t.v2('gettrackinfo', [{ number: NOT_FOUND }]).data.accepted[0];
    expect(later.track_info.latest_status.status).toBe('NotFound');
  });

  it('after a carrier change, until the new carrier first answers', async () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED }]);
    await t.advance(30_000);
    expect(t.v2('changecarrier', [{ number: DELIVERED, carrier_new: 21051 }]).data.accepted).toHaveLength(1);
    expect(t.v2('gettrackinfo', [{ number: DELIVERED }]).data.rejected[0].error).toEqual(NO_RESULT);
    await t.advance(30_000);
    expect(t.v2('gettrackinfo', [{ number: DELIVERED }]).data.accepted).toHaveLength(1);
  });
});

describe("v1's z0 without events", () => {
  it('is {} (as the recorded live answer), not null; with events it is the latest one', async () => {
    const t = makeAccount();
    t.v1('register', [
      { number: NOT_FOUND, carrier: 3011 },
      { number: DELIVERED, carrier: 3011 },
    ]);
    await t.advance(30 * HOUR);
    const [none, some] = t.v1('gettrackinfo', [{ number: NOT_FOUND }, { number: DELIVERED }]).data.accepted;
    expect(none.track.z0).toEqual({});
    expect(none.track.z1).toEqual([]);
    expect(some.track.z0).toEqual(some.track.z1[0] ?? some.track.z2[0]);
  });
});

describe('gettracklist: zero values mean "not set"', () => {
  it('page_no 0 is the first page (a Go client sends 0 for unset); a negative one is still refused', () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED }]);
    for (const version of ['v1', 'v2', 'v2.1'] as const) {
      const env = t.call(version, 'gettracklist', { page_no: 0 });
      expect(env.code, version).toBe(0);
      expect(env.page).toMatchObject({ page_no: 1, data_total: 1 });
      expect(env.data.accepted).toHaveLength(1);
      expect(t.call(version, 'gettracklist', { page_no: '0' }).page.page_no).toBe(1);
    }
    expect(t.v2('gettracklist', { page_no: -1 }).code).toBe(-18010015);
  });

  it('carrier 0 in the filter is absent (every carrier), as elsewhere in the emulator', () => {
    const t = makeAccount();
    t.v2('register', [{ number: DELIVERED }, { number: 'RR123456789US', carrier: 21051 }]);
    for (const version of ['v1', 'v2', 'v2.1'] as const) {
      expect(t.call(version, 'gettracklist', { carrier: 0 }).page.data_total, version).toBe(2);
      expect(t.call(version, 'gettracklist', { carrier: '0' }).page.data_total, version).toBe(2);
      expect(t.call(version, 'gettracklist', { carrier: 21051 }).page.data_total, version).toBe(1);
    }
  });
});

describe('v2.2 to v2.4: the fields of the newer documentation', () => {
  const newerItem = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0];
  const newerRecord = fixtureJson('doc-v2/gettracklist_page.json').data.accepted[0];

  async function tracked() {
    const t = makeAccount();
    t.call('v2.2', 'register', [{ number: DELIVERED, tag: 'o-1' }]);
    await t.advance(30 * HOUR);
    return t;
  }

  it.each(['v2.2', 'v2.3', 'v2.4'] as const)('%s gettrackinfo: the newer item fields, in order', async (version) => {
    const t = await tracked();
    const item = t.call(version, 'gettrackinfo', [{ number: DELIVERED }]).data.accepted[0];
    expect(Object.keys(item)).toEqual(Object.keys(newerItem));
    expect(item).toMatchObject({ number: DELIVERED, carrier: 3011, tag: 'o-1', lang: null, origin_country: null });
    const provider = item.track_info.tracking.providers[0];
    expect(Object.keys(provider)).toEqual(Object.keys(newerItem.track_info.tracking.providers[0]));
    expect(provider.provider_tips).toBeNull();
  });

  it('description_translation is an object: the record lang once charged, else English', async () => {
    const t = await tracked();
    const info = t.call('v2.2', 'gettrackinfo', [{ number: DELIVERED }]).data.accepted[0].track_info;
    const events = info.tracking.providers.flatMap((p: { events: unknown[] }) => p.events);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.description_translation).toEqual({ lang: 'en', description: expect.any(String) });
    t.call('v2.2', 'register', [{ number: NOT_FOUND, lang: 'de' }]);
    await t.advance(30 * HOUR);
    const item = t.call('v2.2', 'gettrackinfo', [{ number: NOT_FOUND }]).data.accepted[0];
    expect(item.lang).toBe('de');
  });

  it('gettracklist records carry sync_status after track_time, as the newer documentation shows', async () => {
    const t = await tracked();
    const rec = t.call('v2.3', 'gettracklist', {}).data.accepted[0];
    const expected = Object.keys(newerRecord);
    expect(Object.keys(rec).filter((k) => expected.includes(k))).toEqual(expected);
    expect(rec.sync_status).toBe(true);
  });

  it('v2.1 answers stay as the spec describes them', async () => {
    const t = await tracked();
    const item = t.v21('gettrackinfo', [{ number: DELIVERED }]).data.accepted[0];
    expect(Object.keys(item)).toEqual(['number', 'carrier', 'param', 'tag', 'track_info']);
    expect(item.track_info.tracking.providers[0]).not.toHaveProperty('provider_tips');
    expect(item.track_info.latest_event.description_translation).toBeNull();
    expect(t.v21('gettracklist', {}).data.accepted[0]).not.toHaveProperty('sync_status');
  });

  it('real time on a later version answers with the same fields', async () => {
    const t = await tracked();
    const item = t.call('v2.4', 'getRealTimeTrackInfo', [{ number: DELIVERED }]).data.accepted[0];
    expect(Object.keys(item)).toEqual(Object.keys(newerItem));
    expect(item.track_info.tracking.providers[0]).toHaveProperty('provider_tips', null);
  });
});
