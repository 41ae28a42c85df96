// Time strings as the service sends them, made comparable and readable without changing what they say.
// Service times are UTC (`...Z`), except event/milestone `time_iso`, which carries the carrier's offset and whose
// wall-clock part is the carrier's local time. v1 sends `YYYY-MM-DD HH:MM[:SS]` (UTC by the spec) and event times
// that may not be times at all; anything that does not parse is kept as given.
//
// Machine formats (CSV, TSV, JSON, NDJSON) get ISO 8601 with an offset, always (`isoWithOffset`); how tables show
// a time to its reader (their zone, ages) is output's business (src/output/times.ts).

const ISO = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export interface Parts {
  date: string;
  hm: string;
  sec: string | undefined;
  zone: string | undefined;
}

/** The parts of a service time, or undefined for text that is not one. */
export function timeParts(s: string): Parts | undefined {
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
  const p = timeParts(s);
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
  const p = timeParts(s);
  if (!p) return s;
  const zone = p.zone && p.zone.toUpperCase() !== 'Z' ? ` ${normZone(p.zone)}` : '';
  return `${p.date} ${p.hm}${zone}`;
}

/** Milliseconds since the epoch, or null. Times without a zone are read as UTC (good enough for ordering). */
export function epochOf(s: string | null | undefined): number | null {
  if (s === null || s === undefined) return null;
  const t = s.trim();
  if (DATE_ONLY.test(t)) return Date.parse(`${t}T00:00:00Z`);
  const p = timeParts(t);
  if (!p) return null;
  const ms = Date.parse(`${p.date}T${p.hm}:${p.sec ?? '00'}${p.zone ? normZone(p.zone) : 'Z'}`);
  return Number.isNaN(ms) ? null : ms;
}

/** The date part of an ISO date-time as the sender wrote it (`2026-07-08T00:00:00-07:00` → `2026-07-08`). */
export function datePart(s: string | null | undefined): string {
  if (s === null || s === undefined) return '';
  return timeParts(s)?.date ?? (DATE_ONLY.test(s.trim()) ? s.trim() : s);
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
  const p = timeParts(t);
  if (!p) return DATE_ONLY.test(t) && opts.utc ? `${t}T00:00:00Z` : null;
  if (!p.zone && !opts.utc) return null;
  const zone = p.zone ? normZone(p.zone) : 'Z';
  const ms = Date.parse(`${p.date}T${p.hm}:${p.sec ?? '00'}${zone}`);
  if (Number.isNaN(ms)) return null;
  // Fractions of a second are the service's own precision: kept as sent.
  const frac = /:\d{2}(\.\d+)/.exec(t)?.[1] ?? '';
  return `${p.date}T${p.hm}:${p.sec ?? '00'}${frac}${zone}`;
}
