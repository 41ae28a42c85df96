// Time formats of the simulated world. Pure functions over epoch milliseconds; no clock is read here.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** `+08:00` / `-03:00` / `+00:00`. */
export function offsetText(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** `YYYY-MM-DDTHH:MM:SS` of the wall clock at that offset. */
function localStamp(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * MINUTE_MS).toISOString().slice(0, 19);
}

/** ISO UTC without milliseconds, as the service writes times: `2026-06-29T13:05:00Z`. */
export function isoUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** ISO with the carrier's offset: `2026-06-29T21:05:00+08:00`. */
export function isoAtOffset(ms: number, offsetMinutes: number): string {
  return `${localStamp(ms, offsetMinutes)}${offsetText(offsetMinutes)}`;
}

/** Local date and time parts at an offset: `{ date: '2026-06-29', time: '21:05:00' }`. */
export function localParts(ms: number, offsetMinutes: number): { date: string; time: string } {
  const s = localStamp(ms, offsetMinutes);
  return { date: s.slice(0, 10), time: s.slice(11, 19) };
}

/** v1 event time: local wall clock to the minute, `2026-06-29 21:05`. */
export function v1EventTime(ms: number, offsetMinutes: number): string {
  return localStamp(ms, offsetMinutes).slice(0, 16).replace('T', ' ');
}

/** v1 tracking times: UTC to the second, `2026-06-29 13:05:00`. */
export function v1UtcTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Calendar day number (days since the epoch) of a UTC time: time metrics count whole days in these. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** Start of the local calendar day containing `ms`, at the given offset, as epoch ms. */
export function localMidnight(ms: number, offsetMinutes: number): number {
  const shifted = ms + offsetMinutes * MINUTE_MS;
  return shifted - (((shifted % DAY_MS) + DAY_MS) % DAY_MS) - offsetMinutes * MINUTE_MS;
}
