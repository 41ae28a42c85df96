// Times as tables show them to their reader: in the reader's zone with the offset shown (`tableTime`), or their
// age with --relative. The reader's zone is TZ when it names a zone, else the system's. What the service's time
// strings say is read in @trk/service/times.ts.

import { DATE_ONLY, epochOf, timeParts, wallTime } from '@trk/service/times.js';

/** `3 min`, `5 h`, `2 days` between two instants (for "last update ... ago"). */
export function humanDuration(ms: number): string {
  const min = Math.floor(Math.abs(ms) / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h`;
  const d = Math.floor(h / 24);
  return `${d} days`;
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
  const p = timeParts(t);
  if (!p) return t;
  if (!p.zone) return wallTime(t);
  const ms = epochOf(t);
  if (ms === null) return t;
  return style.relative ? ago(ms, style.now) : zonedTime(ms, style.zone);
}
