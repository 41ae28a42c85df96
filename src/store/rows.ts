// The service's answers as the store's rows: a gettracklist item as a RecordRow, a gettrackinfo item (or the data
// of a TRACKING_UPDATED notification) as a DetailsRow. Pure. Every version is read through the views of
// @trk/service/records.ts, so a v1 mirror has the same columns as a v2.1 one (with what v1 gives); the item itself
// is kept as received. Times are put in one canonical form (ISO 8601 UTC with milliseconds), so that they compare
// as text in any database; the raw item keeps them as sent.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import { recordFields, toCarrierCode, toDetailsView, toRecordView } from '@trk/service/records.js';
import { epochOf } from '@trk/service/times.js';
import { RECORD_FIELD_NAMES, recordFieldSpec, type RecordFieldValues } from '@trk/service/record-fields.js';
import type { DetailsRow, RecordKey, RecordRow } from './types.js';

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

function text(o: Obj, k: string): string | null {
  const v = o[k];
  if (typeof v === 'string') return v === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

function int(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return null;
}

/** A time of the service in the canonical form, or null when it is none (`--`, empty, not a time). */
export function canonicalTime(value: string | null | undefined): string | null {
  const ms = epochOf(value ?? null);
  return ms === null ? null : new Date(ms).toISOString();
}

/** The canonical form of a time in ms. */
export function canonicalMs(ms: number): string {
  return new Date(ms).toISOString();
}

/** The latest of these canonical times (they compare as text), '' for none. */
export function latest(times: readonly (string | null)[]): string {
  return times.reduce<string>((max, t) => (t !== null && t > max ? t : max), '');
}

/** A carrier code as the key takes it: an integer, 0 when the answer named none (or something else). */
export function carrierKey(value: unknown): number {
  const code = toCarrierCode(value);
  return typeof code === 'number' ? code : 0;
}

export function keyOf(number: string, carrier: unknown): RecordKey {
  return { number, carrier: carrierKey(carrier) };
}

/** A gettracklist item read in `version`. */
export function recordRow(item: unknown, version: ApiVersion): RecordRow {
  const o = obj(item);
  const v = toRecordView(item, version);
  const times = {
    register_time: canonicalTime(v.registered),
    track_time: canonicalTime(v.tracked),
    push_time: canonicalTime(v.pushed),
    stop_track_time: canonicalTime(v.stopped),
  };
  return {
    ...keyOf(v.number, v.carrier),
    api_version: version,
    raw: JSON.stringify(item),
    param: text(o, 'param'),
    param_type: text(o, 'param_type'),
    data_origin: text(o, 'data_origin'),
    final_carrier: typeof v.final_carrier === 'number' ? v.final_carrier : null,
    origin_country: v.origin_country,
    destination_country: v.destination_country,
    ...times,
    tracking_status: v.tracking,
    package_status: v.status,
    push_status: v.push_status,
    push_status_code: v.push_code,
    stop_track_reason: v.stop_reason,
    is_retracked: v.retracked === null ? null : Number(v.retracked),
    carrier_change_count: v.carrier_changes,
    latest_event_time: canonicalTime(v.latest_event_time),
    latest_event_info: v.latest_event,
    delivery_time: canonicalTime(v.delivered),
    ...storedFields(recordFields(item, version)),
    as_of: latest(Object.values(times)),
  };
}

/** The fields of record-fields.ts as the mirror keeps them: times in canonical form, counts whole. */
function storedFields(v: RecordFieldValues): RecordFieldValues {
  const out: Record<string, string | number | null> = {};
  for (const field of RECORD_FIELD_NAMES) {
    const value = v[field];
    const kind = recordFieldSpec(field).kind;
    out[field] = kind === 'time' ? canonicalTime(value as string | null) : kind === 'count' ? int(value) : value;
  }
  return out as RecordFieldValues;
}

/**
 * A gettrackinfo item, or a TRACKING_UPDATED notification's data, read in `version`. `recordTrackTime` is the
 * record's track time the details were asked with (a sync), or null.
 */
export function detailsRow(
  item: unknown,
  version: ApiVersion,
  recordTrackTime: string | null,
  registerTime: string | null = null,
): DetailsRow {
  const o = obj(item);
  const v = toDetailsView(item, version);
  const info = obj(o.track_info);
  const hash = int(obj(info.tracking).providers_hash ?? obj(o.track).hs);
  const m = v.metrics;
  return {
    ...keyOf(v.number, v.carrier),
    api_version: version,
    raw: JSON.stringify(item),
    // The service's own time of these details: when it last synced with the carriers.
    as_of: latest(v.providers.map((p) => canonicalTime(p.latest_sync_time))) || (recordTrackTime ?? ''),
    providers_hash: hash,
    record_track_time: recordTrackTime,
    package_status: v.status,
    sub_status: v.sub_status,
    sub_status_descr: v.sub_status_descr,
    origin_country: v.origin.country,
    destination_country: v.destination.country,
    register_time: registerTime,
    days_after_order: m?.days_after_order ?? null,
    days_of_transit: m?.days_of_transit ?? null,
    days_of_transit_done: m?.days_of_transit_done ?? null,
    days_after_last_update: m?.days_after_last_update ?? null,
    eta_source: m?.eta_source ?? null,
    eta_from: canonicalTime(m?.eta_from),
    eta_to: canonicalTime(m?.eta_to),
    delivery_time: canonicalTime(v.delivered_at),
    latest_event_time: canonicalTime(v.latest_event?.time_utc ?? v.latest_event?.time_iso ?? v.latest_event?.time_raw),
    latest_event_time_sent: v.latest_event?.time_iso ?? null,
    latest_event: v.latest_event?.description ?? null,
    tag: v.tag,
    param: v.param,
  };
}

/**
 * A record made from details alone: a notification of a number the mirror did not list yet. Shaped as a v2 list
 * item with what the details tell, until a sync brings the record itself.
 */
export function recordFromDetails(d: DetailsRow): RecordRow {
  const raw = {
    number: d.number,
    param: d.param,
    carrier: d.carrier,
    shipping_country: d.origin_country,
    recipient_country: d.destination_country,
    tracking_status: 'Tracking',
    package_status: d.package_status,
    tag: d.tag,
  };
  return {
    ...recordRow(raw, 'v2'),
    raw: JSON.stringify(raw),
    latest_event_time: d.latest_event_time,
    latest_event_info: d.latest_event,
    // Older than any list answer: a sync's record replaces it.
    as_of: '',
  };
}
