import { describe, expect, it } from 'vitest';
import { CUSTOMS_SUB_STATUSES, V1_PACKAGE_STATUS_CODE } from '@trk/service/vocabulary.js';
import type { TrackInfo, V1Track } from '@trk/service/types.js';
import { findCarrier } from '../../src/world/carriers.js';
import { findNumber, planShipment, sampleNumber } from '../../src/world/shipment.js';
import {
  ESTIMATE_SOURCE_OFFICIAL,
  ESTIMATE_SOURCE_SERVICE,
  nextChangeAfter,
  statusAt,
  timeMetricsAt,
  toV2SubStatus,
  trackInfoAt,
  v1TrackAt,
} from '../../src/world/track-info.js';
import { ev, fixtureJson, ms, shipment } from './helpers.js';

const NOW = ms('2026-07-10T12:00:00Z');
const START = Date.UTC(2026, 5, 20, 10, 0);
const DAY = 86_400_000;

const metrics = (events: ReturnType<typeof ev>[], now = NOW) => timeMetricsAt(shipment(events), now, now);

describe('time metrics (the five rules)', () => {
  const info = ev('2026-06-01T03:00:00Z', 'info');
  const pickup = ev('2026-06-03T23:30:00Z', 'pickedUp');
  const sorted = ev('2026-06-05T08:00:00Z', 'sorted');
  const departed = ev('2026-06-06T08:00:00Z', 'departed');
  const delivered = ev('2026-06-12T06:00:00Z', 'delivered');

  it('no result: days_after_order is the placeholder, the others 0', () => {
    expect(metrics([])).toEqual({
      days_after_order: '--',
      days_of_transit: 0,
      days_of_transit_done: 0,
      days_after_last_update: 0,
    });
  });

  it('rule 1: delivered counts delivery minus first event; otherwise now minus first event', () => {
    expect(metrics([info, pickup, sorted, delivered]).days_after_order).toBe(11);
    expect(metrics([info, pickup, sorted]).days_after_order).toBe(39);
  });

  it('rule 2: 0 when delivered or returned, else now minus last event', () => {
    expect(metrics([info, pickup, delivered]).days_after_last_update).toBe(0);
    expect(
      metrics([pickup, ev('2026-06-20T00:00:00Z', 'returning'), ev('2026-07-01T00:00:00Z', 'returned')])
        .days_after_last_update,
    ).toBe(0);
    expect(metrics([pickup, ev('2026-06-20T00:00:00Z', 'returning')]).days_after_last_update).toBe(20);
    expect(metrics([info, pickup, sorted]).days_after_last_update).toBe(35);
  });

  it('rule 3 (delivered), with a pickup: delivery minus pickup date', () => {
    const m = metrics([info, pickup, sorted, delivered]);
    expect(m.days_of_transit).toBe(9);
    expect(m.days_of_transit_done).toBe(9);
  });

  it('rule 3 (delivered), InfoReceived without pickup: delivery minus the first event after InfoReceived', () => {
    const m = metrics([info, sorted, departed, delivered]);
    expect(m.days_of_transit).toBe(7);
    expect(m.days_of_transit_done).toBe(7);
  });

  it('rule 3 (delivered), neither: delivery minus the first event', () => {
    const m = metrics([sorted, departed, delivered]);
    expect(m.days_of_transit).toBe(7);
    expect(m.days_of_transit_done).toBe(7);
  });

  it('rule 4 (not delivered), with a pickup: now minus pickup date', () => {
    expect(metrics([info, pickup, sorted]).days_of_transit).toBe(37);
  });

  it('rule 4 (not delivered), InfoReceived without pickup: now minus the first event after it', () => {
    expect(metrics([info, sorted, departed]).days_of_transit).toBe(35);
  });

  it('rule 4 (not delivered), InfoReceived as the only event: 0', () => {
    const m = metrics([info]);
    expect(m.days_of_transit).toBe(0);
    expect(m.days_after_order).toBe(39);
  });

  it('rule 4 (not delivered), neither: now minus the first event', () => {
    expect(metrics([sorted, departed]).days_of_transit).toBe(35);
  });

  it('rule 5: not delivered has no transit days done', () => {
    expect(metrics([info, pickup, sorted, departed]).days_of_transit_done).toBe(0);
  });

  it('counts calendar days, not 24-hour periods', () => {
    const late = ev('2026-06-01T23:50:00Z', 'pickedUp');
    const early = ev('2026-06-02T00:10:00Z', 'delivered');
    expect(metrics([late, early])).toMatchObject({ days_after_order: 1, days_of_transit: 1, days_of_transit_done: 1 });
    expect(metrics([late], ms('2026-06-02T00:05:00Z')).days_after_last_update).toBe(1);
  });

  it('only counts what is known at the tracking time, against the current date', () => {
    const s = shipment([info, pickup, sorted, delivered]);
    const m = timeMetricsAt(s, ms('2026-06-06T00:00:00Z'), NOW);
    expect(m.days_of_transit_done).toBe(0);
    expect(m.days_after_last_update).toBe(35);
  });
});

describe('statusAt', () => {
  const events = [
    ev('2026-06-01T03:00:00Z', 'info'),
    ev('2026-06-02T03:00:00Z', 'pickedUp'),
    ev('2026-06-04T03:00:00Z', 'customsProcessing'),
    ev('2026-06-08T03:00:00Z', 'delivered'),
  ];
  const s = shipment(events);

  it('is NotFound_Other before any event is known', () => {
    const snap = statusAt(s, ms('2026-05-31T00:00:00Z'));
    expect(snap).toMatchObject({
      status: 'NotFound',
      subStatus: 'NotFound_Other',
      eventCount: 0,
      firstEventMs: null,
      lastEventMs: null,
      latestEvent: null,
    });
    expect(snap.shippingCountry).toBeNull();
    expect(snap.nextChangeMs).toBe(events[0]!.atMs);
  });

  it('follows the latest known event', () => {
    const snap = statusAt(s, ms('2026-06-05T00:00:00Z'));
    expect(snap).toMatchObject({ status: 'InTransit', subStatus: 'InTransit_CustomsProcessing', eventCount: 3 });
    expect(snap.firstEventMs).toBe(events[0]!.atMs);
    expect(snap.lastEventMs).toBe(events[2]!.atMs);
    expect(snap.pickupMs).toBe(events[1]!.atMs);
    expect(snap.deliveredMs).toBeNull();
    expect(snap.transitStartMs).toBe(events[1]!.atMs);
    expect(snap.latestEventInfo).toBe('Customs clearance in progress');
    expect(snap.latestEventOffset).toBe(480);
    expect(snap.shippingCountry).toBe('CN');
    expect(snap.nextChangeMs).toBe(events[3]!.atMs);
  });

  it('ends delivered, and its fingerprint changes only with the result', () => {
    const a = statusAt(s, ms('2026-06-09T00:00:00Z'));
    expect(a).toMatchObject({
      status: 'Delivered',
      subStatus: 'Delivered_Other',
      deliveredMs: events[3]!.atMs,
      nextChangeMs: null,
    });
    expect(statusAt(s, ms('2026-06-20T00:00:00Z')).fingerprint).toBe(a.fingerprint);
    expect(statusAt(s, ms('2026-06-05T00:00:00Z')).fingerprint).not.toBe(a.fingerprint);
  });

  it('turns NotFound_InvalidCode once the carrier has said so', () => {
    const inv = shipment([], { invalidCodeAtMs: ms('2026-06-01T00:00:00Z'), startMs: ms('2026-06-01T00:00:00Z') });
    expect(statusAt(inv, ms('2026-05-31T00:00:00Z')).subStatus).toBe('NotFound_Other');
    expect(statusAt(inv, ms('2026-06-01T00:00:00Z'))).toMatchObject({
      status: 'NotFound',
      subStatus: 'NotFound_InvalidCode',
    });
    expect(nextChangeAfter(inv, ms('2026-05-31T00:00:00Z'))).toBe(ms('2026-06-01T00:00:00Z'));
    expect(nextChangeAfter(inv, ms('2026-06-01T00:00:00Z'))).toBeNull();
  });

  it('is cheap enough for 100,000 records', () => {
    // Generous bound: the point is microseconds, not milliseconds, per record. This process's CPU time, which
    // other processes on a busy machine do not stretch as they do the clock's.
    const t0 = process.cpuUsage();
    for (let i = 0; i < 5000; i++) statusAt(planShipment(sampleNumber(3011, i), 3011, START), START + 5 * DAY);
    const { user, system } = process.cpuUsage(t0);
    expect((user + system) / 1000 / 5000).toBeLessThan(0.2);
  });
});

describe('trackInfoAt', () => {
  const intlPostal = (() => {
    for (let i = 0; ; i++) {
      const n = sampleNumber(3011, i);
      const p = planShipment(n, 3011, START);
      if (p.route.length === 2 && p.scenario === 'delivered') return p;
    }
  })();
  const end = START + 60 * DAY;

  it('lists the destination provider first and the origin one second, events newest first', () => {
    const info = trackInfoAt(intlPostal, end, end, 'v2');
    const keys = info.tracking.providers.map((p) => p.provider.key);
    expect(keys).toEqual([intlPostal.route[1], 3011]);
    for (const p of info.tracking.providers) {
      const times = p.events.map((e) => Date.parse(e.time_utc!));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(p.provider.name).toBe(findCarrier(p.provider.key)!.name);
    }
    expect(info.tracking.providers[0]!.events[0]!.stage).toBe('Delivered');
    expect(info.tracking.providers[1]!.events.at(-1)!.description).toBe('收到电子信息，等待揽收');
  });

  it('lists only providers that reported events: the destination operator from its first event on', () => {
    const firstDest = intlPostal.events.find((e) => e.provider === intlPostal.route[1])!;
    const keysAt = (t: number) => trackInfoAt(intlPostal, t, t, 'v2').tracking.providers.map((p) => p.provider.key);
    expect(keysAt(firstDest.atMs - 1)).toEqual([3011]);
    expect(keysAt(firstDest.atMs)).toEqual([intlPostal.route[1], 3011]);
    // Before any event: the registered carrier alone, with no events.
    const before = trackInfoAt(intlPostal, intlPostal.events[0]!.atMs - 1, end, 'v2').tracking.providers;
    expect(before.map((p) => [p.provider.key, p.events.length])).toEqual([[3011, 0]]);
  });

  it('states every local time with its zone, postal operators included', () => {
    const info = trackInfoAt(intlPostal, end, end, 'v2.1');
    const events = info.tracking.providers.flatMap((p) => p.events.map((e) => [p.provider.key, e] as const));
    expect(events.length).toBeGreaterThan(3);
    for (const [key, e] of events) {
      expect(e.time_raw!.timezone, `${key}`).toMatch(/^[+-]\d{2}:\d{2}$/);
      expect(e.time_iso!.endsWith(e.time_raw!.timezone!)).toBe(true);
    }
    expect(events.find(([key]) => key === 3011)![1].time_raw!.timezone).toBe('+08:00');
    for (const m of info.milestone) if (m.time_raw) expect(m.time_raw.timezone).toMatch(/^[+-]\d{2}:\d{2}$/);
  });

  it('fills shipper and recipient addresses from the places of the world', () => {
    for (let i = 0; i < 50; i++) {
      const p = planShipment(sampleNumber(190012, i), 190012, START);
      if (p.events.length === 0) continue;
      const { shipper_address: from, recipient_address: to } = trackInfoAt(p, end, end, 'v2').shipping_info;
      for (const a of [from!, to!]) {
        expect(a.city, `${p.number}`).toMatch(/\S/);
        expect(a.state).toMatch(/\S/);
        expect(a.postal_code).toMatch(/\S/);
      }
    }
    // A generic carrier's country has one city, without state or postal code.
    const spain = planShipment('ZQ100048K1', 100048, START);
    expect(spain.shipperAddress).toMatchObject({ country: 'ES', city: 'MADRID', state: null, postal_code: null });
  });

  it('has sub_status on events only in v2.1', () => {
    const v2 = trackInfoAt(intlPostal, end, end, 'v2');
    const v21 = trackInfoAt(intlPostal, end, end, 'v2.1');
    const all = (t: TrackInfo) => t.tracking.providers.flatMap((p) => p.events);
    expect(all(v2).length).toBeGreaterThan(3);
    for (const e of all(v2)) expect(e).not.toHaveProperty('sub_status');
    expect(v2.latest_event).not.toHaveProperty('sub_status');
    for (const e of all(v21)) expect(typeof e.sub_status).toBe('string');
    expect(v21.latest_event?.sub_status).toBe('Delivered_Other');
  });

  it('shows customs sub-statuses only in v2.1', () => {
    const s = shipment([ev('2026-06-01T03:00:00Z', 'pickedUp'), ev('2026-06-04T03:00:00Z', 'customsInfo')]);
    const v2 = trackInfoAt(s, NOW, NOW, 'v2');
    const v21 = trackInfoAt(s, NOW, NOW, 'v2.1');
    expect(v2.latest_status).toMatchObject({ status: 'InTransit', sub_status: 'InTransit_Other' });
    expect(v21.latest_status).toMatchObject({
      status: 'InTransit',
      sub_status: 'InTransit_CustomsRequiringInformation',
    });
    expect(v21.latest_status.sub_status_descr).toMatch(/customs/i);
    for (const c of CUSTOMS_SUB_STATUSES) expect(toV2SubStatus(c)).toBe('InTransit_Other');
    expect(toV2SubStatus('InTransit_Arrival')).toBe('InTransit_Arrival');
  });

  it('writes time_iso in the carrier offset and time_utc as the same instant', () => {
    const info = trackInfoAt(intlPostal, end, end, 'v2.1');
    for (const p of info.tracking.providers) {
      const offset = findCarrier(p.provider.key)!.utcOffsetMinutes;
      for (const e of p.events) {
        expect(e.time_utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(e.time_iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
        expect(Date.parse(e.time_iso!)).toBe(Date.parse(e.time_utc!));
        const suffix = e.time_iso!.slice(19);
        const sign = suffix.startsWith('-') ? -1 : 1;
        expect(sign * (Number(suffix.slice(1, 3)) * 60 + Number(suffix.slice(4, 6)))).toBe(offset);
        expect(`${e.time_raw!.date}T${e.time_raw!.time}`).toBe(e.time_iso!.slice(0, 19));
      }
    }
  });

  it('matches the recorded example for an event of an express carrier', () => {
    const s = shipment([ev('2026-06-29T13:05:00Z', 'arrived')]);
    const e = trackInfoAt(s, NOW, NOW, 'v2').latest_event!;
    expect(e.time_iso).toBe('2026-06-29T21:05:00+08:00');
    expect(e.time_utc).toBe('2026-06-29T13:05:00Z');
    expect(e.time_raw).toEqual({ date: '2026-06-29', time: '21:05:00', timezone: '+08:00' });
  });

  it('translates descriptions only when a language is asked for', () => {
    const plain = trackInfoAt(intlPostal, end, end, 'v2');
    expect(plain.latest_event!.description_translation).toBeNull();
    const de = trackInfoAt(intlPostal, end, end, 'v2', 'de');
    const origin = de.tracking.providers[1]!.events.at(-1)!;
    expect(origin.description).toBe('收到电子信息，等待揽收');
    expect(origin.description_translation).toEqual({
      lang: 'de',
      description: 'Die Sendung wurde elektronisch angekündigt',
    });
    expect(trackInfoAt(intlPostal, end, end, 'v2', 'xx').latest_event!.description_translation).toBeNull();
  });

  it('lists all key stages in order, null where not reached, return stages only for returns', () => {
    const s = shipment([ev('2026-06-01T03:00:00Z', 'pickedUp'), ev('2026-06-04T03:00:00Z', 'departed')]);
    const m = trackInfoAt(s, NOW, NOW, 'v2').milestone;
    expect(m.map((x) => x.key_stage)).toEqual([
      'InfoReceived',
      'PickedUp',
      'Departure',
      'Arrival',
      'OutForDelivery',
      'Delivered',
    ]);
    expect(m.map((x) => x.time_utc)).toEqual([null, '2026-06-01T03:00:00Z', '2026-06-04T03:00:00Z', null, null, null]);
    const r = shipment([
      ev('2026-06-01T03:00:00Z', 'pickedUp'),
      ev('2026-06-02T03:00:00Z', 'availableForPickup'),
      ev('2026-06-09T03:00:00Z', 'returning'),
    ]);
    const rm = trackInfoAt(r, NOW, NOW, 'v2').milestone;
    expect(rm.map((x) => x.key_stage)).toEqual([
      'InfoReceived',
      'PickedUp',
      'Departure',
      'Arrival',
      'AvailableForPickup',
      'OutForDelivery',
      'Delivered',
      'Returning',
      'Returned',
    ]);
    expect(rm.find((x) => x.key_stage === 'Returning')!.time_utc).toBe('2026-06-09T03:00:00Z');
    expect(rm.find((x) => x.key_stage === 'Returned')!.time_utc).toBeNull();
    expect(trackInfoAt(shipment([]), NOW, NOW, 'v2').milestone).toEqual([]);
  });

  it('knows nothing before the first event', () => {
    const info = trackInfoAt(intlPostal, intlPostal.events[0]!.atMs - 1, NOW, 'v2');
    expect(info.latest_status).toMatchObject({ status: 'NotFound', sub_status: 'NotFound_Other' });
    expect(info.latest_event).toBeNull();
    expect(info.time_metrics.days_after_order).toBe('--');
    expect(info.time_metrics.estimated_delivery_date).toEqual({ source: null, from: null, to: null });
    expect(info.shipping_info.shipper_address!.country).toBeNull();
    expect(info.tracking.providers.every((p) => p.events.length === 0)).toBe(true);
  });

  it('changes events_hash and providers_hash exactly when content changes', () => {
    const at = (t: number) => trackInfoAt(intlPostal, t, NOW, 'v2');
    const e = intlPostal.events;
    const a = at(e[1]!.atMs);
    const b = at(e[1]!.atMs + 1000);
    const c = at(e[2]!.atMs);
    expect(b.tracking.providers_hash).toBe(a.tracking.providers_hash);
    expect(c.tracking.providers_hash).not.toBe(a.tracking.providers_hash);
    const origin = (info: typeof a) => info.tracking.providers.find((p) => p.provider.key === intlPostal.route[0])!;
    expect(origin(c).events_hash).not.toBe(origin(a).events_hash);
    expect(Number.isInteger(c.tracking.providers_hash)).toBe(true);
    expect(trackInfoAt(intlPostal, e[2]!.atMs, NOW, 'v2', 'fr').tracking.providers_hash).toBe(
      c.tracking.providers_hash,
    );
  });

  it('carries the estimate as the service, the carrier or nobody gives it', () => {
    const sources = new Set<string | null>();
    for (let i = 0; i < 200; i++) {
      const p = planShipment(sampleNumber(190012, i), 190012, START);
      if (p.events.length === 0) continue;
      const est = trackInfoAt(p, START + 40 * DAY, START + 40 * DAY, 'v2').time_metrics.estimated_delivery_date;
      sources.add(est.source);
      if (est.source !== null) {
        expect(est.from).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00[+-]\d{2}:\d{2}$/);
        expect(Date.parse(est.to!)).toBeGreaterThanOrEqual(Date.parse(est.from!));
      }
    }
    expect([...sources].sort()).toEqual([ESTIMATE_SOURCE_SERVICE, ESTIMATE_SOURCE_OFFICIAL, null].sort());
  });

  it('has the fields of the recorded gettrackinfo answers', () => {
    const fixture = fixtureJson<{ data: { accepted: Array<{ track_info: Record<string, unknown> }> } }>(
      'doc-v2/gettrackinfo_correios_2151.json',
    );
    const want = fixture.data.accepted[0]!.track_info;
    const got = trackInfoAt(intlPostal, end, end, 'v2.1') as unknown as Record<string, Record<string, unknown>>;
    for (const key of Object.keys(want)) expect(got).toHaveProperty(key);
    for (const part of ['time_metrics', 'misc_info', 'latest_status'] as const) {
      for (const key of Object.keys(want[part] as object)) expect(got[part]).toHaveProperty(key);
    }
    const wantEvent = Object.keys(want.latest_event as object);
    for (const key of wantEvent) expect(got.latest_event).toHaveProperty(key);
    expect(got.misc_info!.local_key).toBe(intlPostal.route[1]);
  });
});

describe('v1TrackAt', () => {
  const fixture = fixtureJson<{ data: { accepted: Array<{ track: Record<string, unknown> }> } }>(
    'real-v1/gettrackinfo_success_response.json',
  );
  const recorded = fixture.data.accepted[0]!.track;

  it('has every field of the recorded v1 track, with the same types', () => {
    const plan = planShipment(findNumber(3011, { scenario: 'delivered' })!, 3011, START);
    const t = v1TrackAt(plan, START + 60 * DAY, START + 60 * DAY) as Record<string, unknown>;
    for (const [key, value] of Object.entries(recorded)) {
      expect(t, key).toHaveProperty(key);
      if (key === 'zex' || key === 'z0') continue;
      expect(typeof t[key], key).toBe(typeof value);
    }
    // zex as the live service sends it in gettrackinfo: the same keys in the same order, of the same types.
    const zex = t.zex as Record<string, unknown>;
    const recordedZex = recorded.zex as Record<string, unknown>;
    expect(Object.keys(zex)).toEqual(Object.keys(recordedZex));
    for (const [key, value] of Object.entries(recordedZex)) expect(typeof zex[key], `zex.${key}`).toBe(typeof value);
    const event = (t.z1 as Array<Record<string, unknown>>)[0]!;
    expect(Object.keys(event).sort()).toEqual(['a', 'b', 'c', 'd', 'z']);
    expect(event.a).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it('gives zex the recorded webhook shape in webhook bodies: numbers, no pickup nor return', () => {
    const hook = fixtureJson<{ data: { track: { zex: Record<string, unknown> } } }>(
      'webhooks/v1-tracking-updated.json',
    );
    const plan = planShipment(findNumber(3011, { scenario: 'delivered' })!, 3011, START);
    const zex = v1TrackAt(plan, START + 60 * DAY, START + 60 * DAY, 'webhook').zex as Record<string, unknown>;
    expect(Object.keys(zex)).toEqual(Object.keys(hook.data.track.zex));
    for (const [key, value] of Object.entries(hook.data.track.zex))
      expect(typeof zex[key], `zex.${key}`).toBe(typeof value);
  });

  it('fills zex from the story: first event, transit start, pickup, delivery, latest event', () => {
    const plan = planShipment(findNumber(3011, { scenario: 'delivered' })!, 3011, START);
    const end = START + 60 * DAY;
    const zex = v1TrackAt(plan, end, end).zex as Record<string, unknown>;
    const events = plan.events;
    const delivered = events.find((e) => e.subStatus === 'Delivered_Other')!;
    const pickup = events.find((e) => e.subStatus === 'InTransit_PickedUp');
    expect(zex).toMatchObject({ trN: '', trC: 0, psex: 4001, pickup: pickup !== undefined, return: 0 });
    expect(zex.dt).toBe(String(events[0]!.atMs));
    expect(zex.dtD).toBe(String(delivered.atMs));
    expect(zex.dtL).toBe(String(events.at(-1)!.atMs));
    expect(zex.dtP).toBe(String(pickup?.atMs ?? 0));
    // Before any event every time is 0, and nothing is delivered.
    expect(v1TrackAt(plan, events[0]!.atMs - 1, end).zex).toMatchObject({ psex: 0, pickup: false, dt: '0', dtL: '0' });
  });

  it('splits events by carrier, newest first, and marks the delivery', () => {
    let plan = planShipment(sampleNumber(3011, 0), 3011, START);
    for (let i = 1; !(plan.route.length === 2 && plan.scenario === 'delivered'); i++)
      plan = planShipment(sampleNumber(3011, i), 3011, START);
    const end = START + 60 * DAY;
    const t: V1Track = v1TrackAt(plan, end, end);
    expect(t.w1).toBe(3011);
    expect(t.w2).toBe(plan.route[1]);
    expect(t.b).toBe(301);
    expect(t.e).toBe(40);
    expect(t.f).toBe(timeMetricsAt(plan, end, end).days_of_transit_done);
    expect(t.z1.length + t.z2.length).toBe(plan.events.length);
    expect(t.z0).toEqual(t.z2[0]);
    expect(t.z1.map((e) => e.a)).toEqual([...t.z1.map((e) => e.a)].sort().reverse());
    expect(t.is1).toBe(1);
    expect(t.is2).toBe(1);
    expect(t.ln1).toBe('zh-CHS');
    expect(t.ylt1).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(t.hs).not.toBe(0);
  });

  it('answers a single-carrier parcel with an empty second slot', () => {
    const plan = planShipment(findNumber(100003, { scenario: 'stalled' })!, 100003, START);
    const end = START + 60 * DAY;
    const t = v1TrackAt(plan, end, end);
    expect(t).toMatchObject({
      w1: 100003,
      w2: 0,
      z2: [],
      is2: 0,
      ylt2: '2079-01-01 00:00:00',
      ygt2: 0,
      f: -1,
      z9: [],
      yt: '',
    });
    expect(t.e).toBe(V1_PACKAGE_STATUS_CODE.InTransit);
  });

  it('answers not found before any event', () => {
    const plan = planShipment(findNumber(100003, { scenario: 'not_found' })!, 100003, START);
    const t = v1TrackAt(plan, START + DAY, START + DAY);
    expect(t).toMatchObject({ e: 0, f: -1, z0: {}, z1: [], is1: 2, b: 0, c: 0, hs: 0 });
  });
});
