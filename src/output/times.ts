// Time strings as the service sends them, made comparable and readable without changing what they say.
// Service times are UTC (`...Z`), except event/milestone `time_iso`, which carries the carrier's offset and whose
// wall-clock part is the carrier's local time. v1 sends `YYYY-MM-DD HH:MM[:SS]` (UTC by the spec) and event times
// that may not be times at all; anything that does not parse is kept as given.

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
