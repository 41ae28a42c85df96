// What a notification says, in one shape for all versions: the line `trk webhook listen` prints. Bodies come
// from the network, so every field is read defensively; unknown v1 status codes are kept raw.

import { toCarrierCode, v1StatusName } from '@trk/service/records.js';

export interface LatestEventSummary {
  /** v2: time_iso, else time_utc, else the carrier's raw date and time; v1: `a` as sent (may not be a valid time). */
  time: string | null;
  location: string | null;
  description: string | null;
}

export interface EventSummary {
  event: string | null;
  number: string | null;
  carrier: number | null;
  /** Main status name; a v1 code without a name is shown raw (`"5000"`). Null for TRACKING_STOPPED. */
  status: string | null;
  sub_status: string | null;
  latest_event: LatestEventSummary | null;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
/** Carrier codes are integers; zero-padded strings of old payloads are read as numbers, other text as none. */
const code = (v: unknown): number | null => {
  const c = toCarrierCode(v);
  return typeof c === 'number' && Number.isInteger(c) ? c : null;
};

/** The carrier's own date and time, for events whose time the service could not convert (time_iso null). */
function rawTime(v: unknown): string | null {
  if (!isObj(v)) return null;
  return [str(v.date), str(v.time)].filter(Boolean).join(' ') || null;
}

function v2LatestEvent(ev: unknown): LatestEventSummary | null {
  if (!isObj(ev)) return null;
  return {
    time: str(ev.time_iso) ?? str(ev.time_utc) ?? rawTime(ev.time_raw),
    location: str(ev.location),
    description: str(ev.description),
  };
}

function v1LatestEvent(ev: unknown): LatestEventSummary | null {
  if (!isObj(ev)) return null;
  const location = [str(ev.c), str(ev.d)].filter((s): s is string => !!s && s.trim() !== '').join(', ');
  return { time: str(ev.a), location: location || null, description: str(ev.z) };
}

/** Summary of a parsed notification body (v1, v2 or v2.1; anything else gives nulls, never an exception). */
export function summarizeEvent(body: unknown): EventSummary {
  const b = isObj(body) ? body : {};
  const data = isObj(b.data) ? b.data : {};
  const summary: EventSummary = {
    event: str(b.event),
    number: str(data.number),
    carrier: code(data.carrier),
    status: null,
    sub_status: null,
    latest_event: null,
  };
  if (isObj(data.track_info)) {
    const ti = data.track_info;
    const ls = isObj(ti.latest_status) ? ti.latest_status : {};
    summary.status = str(ls.status);
    summary.sub_status = str(ls.sub_status);
    summary.latest_event = v2LatestEvent(ti.latest_event);
  } else if (isObj(data.track)) {
    // v1: the carrier is the track's first carrier (w1) when data has none.
    const t = data.track;
    summary.carrier ??= code(t.w1);
    summary.status = v1StatusName(t.e);
    summary.latest_event = v1LatestEvent(t.z0);
  }
  return summary;
}
