// How a notification is shown: one line for people, one JSON object for machines, the body on one line for
// --print, and the times in them. Pure.

import type { ChalkInstance } from 'chalk';
import { sanitizeTerminalText } from '../../io/terminal-text.js';
import { forwarded, type ForwardResult } from '../forward.js';
import { compactJson } from '../raw-json.js';
import type { ReceivedEvent } from './types.js';

/** Text from the network, made safe for one line of a terminal. */
export const clean = (s: string): string => sanitizeTerminalText(s, { singleLine: true });

export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `20240501T120000.123Z`: sortable and valid in file names everywhere. */
export function fileStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '');
}

/** `TRACKING_UPDATED RR123456789CN`: what a notification is, in the lines about its forward. */
export function eventLabel(ev: Pick<ReceivedEvent, 'summary'>): string {
  return `${ev.summary.event ?? '?'} ${clean(ev.summary.number ?? '-')}`;
}

export interface HumanLineOptions {
  color: ChalkInstance;
  /** Cut to `columns` when printing to a terminal. */
  columns: number | undefined;
  carrierName: ((code: number) => string | undefined) | undefined;
}

/** Time, event, number, carrier, status and latest event, two spaces apart; what was odd at the end. */
export function humanLine(ev: ReceivedEvent, opts: HumanLineOptions): string {
  const s = ev.summary;
  const carrier =
    s.carrier === null ? '-' : [String(s.carrier), opts.carrierName?.(s.carrier)].filter(Boolean).join(' ');
  // sub_status names carry their main status (InTransit_PickedUp), so one of the two is enough.
  const status = s.sub_status ?? s.status ?? '-';
  const le = s.latest_event;
  const latest = le
    ? [le.time, [le.location, le.description].filter(Boolean).join(': ')].filter(Boolean).join('  ')
    : '';
  const fields = [isoSeconds(ev.receivedAt), s.event ?? '?', s.number ?? '-', carrier, status, latest]
    .map((f) => clean(f))
    .filter((f, i) => i < 5 || f !== '');
  let line = fields.join('  ');
  if (!ev.verified) line += '  (not verified)';
  if (ev.status !== 200) line += `  (answered ${ev.status})`;
  const chars = [...line];
  const { columns } = opts;
  if (columns !== undefined && chars.length > columns - 1)
    line = `${chars.slice(0, Math.max(20, columns - 2)).join('')}…`;
  return opts.color.dim(fields[0]!) + line.slice(fields[0]!.length);
}

export function jsonLine(ev: ReceivedEvent): string {
  const s = ev.summary;
  return JSON.stringify({
    event: s.event,
    number: s.number,
    carrier: s.carrier,
    status: s.status,
    sub_status: s.sub_status,
    latest_event: s.latest_event,
    received_at: new Date(ev.receivedAt).toISOString(),
    verified: ev.verified,
  });
}

/** The body as one line of JSON: as received when it is on one line already, else compacted; undefined if not JSON. */
export function bodyLine(ev: ReceivedEvent): string | undefined {
  if (ev.body === undefined) return undefined;
  const text = ev.raw.toString('utf8').trim();
  return /[\r\n]/.test(text) ? compactJson(text) : text;
}

export interface ForwardReport {
  /** What was forwarded (eventLabel). */
  label: string;
  target: string;
  result: ForwardResult;
  ms: number;
  /** Counted from 1; shown from the second on. */
  attempt?: number;
  /** What happens next, after a failure. */
  next?: string;
}

/** `  → TRACKING_UPDATED RR1 forwarded to URL: 200 (12 ms)`, or `not forwarded to URL: 500; again in 2 s`. */
export function forwardLine(c: ChalkInstance, f: ForwardReport): string {
  const when = f.attempt !== undefined && f.attempt > 1 ? ` on attempt ${f.attempt}` : '';
  if (forwarded(f.result))
    return `  → ${f.label} forwarded to ${f.target}${when}: ${c.green(String(f.result.status))} (${f.ms} ms)`;
  const why = f.result.status !== undefined ? String(f.result.status) : (f.result.error ?? '');
  return `  → ${f.label} not forwarded to ${f.target}${when}: ${c.red(why)}${f.next ? `; ${f.next}` : ''}`;
}
