// Times given on the command line (`--registered-since 7d`, `--tracked-until 2024-05-01T12:00`), turned into
// the ISO UTC form the service's date-time filters take. Pure: `now` is passed in.

const UNIT_MS = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
} as const;

const RELATIVE = /^(\d+)\s*([smhdw])$/i;
// Date, optional time (minutes, seconds, fraction), optional zone. A space may stand for the `T`.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO 8601 in UTC without milliseconds, e.g. `2024-05-01T12:00:00Z`. */
export function toIsoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `7d`, `12h`, `30m`, `2w`, `45s` (that long before now), `now`, or an ISO date/date-time. A time without a zone
 * is taken as UTC, because every time the service shows is UTC and a list filtered by it should match what
 * `trk list` prints. Returns undefined when the text is neither.
 */
export function parseTimeArg(text: string, now: number): string | undefined {
  const value = text.trim();
  if (value.toLowerCase() === 'now') return toIsoUtc(now);
  const rel = RELATIVE.exec(value);
  if (rel) {
    const unit = rel[2]!.toLowerCase() as keyof typeof UNIT_MS;
    return toIsoUtc(now - Number(rel[1]) * UNIT_MS[unit]);
  }
  const iso = ISO.exec(value);
  if (!iso) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = iso;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(Number(y), month)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const normalised = `${y}-${mo}-${d}T${h}:${mi}:${s}${zone ? normaliseZone(zone) : 'Z'}`;
  const ms = Date.parse(normalised);
  return Number.isNaN(ms) ? undefined : toIsoUtc(ms);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function normaliseZone(zone: string): string {
  if (zone.toUpperCase() === 'Z') return 'Z';
  return zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
}
