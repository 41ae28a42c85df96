// `trk info` on a terminal: one number read like a carrier's tracking page. Status in words, the milestone strip,
// time metrics, origin and destination, then the events newest first with the carrier's local time and the carrier
// that reported each. Everything from the service is sanitised; colour comes from the chalk instance passed in
// (the one tied to stdout), so the page is plain text when colour is off.

import type { ChalkInstance } from 'chalk';
import { KEY_STAGES } from '@trk/service/vocabulary.js';
import type { CarrierNameLookup } from './columns.js';
import { carrierText, styleStatus } from './columns.js';
import { isCustomsSubStatus, type DetailsView, type EventView, type PlaceView } from '@trk/service/records.js';
import { textWidth } from './render.js';
import { wrapText } from './width.js';
import { sanitizeTerminalText } from '../io/terminal-text.js';
import { stageWords, statusLine, subStatusWords } from './status-words.js';
import { datePart, epochOf, wallTime } from '@trk/service/times.js';
import { humanDuration } from './times.js';

export interface TrackingPageOptions {
  /** Milliseconds since the epoch (relative times: "last update 2 days ago", overdue estimates). */
  now: number;
  /** Terminal width in columns. */
  width: number;
  carrierName?: CarrierNameLookup;
}

/** One line of carrier or user text, safe for a terminal. */
function clean(s: string | null | undefined): string {
  return s === null || s === undefined ? '' : sanitizeTerminalText(s, { singleLine: true }).trim();
}

export { wrapText } from './width.js';

/** Event time as the carrier's local wall time with its offset; the raw form when the ISO one is missing. */
export function eventTimeText(e: Pick<EventView, 'time_iso' | 'time_utc' | 'time_raw'>): string {
  if (e.time_iso !== null) return clean(wallTime(e.time_iso));
  if (e.time_raw !== null) return clean(wallTime(e.time_raw));
  if (e.time_utc !== null) return clean(`${wallTime(e.time_utc)} UTC`);
  return '';
}

function placeText(p: PlaceView): string {
  return [p.city, p.state, p.postal_code, p.country]
    .map(clean)
    .filter((x) => x !== '')
    .join(', ');
}

function providerNames(e: EventView, view: DetailsView, lookup?: CarrierNameLookup): string {
  return e.providers
    .map((p) => {
      if (p.name) return clean(p.name);
      const known = view.providers.find((q) => q.key === p.key && q.name);
      if (known?.name) return clean(known.name);
      return clean(carrierText(p.key, lookup));
    })
    .filter((x) => x !== '')
    .join(' + ');
}

/** Name of a carrier code: the provider's own name in the response, else the lookup. */
function carrierLabel(view: DetailsView, code: DetailsView['carrier'], lookup?: CarrierNameLookup): string {
  if (code === null || code === 0) return '';
  const provider = view.providers.find((p) => p.key === code && p.name);
  if (typeof code === 'number' && provider?.name) return `${code} ${clean(provider.name)}`;
  return clean(carrierText(code, lookup));
}

type StageState = 'done' | 'skipped' | 'pending';

interface StageLine {
  stage: string;
  state: StageState;
  time: string;
}

// Stages implied by the current status even when the service sent no milestone for them.
const STAGE_OF_STATUS: Readonly<Record<string, string>> = {
  InfoReceived: 'InfoReceived',
  InTransit_PickedUp: 'PickedUp',
  InTransit_Departure: 'Departure',
  InTransit_Arrival: 'Arrival',
  AvailableForPickup: 'AvailableForPickup',
  OutForDelivery: 'OutForDelivery',
  Delivered: 'Delivered',
  Exception_Returning: 'Returning',
  Exception_Returned: 'Returned',
};

const ALWAYS_SHOWN = new Set(['InfoReceived', 'PickedUp', 'Departure', 'Arrival', 'OutForDelivery', 'Delivered']);

/**
 * The milestone strip: the six usual stages in the spec's suggested order, plus AvailableForPickup, Returning and
 * Returned only when they happened. A stage counts as reached when its milestone has a time, when an event carries
 * it as `stage` (the oldest such event gives the time), or when the current status implies it. Forward stages
 * before the furthest one reached that were never reported are "skipped"; those after it are pending. Returning
 * and Returned are a detour, not progress, so they do not make the forward stages look skipped.
 */
export function milestoneStrip(view: DetailsView): StageLine[] {
  const times = new Map<string, string>();
  const reached = new Set<string>();
  for (const m of view.milestones) {
    if (!m.done) continue;
    reached.add(m.key_stage);
    if (!times.has(m.key_stage)) times.set(m.key_stage, eventTimeText(m));
  }
  // Events are newest first: walking backwards meets the oldest event of each stage first.
  for (let i = view.events.length - 1; i >= 0; i--) {
    const e = view.events[i]!;
    if (!e.stage) continue;
    reached.add(e.stage);
    if (!times.get(e.stage)) times.set(e.stage, eventTimeText(e));
  }
  for (const s of [view.status, view.sub_status]) {
    const st = s ? STAGE_OF_STATUS[s] : undefined;
    if (st) reached.add(st);
  }
  const stages = KEY_STAGES.filter((s) => ALWAYS_SHOWN.has(s) || reached.has(s));
  let furthest = -1;
  stages.forEach((s, i) => {
    if (reached.has(s) && !DETOUR.has(s)) furthest = i;
  });
  return stages.map((stage, i) => ({
    stage,
    state: reached.has(stage) ? 'done' : i < furthest ? 'skipped' : 'pending',
    time: reached.has(stage) ? (times.get(stage) ?? '') : '',
  }));
}

const DETOUR = new Set(['Returning', 'Returned']);

const LABEL_WIDTH = 10;

function label(c: ChalkInstance, text: string): string {
  return c.dim(text.padEnd(LABEL_WIDTH));
}

/** A labelled fact of plain text, wrapped under its value when longer than the width. */
function fact(c: ChalkInstance, name: string, text: string, width: number): string[] {
  return wrapText(text, width - LABEL_WIDTH).map((l, i) =>
    i === 0 ? `${label(c, name)}${l}` : `${' '.repeat(LABEL_WIDTH)}${l}`,
  );
}

/** Parts ([plain, styled]) joined by a separator, a new line begun before a part that would pass the width. */
function joinFitting(parts: readonly [string, string][], sep: string, styledSep: string, width: number): string[] {
  const lines: string[] = [];
  let plain = '';
  let styled = '';
  for (const [p, s] of parts) {
    if (plain !== '' && textWidth(plain) + textWidth(sep) + textWidth(p) > width) {
      lines.push(styled);
      plain = '';
      styled = '';
    }
    plain = plain === '' ? p : `${plain}${sep}${p}`;
    styled = styled === '' ? s : `${styled}${styledSep}${s}`;
  }
  if (styled !== '') lines.push(styled);
  return lines;
}

export function renderTrackingPage(view: DetailsView, c: ChalkInstance, opts: TrackingPageOptions): string {
  const width = Math.max(40, opts.width);
  const out: string[] = [];

  // Heading: number, carrier(s), tag; a part that does not fit starts a line of its own.
  const head: [string, string][] = [[clean(view.number), c.bold(clean(view.number))]];
  const carrier = carrierLabel(view, view.carrier, opts.carrierName);
  if (carrier) head.push([carrier, carrier]);
  const last = carrierLabel(view, view.final_carrier, opts.carrierName);
  if (last) head.push([`last mile ${last}`, `last mile ${last}`]);
  if (view.tag) head.push([`tag ${clean(view.tag)}`, c.dim(`tag ${clean(view.tag)}`)]);
  out.push(...joinFitting(head, '  ·  ', c.dim('  ·  '), width));

  // Status in words; unknown statuses and v1's unknown codes shown raw.
  const status = clean(view.status);
  const unknownV1 = view.version === 'v1' && /^-?\d+$/.test(status);
  let line = statusLine(status || null, clean(view.sub_status) || null);
  if (unknownV1) line = `Status ${status} (unknown status code)`;
  line = isCustomsSubStatus(view.sub_status) ? c.yellow.bold(line) : styleStatus(view.status, c.bold(line), c);
  out.push(line);
  if (view.sub_status_descr) {
    for (const l of wrapText(clean(view.sub_status_descr), width - 2)) out.push(`  ${l}`);
  }
  if (view.no_result) out.push(c.dim('No tracking result yet.'));

  // Milestones (v2 only: v1 reports none).
  if (view.version === 'v2' && !view.no_result) {
    out.push('', c.bold('Progress'));
    const nameWidth = Math.max(...milestoneStrip(view).map((s) => stageWords(s.stage).length));
    for (const s of milestoneStrip(view)) {
      const name = stageWords(s.stage).padEnd(nameWidth);
      if (s.state === 'done') out.push(`  ${c.green('●')} ${name}  ${s.time}`.trimEnd());
      else if (s.state === 'skipped') out.push(c.dim(`  ○ ${name}  not reported`));
      else out.push(c.dim(`  ○ ${name}`.trimEnd()));
    }
  }

  // Where from and to, time metrics, estimate, customs.
  const facts: string[] = [];
  const from = placeText(view.origin);
  const to = placeText(view.destination);
  if (from && to) facts.push(...fact(c, 'Route', `${from} → ${to}`, width));
  else if (from) facts.push(...fact(c, 'From', from, width));
  else if (to) facts.push(...fact(c, 'To', to, width));
  const m = view.metrics;
  const delivered = view.status === 'Delivered';
  const days: string[] = [];
  if (m) {
    if (m.days_after_order !== null) days.push(`${m.days_after_order} after order`);
    const transit = delivered ? m.days_of_transit_done : m.days_of_transit;
    if (transit !== null) days.push(`${transit} in transit`);
  }
  // A time without its zone (v1 event times, some raw carrier times) is the carrier's wall clock, up to 14 hours
  // from UTC: no "N h ago" is worked out from it.
  const latest = view.latest_event;
  const latestAt =
    latest && (latest.time_utc !== null || latest.time_iso !== null || latest.raw_has_zone) ? latest.at : null;
  if (!delivered && latestAt !== null && latestAt <= opts.now) {
    days.push(`last update ${humanDuration(opts.now - latestAt)} ago`);
  } else if (!delivered && m?.days_after_last_update !== null && m?.days_after_last_update !== undefined) {
    days.push(`last update ${m.days_after_last_update} days ago`);
  }
  if (days.length > 0) facts.push(...fact(c, 'Days', days.join(' · '), width));
  if (view.delivered) facts.push(`${label(c, 'Delivered')}${clean(wallTime(view.delivered))}`);
  if (m && (m.eta_from || m.eta_to)) {
    const range = [m.eta_from, m.eta_to]
      .filter((x) => x)
      .map((x) => clean(datePart(x)))
      .join(' – ');
    const src = etaSourceWords(m.eta_source);
    const end = epochOf(m.eta_to ?? m.eta_from);
    const overdue = !delivered && end !== null && end < opts.now;
    facts.push(
      `${label(c, 'Expected')}${range}${src ? c.dim(` (${src})`) : ''}${overdue ? ` ${c.red('overdue')}` : ''}`,
    );
  }
  const customs = view.customs[0];
  if (customs?.sub_status) {
    const when = eventTimeText(customs);
    facts.push(
      `${label(c, 'Customs')}${c.yellow(subStatusWords(customs.sub_status))}${when ? c.dim(`  ${when}`) : ''}`,
    );
  }
  if (view.service_type) facts.push(...fact(c, 'Service', clean(view.service_type), width));
  if (view.param) facts.push(...fact(c, 'Param', clean(view.param), width));
  if (facts.length > 0) out.push('', ...facts);

  // Events, newest first (records.ts merges the providers' lists in that order).
  if (view.events.length > 0) {
    out.push('', c.bold(`Events (${view.events.length}, newest first)`));
    for (const e of view.events) out.push(...eventLines(e, view, c, width, opts.carrierName));
  } else if (!view.no_result) {
    out.push('', c.dim('No events yet.'));
  }
  return `${out.join('\n')}\n`;
}

/**
 * Who made the estimate, in words: the carrier ("Official"), or the service, which names itself by its brand
 * (machine formats keep the value as sent); any other source as given.
 */
function etaSourceWords(source: string | null): string {
  if (!source) return '';
  if (source === 'Official') return 'from the carrier';
  return /^17\s*track$/i.test(source.trim()) ? 'estimated by the service' : `estimated by ${clean(source)}`;
}

function eventLines(
  e: EventView,
  view: DetailsView,
  c: ChalkInstance,
  width: number,
  lookup?: CarrierNameLookup,
): string[] {
  const lines: string[] = [];
  const time = eventTimeText(e);
  const head = [time ? c.bold(time) : c.dim('time unknown')];
  const where = clean(e.location);
  if (where) head.push(where);
  const by = providerNames(e, view, lookup);
  if (by) head.push(c.dim(by));
  const plainHead = `  ${[time || 'time unknown', where, by].filter((x) => x !== '').join('  ')}`;
  // v2.1 gives each event its sub-status: in words at the end of the first line when it fits, else on a line of
  // its own below the description. Customs ones get their own highlighted line (below).
  const sub = e.sub_status && !isCustomsSubStatus(e.sub_status) ? `(${clean(subStatusWords(e.sub_status))})` : '';
  const subInHead = sub !== '' && textWidth(plainHead) + 2 + textWidth(sub) <= width;
  if (subInHead) head.push(c.dim(sub));
  lines.push(`  ${head.join('  ')}`);
  const text = clean(e.description);
  for (const l of wrapText(text, width - 6)) lines.push(`      ${l}`);
  if (sub !== '' && !subInHead) for (const l of wrapText(sub, width - 6)) lines.push(c.dim(`      ${l}`));
  const tr = clean(e.translation);
  if (tr && tr !== text) for (const l of wrapText(tr, width - 6)) lines.push(c.dim(`      ${l}`));
  if (isCustomsSubStatus(e.sub_status)) lines.push(`      ${c.yellow(`customs: ${subStatusWords(e.sub_status!)}`)}`);
  return lines;
}
