// What the service can say about a shipment at a given moment. `knownUntilMs` is the time of the latest
// tracking run: events up to it are known, later ones not yet. `nowMs` is the current time, which only the
// day counts of the time metrics use. All builders are pure.

import type { ApiVersion, PackageStatus } from '@trk/service/vocabulary.js';
import {
  CUSTOMS_SUB_STATUSES,
  KEY_STAGES,
  LANGUAGES,
  SUB_STATUSES_V2,
  V1_PACKAGE_STATUS_CODE,
  mainStatusOf,
} from '@trk/service/vocabulary.js';
import type {
  Address,
  Milestone,
  Provider,
  TimeMetrics,
  TimeRaw,
  TrackEvent,
  TrackInfo,
  V1Event,
  V1Track,
} from '@trk/service/types.js';
import type { SimCarrier } from './carriers.js';
import { findCarrier } from './carriers.js';
import type { TextLang } from './phrases.js';
import { PHRASES, SUB_STATUS_DESCR, v1LangCode } from './phrases.js';
import { v1CountryCode } from './places.js';
import { fnv1a, signed32 } from './random.js';
import type { Shipment, SimEvent } from './shipment.js';
import { isoAtOffset, isoUtc, localMidnight, localParts, offsetText, utcDay, v1EventTime, v1UtcTime } from './time.js';

/** `estimated_delivery_date.source` when the service made the estimate itself (its own name, as it sends it). */
export const ESTIMATE_SOURCE_SERVICE = '17TRACK';
/** `estimated_delivery_date.source` when the carrier supplied the estimate. */
export const ESTIMATE_SOURCE_OFFICIAL = 'Official';
/** v1's "invalid / never" time. */
export const V1_INVALID_TIME = '2079-01-01 00:00:00';

const CUSTOMS: ReadonlySet<string> = new Set(CUSTOMS_SUB_STATUSES);

// mainStatusOf walks the vocabulary; statusAt runs for every record at every tracking run, so look up instead.
const MAIN_OF: ReadonlyMap<string, PackageStatus> = new Map(
  [...Object.values(SUB_STATUSES_V2).flat(), ...CUSTOMS_SUB_STATUSES].map((sub) => [
    sub,
    mainStatusOf(sub) as PackageStatus,
  ]),
);

function mainOf(subStatus: string): PackageStatus {
  return MAIN_OF.get(subStatus) ?? 'NotFound';
}

/** v2 knows no customs sub-statuses: they read as InTransit_Other there. */
export function toV2SubStatus(subStatus: string): string {
  return CUSTOMS.has(subStatus) ? 'InTransit_Other' : subStatus;
}

function subStatusFor(version: ApiVersion, subStatus: string): string {
  return version === 'v2.1' ? subStatus : toV2SubStatus(subStatus);
}

// ---- status ----

/** The stored result of a tracking run, in the terms the account keeps and lists. */
export interface StatusSnapshot {
  status: PackageStatus;
  /** v2.1 vocabulary (customs included); see toV2SubStatus for v2. */
  subStatus: string;
  /** Events known. */
  eventCount: number;
  latestEvent: SimEvent | null;
  /** Description of the latest event (gettracklist `latest_event_info`). */
  latestEventInfo: string | null;
  /** UTC offset (minutes) of the carrier that reported the latest event: its `time_iso` carries it. */
  latestEventOffset: number | null;
  firstEventMs: number | null;
  lastEventMs: number | null;
  /** First InTransit_PickedUp event (`pickup_time`); null when the carrier never reported a pickup. */
  pickupMs: number | null;
  /** The Delivered_Other event (`delievery_time`). */
  deliveredMs: number | null;
  /** The date transit days count from (time metric rules 3 and 4); null when they are 0 by rule. */
  transitStartMs: number | null;
  /** Countries are known once the carrier has answered with events. */
  shippingCountry: string | null;
  recipientCountry: string | null;
  /** Changes exactly when the result changes (a TRACKING_UPDATED is due). */
  fingerprint: string;
  /** Time of the next event the carrier will report (or of the invalid-number answer); null when none will. */
  nextChangeMs: number | null;
}

function knownCount(shipment: Shipment, knownUntilMs: number): number {
  const ev = shipment.events;
  let n = 0;
  while (n < ev.length && (ev[n] as SimEvent).atMs <= knownUntilMs) n++;
  return n;
}

/** Earliest time after `afterMs` at which what the service knows changes; null when it never will. */
export function nextChangeAfter(shipment: Shipment, afterMs: number): number | null {
  for (const e of shipment.events) if (e.atMs > afterMs) return e.atMs;
  const inv = shipment.invalidCodeAtMs;
  return inv !== null && inv > afterMs ? inv : null;
}

interface Marks {
  pickup: SimEvent | null;
  delivered: SimEvent | null;
  transitStart: SimEvent | null;
}

function marks(events: readonly SimEvent[], count: number): Marks {
  let pickup: SimEvent | null = null;
  let delivered: SimEvent | null = null;
  let infoIndex = -1;
  for (let i = 0; i < count; i++) {
    const e = events[i] as SimEvent;
    if (pickup === null && e.subStatus === 'InTransit_PickedUp') pickup = e;
    if (delivered === null && e.subStatus === 'Delivered_Other') delivered = e;
    if (infoIndex < 0 && e.subStatus === 'InfoReceived') infoIndex = i;
  }
  let transitStart: SimEvent | null;
  if (pickup) transitStart = pickup;
  else if (infoIndex >= 0) transitStart = infoIndex + 1 < count ? (events[infoIndex + 1] as SimEvent) : null;
  else transitStart = count > 0 ? (events[0] as SimEvent) : null;
  return { pickup, delivered, transitStart };
}

/** What the service has stored after a tracking run at `knownUntilMs`. Before any event: NotFound_Other. */
export function statusAt(shipment: Shipment, knownUntilMs: number): StatusSnapshot {
  const count = knownCount(shipment, knownUntilMs);
  const events = shipment.events;
  const latest = count > 0 ? (events[count - 1] as SimEvent) : null;
  const invalid = count === 0 && shipment.invalidCodeAtMs !== null && shipment.invalidCodeAtMs <= knownUntilMs;
  const subStatus = latest ? latest.subStatus : invalid ? 'NotFound_InvalidCode' : 'NotFound_Other';
  const m = marks(events, count);
  return {
    status: mainOf(subStatus),
    subStatus,
    eventCount: count,
    latestEvent: latest,
    latestEventInfo: latest ? latest.description : null,
    latestEventOffset: latest ? offsetOf(latest.provider) : null,
    firstEventMs: count > 0 ? (events[0] as SimEvent).atMs : null,
    lastEventMs: latest ? latest.atMs : null,
    pickupMs: m.pickup ? m.pickup.atMs : null,
    deliveredMs: m.delivered ? m.delivered.atMs : null,
    transitStartMs: m.transitStart ? m.transitStart.atMs : null,
    shippingCountry: count > 0 ? shipment.originCountry : null,
    recipientCountry: count > 0 ? shipment.destinationCountry : null,
    fingerprint: `${count}|${subStatus}`,
    nextChangeMs: nextChangeAfter(shipment, knownUntilMs),
  };
}

// ---- time metrics ----

export interface DayMetrics {
  /** `--` when there is no result. */
  days_after_order: number | '--';
  days_of_transit: number;
  days_of_transit_done: number;
  days_after_last_update: number;
}

/**
 * The four day counts, by the service's five rules. Dates are compared as UTC calendar days (the service
 * states every time in UTC); `nowMs` is the current date.
 */
export function timeMetricsAt(shipment: Shipment, knownUntilMs: number, nowMs: number): DayMetrics {
  return dayMetrics(shipment.events, knownCount(shipment, knownUntilMs), nowMs);
}

function dayMetrics(events: readonly SimEvent[], count: number, nowMs: number): DayMetrics {
  if (count === 0) {
    return { days_after_order: '--', days_of_transit: 0, days_of_transit_done: 0, days_after_last_update: 0 };
  }
  const first = (events[0] as SimEvent).atMs;
  const last = events[count - 1] as SimEvent;
  const m = marks(events, count);
  const days = (from: number, to: number): number => utcDay(to) - utcDay(from);
  const delivered = mainOf(last.subStatus) === 'Delivered' && m.delivered !== null;
  if (delivered) {
    const at = (m.delivered as SimEvent).atMs;
    const transit = m.transitStart ? days(m.transitStart.atMs, at) : 0;
    return {
      days_after_order: days(first, at),
      days_of_transit: transit,
      days_of_transit_done: transit,
      days_after_last_update: 0,
    };
  }
  return {
    days_after_order: days(first, nowMs),
    days_of_transit: m.transitStart ? days(m.transitStart.atMs, nowMs) : 0,
    days_of_transit_done: 0,
    days_after_last_update: last.subStatus === 'Exception_Returned' ? 0 : days(last.atMs, nowMs),
  };
}

// ---- track_info ----

function carrierOf(key: number): SimCarrier | undefined {
  return findCarrier(key);
}

function offsetOf(providerKey: number): number {
  return carrierOf(providerKey)?.utcOffsetMinutes ?? 0;
}

function copyAddress(a: Address): Address {
  return {
    country: a.country,
    state: a.state,
    city: a.city,
    street: a.street,
    postal_code: a.postal_code,
    coordinates: a.coordinates ? { longitude: a.coordinates.longitude, latitude: a.coordinates.latitude } : null,
  };
}

const EMPTY_ADDRESS: Address = Object.freeze({
  country: null,
  state: null,
  city: null,
  street: null,
  postal_code: null,
  coordinates: Object.freeze({ longitude: null, latitude: null }),
});

function timeRaw(ms: number, provider: SimCarrier | undefined): TimeRaw {
  const offset = provider?.utcOffsetMinutes ?? 0;
  const { date, time } = localParts(ms, offset);
  // The local time as the carrier states it, with the zone it is in (as the service's examples show, postal
  // operators included).
  return { date, time, timezone: offsetText(offset) };
}

const TRANSLATION_LANGS: ReadonlySet<string> = new Set(LANGUAGES);

function translationOf(e: SimEvent, lang: string | undefined): TrackEvent['description_translation'] {
  if (lang === undefined || !TRANSLATION_LANGS.has(lang)) return null;
  const description = e.phrase ? PHRASES[e.phrase].text[lang as TextLang] : e.description;
  return { lang, description };
}

function eventOut(e: SimEvent, version: ApiVersion, lang: string | undefined): TrackEvent {
  const provider = carrierOf(e.provider);
  const offset = provider?.utcOffsetMinutes ?? 0;
  const base = {
    time_iso: isoAtOffset(e.atMs, offset),
    time_utc: isoUtc(e.atMs),
    time_raw: timeRaw(e.atMs, provider),
    description: e.description,
    description_translation: translationOf(e, lang),
    location: e.location,
    stage: e.stage,
  };
  const address = copyAddress(e.address);
  return version === 'v2.1' ? { ...base, sub_status: e.subStatus, address } : { ...base, address };
}

/** Content hash of events: equal content, equal hash; the translation does not count. */
function eventsHash(events: readonly SimEvent[]): number {
  let h = 0x811c9dc5;
  for (const e of events) h = fnv1a(`${e.atMs}|${e.subStatus}|${e.description}|${e.location ?? ''}|`, h);
  return h | 0;
}

/**
 * All key stages in the suggested order, null times for the ones not reached. AvailableForPickup appears
 * once the parcel reached a pickup point; Returning and Returned once a return started. Empty before any event.
 */
function milestones(known: readonly SimEvent[]): Milestone[] {
  if (known.length === 0) return [];
  const firstOf = new Map<string, SimEvent>();
  for (const e of known) if (e.stage !== null && !firstOf.has(e.stage)) firstOf.set(e.stage, e);
  const returning = firstOf.has('Returning') || firstOf.has('Returned');
  const out: Milestone[] = [];
  for (const stage of KEY_STAGES) {
    if (stage === 'AvailableForPickup' && !firstOf.has(stage)) continue;
    if ((stage === 'Returning' || stage === 'Returned') && !returning) continue;
    const e = firstOf.get(stage);
    const provider = e ? carrierOf(e.provider) : undefined;
    out.push({
      key_stage: stage,
      time_iso: e ? isoAtOffset(e.atMs, provider?.utcOffsetMinutes ?? 0) : null,
      time_utc: e ? isoUtc(e.atMs) : null,
      time_raw: e ? timeRaw(e.atMs, provider) : null,
    });
  }
  return out;
}

function providerInfo(key: number): Provider['provider'] {
  const c = carrierOf(key);
  return {
    key,
    name: c?.name ?? null,
    alias: c?.alias ?? null,
    tel: c?.tel ?? null,
    homepage: c?.homepage ?? null,
    country: c?.country ?? null,
  };
}

/** The last-mile provider: the destination operator of a two-provider route, else the carrier itself. */
function lastMileKey(shipment: Shipment): number {
  return shipment.route[shipment.route.length - 1] ?? shipment.carrier;
}

function estimateOut(shipment: Shipment, known: boolean): TimeMetrics['estimated_delivery_date'] {
  const est = shipment.estimate;
  if (!known || !est) return { source: null, from: null, to: null };
  const offset = offsetOf(lastMileKey(shipment));
  return {
    source: est.source === 'service' ? ESTIMATE_SOURCE_SERVICE : ESTIMATE_SOURCE_OFFICIAL,
    from: isoAtOffset(localMidnight(est.fromMs, offset), offset),
    to: isoAtOffset(localMidnight(est.toMs, offset), offset),
  };
}

function miscInfo(shipment: Shipment, known: boolean): Record<string, unknown> {
  const local = lastMileKey(shipment);
  return {
    risk_factor: known ? shipment.riskFactor : 0,
    service_type: known ? shipment.serviceType : null,
    weight_raw: known && shipment.weightKg !== null ? `${shipment.weightKg} kg` : null,
    weight_kg: known ? shipment.weightKg : null,
    pieces: known && shipment.pieces !== null ? String(shipment.pieces) : null,
    dimensions: known ? shipment.dimensions : null,
    customer_number: null,
    reference_number: known ? shipment.referenceNumber : null,
    local_number: known ? shipment.number : null,
    local_provider: known ? (carrierOf(local)?.name ?? null) : null,
    local_key: known ? local : null,
  };
}

/** How an answer is shaped beyond its version. */
export interface TrackInfoOptions {
  /**
   * The fields of the service's newer documentation (v2.2 to v2.4, see packages/sandbox/README.md): providers carry
   * `provider_tips` in that documentation's order, and every event a `description_translation` object (English
   * when no translation language is set, as its examples show).
   */
  newerFields?: boolean;
}

/**
 * `track_info` as gettrackinfo (and TRACKING_UPDATED) return it after a tracking run at `knownUntilMs`.
 * v2 events carry no `sub_status` and customs sub-statuses read as InTransit_Other; v2.1 has both.
 * `lang` (a translation language) adds `description_translation` to events; without it that field is null.
 */
export function trackInfoAt(
  shipment: Shipment,
  knownUntilMs: number,
  nowMs: number,
  version: 'v2' | 'v2.1',
  lang?: string | null,
  opts: TrackInfoOptions = {},
): TrackInfo {
  const count = knownCount(shipment, knownUntilMs);
  const known = shipment.events.slice(0, count);
  const snap = statusAt(shipment, knownUntilMs);
  const l = lang ?? (opts.newerFields ? 'en' : undefined);
  const hasResult = count > 0;
  const invalid = snap.subStatus === 'NotFound_InvalidCode';

  // Answers list the destination operator first, then the origin one; only providers that reported events, as
  // the live service does (a postal item's destination operator appears with its first event). With no event at
  // all, the registered carrier alone, so that the answer still says who was asked.
  const reporting = [...shipment.route].reverse().filter((key) => known.some((e) => e.provider === key));
  const providerKeys = reporting.length > 0 ? reporting : [shipment.carrier];
  const providers: Provider[] = providerKeys.map((key) => {
    const own = known.filter((e) => e.provider === key);
    const c = carrierOf(key);
    const provider = providerInfo(key);
    const service_type = key === shipment.carrier && hasResult ? shipment.serviceType : null;
    const latest_sync_status = invalid ? 'Failure' : 'Success';
    const latest_sync_time = isoUtc(knownUntilMs);
    const provider_lang = c ? c.lang : null;
    const events_hash = eventsHash(own);
    const events = own.map((e) => eventOut(e, version, l)).reverse();
    if (opts.newerFields) {
      // In the newer documentation's order, with provider_tips (the carrier's notes: the simulation has none).
      return {
        provider,
        service_type,
        latest_sync_status,
        latest_sync_time,
        provider_lang,
        provider_tips: null,
        events_hash,
        events,
      };
    }
    return { provider, provider_lang, service_type, latest_sync_status, latest_sync_time, events_hash, events };
  });
  const providersHash = signed32(providers.map((p) => `${p.provider.key}:${p.events_hash}`).join(','));

  return {
    shipping_info: {
      shipper_address: copyAddress(hasResult ? shipment.shipperAddress : EMPTY_ADDRESS),
      recipient_address: copyAddress(hasResult ? shipment.recipientAddress : EMPTY_ADDRESS),
    },
    latest_status: {
      status: snap.status,
      sub_status: subStatusFor(version, snap.subStatus),
      sub_status_descr: SUB_STATUS_DESCR[subStatusFor(version, snap.subStatus)] ?? null,
    },
    latest_event: snap.latestEvent ? eventOut(snap.latestEvent, version, l) : null,
    time_metrics: {
      ...dayMetrics(shipment.events, count, nowMs),
      estimated_delivery_date: estimateOut(shipment, hasResult),
    },
    milestone: milestones(known),
    misc_info: miscInfo(shipment, hasResult),
    tracking: { providers_hash: providersHash, providers },
  };
}

// ---- v1 ----

function v1Event(e: SimEvent): V1Event {
  return {
    a: v1EventTime(e.atMs, offsetOf(e.provider)),
    b: null,
    c: e.location ?? '',
    d: e.address.postal_code ?? '',
    z: e.description,
  };
}

/** Where a v1 `track` goes: a gettrackinfo answer, or a TRACKING_UPDATED webhook body. */
export type V1TrackForm = 'answer' | 'webhook';

/**
 * v1 `zex`, in the shape the live service sends: the spec names only trN/trC ("not yet enabled"), the recorded
 * answers carry more. Times are epoch ms, as strings in gettrackinfo answers and as numbers (without `pickup`
 * and `return`) in webhook bodies, exactly as recorded; 0 where there is no such time. The meanings are the
 * emulator's reading of the recordings: dt the first event, dtS the start of transit (else the first event), dtP
 * the pickup, dtD the delivery, dtL the latest event; psex 4001 once delivered (Delivered_Other, the one value
 * recorded), else 0; pickup whether the carrier reported a pickup; return 1 while returning, 2 once returned.
 */
function v1Extension(
  shipment: Shipment,
  count: number,
  snap: StatusSnapshot,
  form: V1TrackForm,
): Record<string, unknown> {
  const events = shipment.events;
  const m = marks(events, count);
  const first = count > 0 ? (events[0] as SimEvent).atMs : 0;
  const times = {
    dt: first,
    dtS: m.transitStart?.atMs ?? first,
    dtP: m.pickup?.atMs ?? 0,
    dtD: m.delivered?.atMs ?? 0,
    dtL: snap.lastEventMs ?? 0,
  };
  const psex = snap.status === 'Delivered' ? 4001 : 0;
  if (form === 'webhook') return { trN: '', trC: 0, psex, ...times };
  const ret = snap.subStatus === 'Exception_Returning' ? 1 : snap.subStatus === 'Exception_Returned' ? 2 : 0;
  const text = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, String(v)]));
  return { trN: '', trC: 0, psex, pickup: m.pickup !== null, return: ret, ...text };
}

/**
 * The v1 `track` object after a tracking run at `knownUntilMs`. `f` is the number of transit days of a
 * delivered parcel (days_of_transit_done), -1 otherwise; `ygt*` are simulated query durations in ms;
 * `ylt*` the last tracking time in UTC, `2079-01-01 00:00:00` for a carrier slot that is not used.
 */
export function v1TrackAt(
  shipment: Shipment,
  knownUntilMs: number,
  nowMs: number,
  form: V1TrackForm = 'answer',
): V1Track {
  const count = knownCount(shipment, knownUntilMs);
  const known = shipment.events.slice(0, count);
  const snap = statusAt(shipment, knownUntilMs);
  const w1 = shipment.route[0] ?? shipment.carrier;
  const w2 = shipment.route[1] ?? 0;
  const z1 = known.filter((e) => e.provider === w1).reverse();
  const z2 = w2 === 0 ? [] : known.filter((e) => e.provider === w2).reverse();
  const invalid = snap.subStatus === 'NotFound_InvalidCode';
  const trackState = (events: readonly SimEvent[]): number => (invalid ? 0 : events.length > 0 ? 1 : 2);
  const lang = (key: number, events: readonly SimEvent[]): string | null => {
    const c = carrierOf(key);
    return events.length > 0 && c ? v1LangCode(c.lang) : null;
  };
  const duration = (key: number): number => 120 + (fnv1a(`${shipment.number}|${key}|${knownUntilMs}`) % 1400);
  const latest = snap.latestEvent;
  const metrics = dayMetrics(shipment.events, count, nowMs);
  return {
    w1,
    w2,
    b: count > 0 ? v1CountryCode(shipment.originCountry) : 0,
    c: count > 0 ? v1CountryCode(shipment.destinationCountry) : 0,
    e: V1_PACKAGE_STATUS_CODE[snap.status],
    f: snap.status === 'Delivered' ? metrics.days_of_transit_done : -1,
    // The live service answers {} for a number without events (test/fixtures/real-v1), not null.
    z0: latest ? v1Event(latest) : {},
    z1: z1.map(v1Event),
    z2: z2.map(v1Event),
    z9: [],
    ygt1: duration(w1),
    ygt2: w2 === 0 ? 0 : duration(w2),
    ygt9: 0,
    ylt1: v1UtcTime(knownUntilMs),
    ylt2: w2 === 0 ? V1_INVALID_TIME : v1UtcTime(knownUntilMs),
    ylt9: V1_INVALID_TIME,
    is1: trackState(z1),
    is2: w2 === 0 ? 0 : trackState(z2),
    ln1: lang(w1, z1),
    ln2: w2 === 0 ? null : lang(w2, z2),
    ln9: null,
    hs: latest ? signed32(`${latest.atMs}|${latest.provider}|${latest.description}|${latest.location ?? ''}`) : 0,
    yt: '',
    zex: v1Extension(shipment, count, snap, form),
  };
}
