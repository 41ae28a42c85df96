// Time strings as the service sends them, made comparable and readable without changing what they say.
// Service times are UTC (`...Z`), except event/milestone `time_iso`, which carries the carrier's offset and whose
// wall-clock part is the carrier's local time. v1 sends `YYYY-MM-DD HH:MM[:SS]` (UTC by the spec) and event times
// that may not be times at all; anything that does not parse is kept as given.
//
// Two audiences: machine formats (CSV, TSV, JSON, NDJSON) get ISO 8601 with an offset, always (`isoWithOffset`);
// tables get the time in the reader's zone with the offset shown (`tableTime`), or its age with --relative. The
// reader's zone is TZ when it names a zone, else the system's.

const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

interface Parts {
  date: string;
  hm: string;
  sec: string | undefined;
  zone: string | undefined;
}

function parts(s: string): Parts | undefined {
  const m = ISO.exec(s.trim());
  if (!m) return undefined;
  return { date: m[1]!, hm: m[2]!, sec: m[3], zone: m[4] };
}

function normZone(z: string): string {
  if (z.toUpperCase() === 'Z') return 'Z';
  return z.includes(':') ? z : `${z.slice(0, 3)}:${z.slice(3)}`;
}

/**
 * A UTC time as ISO 8601 (`2022-03-07T17:22:53Z`): v1's `2022-03-07 17:22:53` gains the `T` and `Z` it
 * implies; ISO input is kept as sent; anything else is returned unchanged. Empty strings become null.
 */
export function toIsoUtc(s: string | null | undefined): string | null {
  if (s === null || s === undefined || s.trim() === '') return null;
  const p = parts(s);
  if (!p || s.includes('T')) return s;
  return `${p.date}T${p.hm}:${p.sec ?? '00'}${p.zone ? normZone(p.zone) : 'Z'}`;
}

/**
 * Short wall-clock form for tables and the tracking page, to the minute: `2026-06-29 21:05 +08:00`, and
 * `2026-06-30 18:01` for UTC (times in tables are UTC unless an offset is shown). Machine formats keep the full
 * value; unparseable text is returned as is.
 */
export function wallTime(s: string | null | undefined): string {
  if (s === null || s === undefined) return '';
  const p = parts(s);
  if (!p) return s;
  const zone = p.zone && p.zone.toUpperCase() !== 'Z' ? ` ${normZone(p.zone)}` : '';
  return `${p.date} ${p.hm}${zone}`;
}

/** Milliseconds since the epoch, or null. Times without a zone are read as UTC (good enough for ordering). */
export function epochOf(s: string | null | undefined): number | null {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  if (DATE_ONLY.test(t)) return Date.parse(`${t}T00:00:00Z`);
  const p = parts(t);
  if (!p) return null;
  const ms = Date.parse(`${p.date}T${p.hm}:${p.sec ?? '00'}${p.zone ? normZone(p.zone) : 'Z'}`);
  return Number.isNaN(ms) ? null : ms;
}

/** The date part of an ISO date-time as the sender wrote it (`2026-07-08T00:00:00-07:00` → `2026-07-08`). */
export function datePart(s: string | null | undefined): string {
  if (s === null || s === undefined) return '';
  return parts(s)?.date ?? (DATE_ONLY.test(s.trim()) ? s.trim() : s);
}

/** `3 min`, `5 h`, `2 days` between two instants (for "last update ... ago"). */
export function humanDuration(ms: number): string {
  const min = Math.floor(Math.abs(ms) / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  const d = Math.floor(h / 24);
  return `${d} days`;
}

/**
 * ISO 8601 with an offset (`2026-11-23T17:52:00-05:00`, `2026-06-30T17:23:00Z`), what machine formats print:
 * `2026-11-23 17:52:00 -05:00` gains its `T`; a time without a zone is UTC when `utc` says the service meant UTC
 * (its own record times), else it is a carrier's wall clock in an unknown zone and there is no honest ISO form:
 * null (the raw text goes in a `_raw` column). Text that is not a time is null too.
 */
export function isoWithOffset(s: string | null | undefined, opts: { utc?: boolean } = {}): string | null {
  if (s === null || s === undefined || s.trim() === '') return null;
  const t = s.trim();
  const p = parts(t);
  if (!p) return DATE_ONLY.test(t) && opts.utc ? `${t}T00:00:00Z` : null;
  if (!p.zone && !opts.utc) return null;
  const zone = p.zone ? normZone(p.zone) : 'Z';
  const ms = Date.parse(`${p.date}T${p.hm}:${p.sec ?? '00'}${zone}`);
  if (Number.isNaN(ms)) return null;
  // Fractions of a second are the service's own precision: kept as sent.
  const frac = /:\d{2}(\.\d+)/.exec(t)?.[1] ?? '';
  return `${p.date}T${p.hm}:${p.sec ?? '00'}${frac}${zone}`;
}

/** How tables show times: the reader's zone (IANA name; undefined = the system's), or ages. */
export interface TimeStyle {
  /** IANA zone; undefined: the system's (which TZ sets for the process). */
  zone?: string | undefined;
  /** `3h ago` instead of the date and time. */
  relative?: boolean | undefined;
  /** Now, in ms since the epoch (ages count from it: the service's clock under --sandbox). */
  now: number;
}

/**
 * The zone named by TZ when Intl knows it (`Europe/Berlin`, `UTC`), else undefined (the system's zone, which for
 * this process already follows TZ when Node understands it). `:Europe/Berlin` (the POSIX form) is read too.
 */
export function zoneOfEnv(env: NodeJS.ProcessEnv): string | undefined {
  const tz = env.TZ?.trim().replace(/^:/, '');
  if (!tz) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz;
  } catch {
    return undefined;
  }
}

const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  let f = FORMATTERS.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    FORMATTERS.set(key, f);
  }
  return f;
}

/** An instant as wall time in a zone with its offset: `2026-11-23 17:52 +01:00`. */
export function zonedTime(ms: number, zone: string | undefined): string {
  const p: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(new Date(ms))) p[part.type] = part.value;
  // `GMT+01:00`, `GMT-03:30`, or plain `GMT` for a zero offset.
  const offset = (p.timeZoneName ?? 'GMT').replace(/^(GMT|UTC)/, '') || '+00:00';
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${offset}`;
}

/** `just now`, `5m ago`, `3h ago`, `12d ago`; `in 2d` for the future (estimates). */
export function ago(ms: number, now: number): string {
  const diff = now - ms;
  const min = Math.floor(Math.abs(diff) / 60_000);
  if (min < 1) return 'just now';
  const text = min < 60 ? `${min}m` : min < 48 * 60 ? `${Math.floor(min / 60)}h` : `${Math.floor(min / 1440)}d`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/**
 * A time as tables show it: in the reader's zone with the offset (`2026-11-23 17:52 +01:00`), or its age with
 * `relative`. A date alone stays a date; a time without a zone (a carrier's wall clock) is shown as written, since
 * it cannot be moved into another zone; text that is not a time is shown as is.
 */
export function tableTime(s: string | null | undefined, style: TimeStyle): string {
  if (s === null || s === undefined || s.trim() === '') return '';
  const t = s.trim();
  if (DATE_ONLY.test(t)) return style.relative ? ago(Date.parse(`${t}T00:00:00Z`), style.now) : t;
  const p = parts(t);
  if (!p) return t;
  if (!p.zone) return wallTime(t);
  const ms = epochOf(t);
  if (ms === null) return t;
  return style.relative ? ago(ms, style.now) : zonedTime(ms, style.zone);
}
