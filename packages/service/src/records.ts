// Version-independent views of what the service sends, so that tables, CSV and the tracking page show the same
// fields whatever the API version: v2/v2.1 records and details are read by name, v1's short fields (w1, e, z1...)
// are mapped onto the same names. Input is untrusted JSON: every field is read defensively, unknown codes are kept
// raw (`e: 5000` → "5000"), and nothing here throws on odd shapes.

import {
  CUSTOMS_SUB_STATUSES,
  V1_CARRIER_TRACKING_STATUS,
  V1_PACKAGE_STATUS,
  V1_STOP_REASON,
  type ApiVersion,
} from './vocabulary.js';
import { epochOf, isoWithOffset, toIsoUtc } from './times.js';
import {
  COLUMN_FIELDS,
  RECORD_FIELD_NAMES,
  recordFieldSpec,
  type ColumnField,
  type RecordField,
  type RecordFieldValues,
} from './record-fields.js';

/** A carrier code: an integer, or the raw text when the service sent something that is not one. */
export type CarrierCode = number | string;

/** Optional lookups supplied by the reference-list module (v1 sends numeric country keys). */
export interface ViewOptions {
  /** Numeric country key of the service's country list → ISO 3166-1 code or name. */
  countryName?: (key: number) => string | undefined;
}

// ---- defensive readers ----

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
}

/** A string field; numbers become text; empty strings and anything else become null. */
function str(o: Obj, k: string): string | null {
  const v = o[k];
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function num(o: Obj, k: string): number | null {
  const v = o[k];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return null;
}

function bool(o: Obj, k: string): boolean | null {
  const v = o[k];
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  return null;
}

/** Carrier codes were zero-padded strings in old lists: `"03011"` → 3011; other text is kept raw. */
export function toCarrierCode(v: unknown): CarrierCode | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return null;
    return /^\d+$/.test(t) ? Number.parseInt(t, 10) : t;
  }
  return null;
}

/** v1 countries are numeric keys of the service's country list; 0 means none. */
function v1Country(v: unknown, opts: ViewOptions): string | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
  if (n === null) return typeof v === 'string' && v !== '' ? v : null;
  if (n === 0) return null;
  return opts.countryName?.(n) ?? String(n);
}

/** v1 package status code → v2 main status name; unknown codes are shown as the raw number. */
export function v1StatusName(e: unknown): string | null {
  if (typeof e !== 'number') return typeof e === 'string' && e !== '' ? e : null;
  return V1_PACKAGE_STATUS[e] ?? String(e);
}

/** Whether an item has v1's short-field shape; the version is the hint, the fields decide. */
function looksV1(o: Obj, version: ApiVersion, v2Field: string): boolean {
  if (v2Field in o) return false;
  return version === 'v1' || 'w1' in o || 'track' in o || 'e' in o;
}

// ---- registration records (gettracklist) ----

/** A record as trk reads it: the fields of record-fields.ts that list shows, as sent, and those derived here. */
export interface RecordView extends ViewFieldValues {
  number: string;
  carrier: CarrierCode | null;
  final_carrier: CarrierCode | null;
  /** Main package status name, or the raw code when unknown. */
  status: string | null;
  /** Tracking or Stopped. */
  tracking: string | null;
  registered: string | null;
  tracked: string | null;
  pushed: string | null;
  push_status: string | null;
  push_code: number | null;
  stopped: string | null;
  stop_reason: string | null;
  retracked: boolean | null;
  carrier_changes: number | null;
  origin_country: string | null;
  destination_country: string | null;
  // v2.1 only; null for other versions.
  latest_event_time: string | null;
  latest_event: string | null;
  delivered: string | null;
}

/** The view's fields of record-fields.ts (those with a list column). */
export type ViewFieldValues = Pick<RecordFieldValues, ColumnField>;

type FieldReadings = Record<string, string | number | null>;

/** `fields` of record-fields.ts as a record of `shape` carries them. */
function readFields(o: Obj, shape: 'v1' | 'v2', fields: readonly RecordField[]): FieldReadings {
  const out: FieldReadings = {};
  for (const field of fields) {
    const spec = recordFieldSpec(field);
    const name = spec.wire[shape];
    out[field] = name === undefined ? null : spec.kind === 'count' ? num(o, name) : str(o, name);
  }
  return out;
}

/** Every field of record-fields.ts of a gettracklist item of any version, as sent (the mirror keeps them all). */
export function recordFields(item: unknown, version: ApiVersion): RecordFieldValues {
  const o = obj(item);
  return readFields(o, looksV1(o, version, 'package_status') ? 'v1' : 'v2', RECORD_FIELD_NAMES) as RecordFieldValues;
}

/** A gettracklist item of any version as the common record view. */
export function toRecordView(item: unknown, version: ApiVersion, opts: ViewOptions = {}): RecordView {
  const o = obj(item);
  return looksV1(o, version, 'package_status') ? v1Record(o, opts) : v2Record(o);
}

function v2Record(o: Obj): RecordView {
  return {
    number: str(o, 'number') ?? '',
    carrier: toCarrierCode(o.carrier),
    final_carrier: toCarrierCode(o.final_carrier),
    status: str(o, 'package_status'),
    tracking: str(o, 'tracking_status'),
    registered: str(o, 'register_time'),
    tracked: str(o, 'track_time'),
    pushed: str(o, 'push_time'),
    push_status: str(o, 'push_status'),
    push_code: num(o, 'push_status_code'),
    stopped: str(o, 'stop_track_time'),
    stop_reason: str(o, 'stop_track_reason'),
    retracked: bool(o, 'is_retracked'),
    carrier_changes: num(o, 'carrier_change_count'),
    origin_country: str(o, 'shipping_country'),
    destination_country: str(o, 'recipient_country'),
    latest_event_time: str(o, 'latest_event_time'),
    latest_event: str(o, 'latest_event_info'),
    // The field name is spelled so by the service.
    delivered: str(o, 'delievery_time'),
    // The service's placeholder `--` (no result) reads as null.
    ...(readFields(o, 'v2', COLUMN_FIELDS) as ViewFieldValues),
  };
}

/** v1's list times, UTC by the spec but written `YYYY-MM-DD HH:MM:SS`. */
const V1_RECORD_TIMES = ['rt', 'tt', 'pt', 'st'] as const;

/**
 * A gettracklist item as JSON prints it: as sent, except that v1's times gain the `T` and `Z` the spec implies
 * (`2022-03-07 17:22:53` → `2022-03-07T17:22:53Z`), so that every time trk prints in JSON is ISO 8601 with an
 * offset. v2 items are returned untouched.
 */
export function recordForJson(item: unknown, version: ApiVersion): unknown {
  const o = obj(item);
  if (!looksV1(o, version, 'package_status')) return item;
  const out: Obj = { ...o };
  for (const k of V1_RECORD_TIMES) if (typeof o[k] === 'string' && o[k] !== '') out[k] = toIsoUtc(o[k]);
  return out;
}

function v1Record(o: Obj, opts: ViewOptions): RecordView {
  const ts = o.ts;
  const tracking = ts === true || ts === 1 ? 'Tracking' : ts === false || ts === 0 ? 'Stopped' : null;
  const sr = num(o, 'sr');
  // `ps` is the webhook's HTTP status. v1 lists no push state of its own, so it is derived the way v2 defines it:
  // 200 is success, any other status a failed push. Without a push time, 0 (or nothing) means never pushed; with
  // one, 0 is a push that got no HTTP answer at all (v2 reports that as Failure with code 0).
  const ps = num(o, 'ps');
  const pushed = toIsoUtc(str(o, 'pt'));
  const pushCode = pushed === null && (ps === null || ps === 0) ? null : ps;
  const pushStatus =
    pushCode === null ? (pushed === null ? 'NotPushed' : null) : pushCode === 200 ? 'Success' : 'Failure';
  return {
    number: str(o, 'number') ?? '',
    carrier: toCarrierCode(o.w1),
    final_carrier: toCarrierCode(o.w2),
    status: v1StatusName(o.e),
    tracking,
    registered: toIsoUtc(str(o, 'rt')),
    tracked: toIsoUtc(str(o, 'tt')),
    pushed,
    push_status: pushStatus,
    push_code: pushCode,
    stopped: toIsoUtc(str(o, 'st')),
    stop_reason: sr === null ? null : (V1_STOP_REASON[sr] ?? String(sr)),
    // v1 calls `ir` "retrack enabled"; it is the nearest thing to v2's is_retracked.
    retracked: bool(o, 'ir'),
    carrier_changes: num(o, 'mc'),
    origin_country: v1Country(o.b, opts),
    destination_country: v1Country(o.c, opts),
    latest_event_time: null,
    latest_event: null,
    delivered: null,
    ...(readFields(o, 'v1', COLUMN_FIELDS) as ViewFieldValues),
  };
}

// ---- tracking details (gettrackinfo, getRealTimeTrackInfo, TRACKING_UPDATED) ----

export interface EventView {
  /** Epoch ms for ordering; null when the time does not parse. */
  at: number | null;
  time_iso: string | null;
  time_utc: string | null;
  /** Carrier's original time (`date time timezone`), or v1's `a` string as given. */
  time_raw: string | null;
  /** Whether the raw time carried a zone (false: the zone of time_iso was added by the service). */
  raw_has_zone: boolean;
  description: string;
  translation: string | null;
  location: string | null;
  stage: string | null;
  /** v2.1 per-event sub-status. */
  sub_status: string | null;
  /** Carriers that reported the event (both for postal shipments when they repeat it). */
  providers: ProviderRef[];
}

export interface ProviderRef {
  key: CarrierCode | null;
  name: string | null;
}

export interface ProviderView extends ProviderRef {
  service_type: string | null;
  latest_sync_status: string | null;
  latest_sync_time: string | null;
  events: number;
}

export interface MilestoneView {
  key_stage: string;
  time_iso: string | null;
  time_utc: string | null;
  time_raw: string | null;
  /** Reported as happened (any of the times present). */
  done: boolean;
}

export interface MetricsView {
  days_after_order: number | null;
  days_of_transit: number | null;
  days_of_transit_done: number | null;
  days_after_last_update: number | null;
  eta_from: string | null;
  eta_to: string | null;
  eta_source: string | null;
}

export interface PlaceView {
  country: string | null;
  state: string | null;
  city: string | null;
  postal_code: string | null;
}

export interface DetailsView {
  version: 'v1' | 'v2';
  number: string;
  carrier: CarrierCode | null;
  /** Last-mile carrier (v2 misc_info.local_key when different, v1 w2); null when none. */
  final_carrier: CarrierCode | null;
  param: string | null;
  tag: string | null;
  /** Main status name, or the raw code/text when unknown. */
  status: string | null;
  sub_status: string | null;
  sub_status_descr: string | null;
  latest_event: EventView | null;
  origin: PlaceView;
  destination: PlaceView;
  /** All providers' events merged, newest first; repeats of postal shipments merged into one event. */
  events: EventView[];
  providers: ProviderView[];
  milestones: MilestoneView[];
  /** null for v1, which has none. */
  metrics: MetricsView | null;
  /** Delivery time from the Delivered milestone (raw time preferred, as the spec advises). */
  delivered: string | null;
  /** The same instant as ISO 8601 with an offset, when one is known (machine formats); null otherwise. */
  delivered_at: string | null;
  /** The carrier's own text of the delivery time (`date time timezone`), when it sent one. */
  delivered_raw: string | null;
  service_type: string | null;
  /** Events with a v2.1 customs sub-status, newest first. */
  customs: EventView[];
  /** True when the service has no tracking result yet (track_info null / no track object). */
  no_result: boolean;
}

export function isCustomsSubStatus(s: string | null | undefined): boolean {
  return s !== null && s !== undefined && (CUSTOMS_SUB_STATUSES as readonly string[]).includes(s);
}

function place(v: unknown, opts: ViewOptions, v1Code?: unknown): PlaceView {
  if (v1Code !== undefined) return { country: v1Country(v1Code, opts), state: null, city: null, postal_code: null };
  const a = obj(v);
  return {
    country: str(a, 'country'),
    state: str(a, 'state'),
    city: str(a, 'city'),
    postal_code: str(a, 'postal_code'),
  };
}

function rawTime(v: unknown): { text: string | null; zone: boolean } {
  if (!isObj(v)) return { text: null, zone: false };
  const date = str(v, 'date');
  const time = str(v, 'time');
  const tz = str(v, 'timezone');
  const text = [date, time, tz].filter((x) => x !== null).join(' ');
  return { text: text === '' ? null : text, zone: tz !== null };
}

function v2Event(v: unknown, provider: ProviderRef | null): EventView {
  const e = obj(v);
  const raw = rawTime(e.time_raw);
  const tr = obj(e.description_translation);
  const timeIso = str(e, 'time_iso');
  const timeUtc = str(e, 'time_utc');
  return {
    at: epochOf(timeUtc) ?? epochOf(timeIso) ?? epochOf(raw.text),
    time_iso: timeIso,
    time_utc: timeUtc,
    time_raw: raw.text,
    raw_has_zone: raw.zone,
    description: str(e, 'description') ?? '',
    translation: str(tr, 'description'),
    location: str(e, 'location'),
    stage: str(e, 'stage'),
    sub_status: str(e, 'sub_status'),
    providers: provider ? [provider] : [],
  };
}

function v1Event(v: unknown, provider: ProviderRef | null): EventView | null {
  const e = obj(v);
  const a = typeof e.a === 'string' ? e.a : null;
  const z = str(e, 'z');
  const loc = [str(e, 'c'), str(e, 'd')].filter((x) => x !== null).join(', ');
  if (z === null && (a === null || a === '') && loc === '') return null; // `z0: {}` means no event.
  return {
    at: epochOf(a),
    time_iso: null,
    time_utc: null,
    // v1 event times may not be valid times: kept as given.
    time_raw: a === '' ? null : a,
    raw_has_zone: false,
    description: z ?? '',
    translation: null,
    location: loc === '' ? null : loc,
    stage: null,
    sub_status: null,
    providers: provider ? [provider] : [],
  };
}

/**
 * Merge per-provider event lists into one list, newest first. Each provider's own order is kept (the service sends
 * them newest first; a list that is clearly oldest first is turned round), events without a usable time stay where
 * their provider put them, and the same event reported by two providers (postal shipments) appears once with both.
 */
export function mergeEvents(lists: EventView[][]): EventView[] {
  const queues = lists.map((l) => {
    const known = l.filter((e) => e.at !== null);
    const first = known[0]?.at;
    const last = known[known.length - 1]?.at;
    return first !== undefined && last !== undefined && first! < last! ? [...l].reverse() : [...l];
  });
  const out: EventView[] = [];
  const seen = new Map<string, EventView>();
  for (;;) {
    let pick = -1;
    for (let i = 0; i < queues.length; i++) {
      const head = queues[i]![0];
      if (!head) continue;
      if (head.at === null) {
        pick = i;
        break;
      }
      const best = pick < 0 ? undefined : queues[pick]![0];
      if (!best || (best.at !== null && head.at > best.at)) pick = i;
    }
    if (pick < 0) break;
    const ev = queues[pick]!.shift()!;
    const key = `${ev.time_utc ?? ev.time_iso ?? ev.time_raw ?? ''}\u0000${ev.description}\u0000${ev.location ?? ''}`;
    const twin = seen.get(key);
    if (twin) {
      for (const p of ev.providers) {
        if (!twin.providers.some((q) => q.key === p.key && q.name === p.name)) twin.providers.push(p);
      }
      continue;
    }
    const copy = { ...ev, providers: [...ev.providers] };
    seen.set(key, copy);
    out.push(copy);
  }
  return out;
}

/** A gettrackinfo / real-time item (or TRACKING_UPDATED data) of any version as the common details view. */
export function toDetailsView(item: unknown, version: ApiVersion, opts: ViewOptions = {}): DetailsView {
  const o = obj(item);
  return looksV1(o, version, 'track_info') ? v1Details(o, opts) : v2Details(o, opts);
}

function v2Details(o: Obj, opts: ViewOptions): DetailsView {
  const info = isObj(o.track_info) ? o.track_info : null;
  const ti = obj(info);
  const ship = obj(ti.shipping_info);
  const latest = obj(ti.latest_status);
  const misc = obj(ti.misc_info);
  const tracking = obj(ti.tracking);
  const providersRaw = Array.isArray(tracking.providers) ? tracking.providers : [];
  const providers: ProviderView[] = [];
  const lists: EventView[][] = [];
  for (const pv of providersRaw) {
    const p = obj(pv);
    const pinfo = obj(p.provider);
    const ref: ProviderRef = { key: toCarrierCode(pinfo.key), name: str(pinfo, 'name') };
    const evs = Array.isArray(p.events) ? p.events : [];
    providers.push({
      ...ref,
      service_type: str(p, 'service_type'),
      latest_sync_status: str(p, 'latest_sync_status'),
      latest_sync_time: str(p, 'latest_sync_time'),
      events: evs.length,
    });
    lists.push(evs.map((e) => v2Event(e, ref)));
  }
  const events = mergeEvents(lists);
  const milestones: MilestoneView[] = (Array.isArray(ti.milestone) ? ti.milestone : []).map((mv) => {
    const m = obj(mv);
    const raw = rawTime(m.time_raw);
    const time_iso = str(m, 'time_iso');
    const time_utc = str(m, 'time_utc');
    return {
      key_stage: str(m, 'key_stage') ?? '',
      time_iso,
      time_utc,
      time_raw: raw.text,
      done: time_iso !== null || time_utc !== null || raw.text !== null,
    };
  });
  const tm = isObj(ti.time_metrics) ? ti.time_metrics : null;
  const eta = obj(tm?.estimated_delivery_date);
  const metrics: MetricsView | null = tm
    ? {
        days_after_order: num(tm, 'days_after_order'),
        days_of_transit: num(tm, 'days_of_transit'),
        days_of_transit_done: num(tm, 'days_of_transit_done'),
        days_after_last_update: num(tm, 'days_after_last_update'),
        eta_from: str(eta, 'from'),
        eta_to: str(eta, 'to'),
        eta_source: str(eta, 'source'),
      }
    : null;
  const delivered = milestones.find((m) => m.key_stage === 'Delivered' && m.done);
  const carrier = toCarrierCode(o.carrier);
  const localKey = toCarrierCode(misc.local_key);
  const latestEvent = isObj(ti.latest_event) ? v2Event(ti.latest_event, null) : null;
  if (latestEvent) latestEvent.providers = events.find((e) => sameEvent(e, latestEvent))?.providers ?? [];
  return {
    version: 'v2',
    number: str(o, 'number') ?? '',
    carrier,
    final_carrier: toCarrierCode(o.final_carrier) ?? (localKey !== null && localKey !== carrier ? localKey : null),
    param: str(o, 'param'),
    tag: str(o, 'tag'),
    status: str(latest, 'status'),
    sub_status: str(latest, 'sub_status'),
    sub_status_descr: str(latest, 'sub_status_descr'),
    latest_event: latestEvent ?? events[0] ?? null,
    origin: place(ship.shipper_address, opts),
    destination: place(ship.recipient_address, opts),
    events,
    providers,
    milestones,
    metrics,
    delivered: delivered ? (delivered.time_raw ?? delivered.time_iso ?? delivered.time_utc) : null,
    // The raw time, when it names its zone, is the accurate one (the spec warns time_iso's zone may be wrong).
    delivered_at: delivered ? (isoWithOffset(delivered.time_raw) ?? delivered.time_iso ?? delivered.time_utc) : null,
    delivered_raw: delivered?.time_raw ?? null,
    service_type: str(misc, 'service_type') ?? providers.find((p) => p.service_type)?.service_type ?? null,
    customs: events.filter((e) => isCustomsSubStatus(e.sub_status)),
    no_result: info === null,
  };
}

function sameEvent(a: EventView, b: EventView): boolean {
  return (
    a.description === b.description &&
    a.time_iso === b.time_iso &&
    a.time_utc === b.time_utc &&
    a.time_raw === b.time_raw
  );
}

function v1Details(o: Obj, opts: ViewOptions): DetailsView {
  const hasTrack = isObj(o.track);
  const t = obj(o.track);
  const w1 = toCarrierCode(t.w1);
  const w2 = toCarrierCode(t.w2);
  const ref1: ProviderRef = { key: w1, name: null };
  const ref2: ProviderRef = { key: w2, name: null };
  // z9 is the cooperating e-commerce carrier; v1 names no code for it.
  const ref9: ProviderRef = { key: null, name: 'e-commerce carrier' };
  const list = (v: unknown, ref: ProviderRef) =>
    (Array.isArray(v) ? v : []).map((e) => v1Event(e, ref)).filter((e): e is EventView => e !== null);
  const z1 = list(t.z1, ref1);
  const z2 = list(t.z2, ref2);
  const z9 = list(t.z9, ref9);
  const events = mergeEvents([z1, z2, z9]);
  const providers: ProviderView[] = [];
  const provider = (ref: ProviderRef, n: number, status: unknown) =>
    providers.push({
      ...ref,
      service_type: null,
      // is1/is2: the carrier's tracking state, in words.
      latest_sync_status: typeof status === 'number' ? (V1_CARRIER_TRACKING_STATUS[status] ?? String(status)) : null,
      latest_sync_time: null,
      events: n,
    });
  if (w1 !== null && w1 !== 0) provider(ref1, z1.length, t.is1);
  if (w2 !== null && w2 !== 0) provider(ref2, z2.length, t.is2);
  if (z9.length > 0) provider(ref9, z9.length, undefined);
  const z0 = v1Event(t.z0, null);
  if (z0) z0.providers = events.find((e) => sameEvent(e, z0))?.providers ?? [];
  return {
    version: 'v1',
    number: str(o, 'number') ?? '',
    carrier: w1,
    final_carrier: w2 === 0 ? null : w2,
    param: null,
    tag: str(o, 'tag'),
    status: v1StatusName(t.e),
    sub_status: null,
    sub_status_descr: null,
    latest_event: z0 ?? events[0] ?? null,
    origin: place(undefined, opts, t.b ?? null),
    destination: place(undefined, opts, t.c ?? null),
    events,
    providers,
    milestones: [],
    metrics: null,
    delivered: null,
    delivered_at: null,
    delivered_raw: null,
    service_type: null,
    customs: [],
    no_result: !hasTrack,
  };
}
