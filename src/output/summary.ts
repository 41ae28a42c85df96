// `trk info N -o text`: a parcel in a few plain lines, to paste into a reply to a customer. No colour, no
// alignment, no codes: the number and carrier, the status in words, the last event and when the parcel is
// expected (or when it was delivered). Times are the carrier's local ones, as on its own tracking page. One line
// per fact, not wrapped, so that a mail program wraps them as it likes.

import type { CarrierNameLookup } from './columns.js';
import { carrierText } from './columns.js';
import type { DetailsView, EventView } from '@trk/service/records.js';
import { sanitizeTerminalText } from '../io/terminal-text.js';
import { statusLine } from './status-words.js';
import { datePart, wallTime } from '@trk/service/times.js';
import { eventTimeText } from './tracking-page.js';

export interface SummaryOptions {
  carrierName?: CarrierNameLookup | undefined;
}

function clean(s: string | null | undefined): string {
  return s === null || s === undefined ? '' : sanitizeTerminalText(s, { singleLine: true }).trim();
}

/** `China Post`: the carrier's name as the answer or the cached list gives it; the code when neither does. */
function carrierLabel(view: DetailsView, opts: SummaryOptions): string {
  if (view.carrier === null || view.carrier === 0) return '';
  const own = view.providers.find((p) => p.key === view.carrier && p.name)?.name;
  if (own) return clean(own);
  const known = typeof view.carrier === 'number' ? opts.carrierName?.(view.carrier) : undefined;
  return clean(known ?? carrierText(view.carrier));
}

/** `2026-11-25 12:08 +08:00, SHENZHEN, CN: Arrived at the sorting centre` (the translation when there is one). */
function eventText(e: EventView): string {
  const where = [eventTimeText(e), clean(e.location)].filter((x) => x !== '').join(', ');
  const what = clean(e.translation) || clean(e.description);
  return [where, what].filter((x) => x !== '').join(': ');
}

/** The summary of one parcel, lines ending in a newline. */
export function renderSummary(view: DetailsView, opts: SummaryOptions = {}): string {
  const carrier = carrierLabel(view, opts);
  const lines = [`Tracking number ${clean(view.number)}${carrier ? ` (${carrier})` : ''}`];
  if (view.no_result || view.status === null) {
    lines.push('Status: no tracking information yet');
  } else {
    lines.push(`Status: ${clean(statusLine(view.status, view.sub_status))}`);
  }
  if (view.latest_event) lines.push(`Last event: ${eventText(view.latest_event)}`);
  const m = view.metrics;
  if (view.status === 'Delivered') {
    if (view.delivered) lines.push(`Delivered: ${clean(wallTime(view.delivered))}`);
  } else if (m && (m.eta_from || m.eta_to)) {
    const [from, to] = [datePart(m.eta_from), datePart(m.eta_to)].map(clean);
    const when = from && to && from !== to ? `between ${from} and ${to}` : from || to;
    lines.push(`Expected delivery: ${when}`);
  }
  return `${lines.join('\n')}\n`;
}
