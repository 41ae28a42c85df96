// Time formats of the service's answers, and the parsing of time filters in requests. Record fields may hold
// no time yet: these answer null for them, and otherwise format as the world does (world/time.ts).

import { isoAtOffset, v1UtcTime } from '../world/time.js';

export { utcDay } from '../world/time.js';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** ISO UTC without milliseconds, as the service writes times: `2026-06-24T18:02:11Z`. */
export function isoUtc(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** v1 times: `2022-03-07 17:22:53` (UTC, no zone marker). */
export function v1Time(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? null : v1UtcTime(ms);
}

/** ISO time in a carrier's local offset: `2026-06-30T14:23:00-03:00`. */
export function isoWithOffset(ms: number | null | undefined, offsetMinutes: number): string | null {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? null : isoAtOffset(ms, offsetMinutes);
}

/**
 * A time filter value: ISO date-times with or without zone (no zone = UTC), `yyyy-mm-dd`, or v1's
 * `yyyy-mm-dd hh:mm:ss`. A bare date used as the end of a range means the end of that day, so that
 * `..._to: 2026-06-24` includes the 24th. Undefined when it is not a time.
 */
export function parseTimeFilter(value: unknown, endOfRange = false): number | undefined {
  const t = timeParts(value);
  if (t === undefined) return undefined;
  return t.dateOnly && endOfRange ? t.ms + DAY - 1 : t.ms;
}

/**
 * A time as the service writes the ones it was given (v2.1 `order_time`): ISO 8601 to the second, in the zone it
 * was given in (`2026-06-24T10:00:00-03:00`; no zone = UTC, `Z`). Undefined when it is not a time.
 */
export function normaliseTime(value: unknown): string | undefined {
  const t = timeParts(value);
  return t === undefined ? undefined : `${t.date}T${t.time}${t.zone}`;
}

function timeParts(
  value: unknown,
): { ms: number; date: string; time: string; zone: string; dateOnly: boolean } | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i.exec(
    value.trim(),
  );
  if (!m) return undefined;
  const [, date, hm, sec, zone] = m;
  const z = zone === undefined ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone.toUpperCase();
  const time = `${hm ?? '00:00'}:${sec ?? '00'}`;
  const ms = Date.parse(`${date}T${time}${z}`);
  if (!Number.isFinite(ms)) return undefined;
  return { ms, date: date as string, time, zone: z, dateOnly: hm === undefined };
}
