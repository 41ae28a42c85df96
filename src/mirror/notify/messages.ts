// The messages people read: a customer's mail about their parcel, the team's about one parcel, a digest of a run,
// each as a subject, a plain-text part wrapped at 72 columns (what mail readers show unwrapped), an HTML part, and
// the structured change that chat webhooks and commands take (`text` for Slack, Teams and Google Chat, `content` for
// Discord). Statuses in words (output/status-words.ts), carriers by name, times in UTC.

import { statusLine, statusWords } from '../../output/status-words.js';
import { wrapText } from '../../output/width.js';
import { plural } from '../../core/text.js';
import type { NotifyMatch } from '../../store/notify-types.js';
import type { Rule } from './rules.js';
import { escapeHtml, fill, parseTemplate, textToHtml } from './template.js';

/** What a message is made from besides its match. */
export interface MessageContext {
  carrierName(code: number): string;
  /** The tracking-url setting: `{number}` is replaced. */
  trackingUrl: string | undefined;
  /** Now, in ms: days without news. */
  now: number;
}

export interface Message {
  subject: string;
  text: string;
  html: string;
  /** What an http target posts and an exec target reads on its stdin. */
  payload: Record<string, unknown>;
}

export const WIDTH = 72;
const LABEL = 20;
const DAY_MS = 86_400_000;
/** Discord refuses a `content` longer than this. */
const DISCORD_MAX = 2000;

/** `2026-06-03 10:00 UTC` of a canonical time; null stays null. */
function shownTime(iso: string | null): string | null {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`.replace(/ {2}UTC$/, '') : null;
}

function expected(m: NotifyMatch): string {
  const from = m.parcel.eta_from?.slice(0, 10);
  const to = m.parcel.eta_to?.slice(0, 10);
  if (from && to) return from === to ? to : `${from} to ${to}`;
  if (to) return `by ${to}`;
  return 'not known yet';
}

/** Whole days since the parcel's last news (its latest event, else its registration). */
export function daysWithoutNews(m: NotifyMatch, now: number): number | null {
  const news = m.parcel.latest_event_time ?? m.parcel.register_time;
  return news ? Math.max(0, Math.floor((now - Date.parse(news)) / DAY_MS)) : null;
}

/** The placeholders' values of one match (template.ts names them). */
export function valuesOf(rule: Pick<Rule, 'name'>, m: NotifyMatch, ctx: MessageContext): Record<string, string> {
  const p = m.parcel;
  const days = daysWithoutNews(m, ctx.now);
  return {
    order: p.order_no ?? p.tag ?? p.number,
    number: p.number,
    carrier: ctx.carrierName(p.carrier),
    status: statusLine(m.change.to_status, m.change.to_sub_status),
    event: p.latest_event ?? 'none yet',
    event_time: shownTime(p.latest_event_time) ?? 'none yet',
    eta: expected(m),
    link: ctx.trackingUrl ? ctx.trackingUrl.replaceAll('{number}', encodeURIComponent(p.number)) : '',
    tag: p.tag ?? '',
    email: p.email ?? '',
    days: days === null ? 'unknown' : String(days),
    rule: rule.name,
  };
}

/** Text wrapped at WIDTH, paragraph by paragraph (lines that fit are kept as they are). */
export function wrapped(text: string): string {
  return text
    .split('\n')
    .flatMap((line) => (line.length <= WIDTH ? [line] : wrapText(line, WIDTH)))
    .join('\n');
}

/** `Label:   value`, the value wrapped under itself. */
function field(label: string, value: string): string {
  const lines = wrapText(value, WIDTH - LABEL);
  const pad = ' '.repeat(LABEL);
  return lines.map((l, i) => (i === 0 ? `${`${label}:`.padEnd(LABEL)}${l}` : `${pad}${l}`)).join('\n');
}

type Fields = readonly (readonly [string, string])[];

function fieldsHtml(fields: Fields): string {
  const rows = fields.map(
    ([k, v]) =>
      `<tr><th align="left" style="padding:2px 12px 2px 0">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
  );
  return `<table>\n${rows.join('\n')}\n</table>`;
}

/**
 * The HTML part's page: laid out for the phone most customers read mail on (the viewport's width, long words and
 * addresses broken rather than scrolled sideways) and no wider than a line of reading on a desktop. Styles inline,
 * as mail readers drop style sheets.
 */
function page(title: string, body: string): string {
  return (
    '<!DOCTYPE html>\n<html><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title></head>\n` +
    '<body style="font-family:sans-serif;line-height:1.4;max-width:40em;margin:0 auto;padding:0 12px;' +
    `overflow-wrap:break-word">\n${body}\n</body></html>\n`
  );
}

/** Who the change concerns and what it is, for chat and commands. */
function structured(rule: Rule, m: NotifyMatch, v: Record<string, string>): Record<string, unknown> {
  return {
    rule: rule.name,
    change: m.change,
    parcel: { ...m.parcel, carrier_name: v.carrier, status_words: v.status, link: v.link || null },
  };
}

function withText(text: string, rest: Record<string, unknown>): Record<string, unknown> {
  return { text, content: text.length > DISCORD_MAX ? `${text.slice(0, DISCORD_MAX - 1)}…` : text, ...rest };
}

/** The message of one match: the customer's own, or the team's. */
export function parcelMessage(rule: Rule, m: NotifyMatch, ctx: MessageContext): Message {
  const v = valuesOf(rule, m, ctx);
  if (rule.template !== undefined) return fromTemplate(rule, m, v);
  const customer = rule.target.kind === 'customer';
  const fields: [string, string][] = [
    ['Status', v.status!],
    ['Carrier', v.carrier!],
    ['Tracking number', v.number!],
    ['Latest news', m.parcel.latest_event ? `${v.event} (${v.event_time})` : 'none yet'],
    ['Expected delivery', v.eta!],
  ];
  if (!customer) {
    fields.push(['Customer', v.email || 'unknown'], ['Days without news', v.days!]);
    if (v.tag) fields.push(['Tag', v.tag]);
  }
  const opening = customer ? `Hello,\n\nHere is news of your order ${v.order}.` : `${v.order}: ${v.status}`;
  const link = v.link ? `\n\nFollow your parcel: ${v.link}` : '';
  const text = `${wrapped(opening)}\n\n${fields.map(([k, val]) => field(k, val)).join('\n')}${link}\n`;
  const subject = customer
    ? `Your order ${v.order}: ${statusWords(m.change.to_status)}`
    : `[${rule.name}] ${v.order}: ${statusWords(m.change.to_status)}`;
  const linkHtml = v.link ? `<p><a href="${escapeHtml(v.link)}">Follow your parcel</a></p>` : '';
  const html = page(subject, `${textToHtml(opening)}\n${fieldsHtml(fields)}\n${linkHtml}`);
  return { subject, text, html, payload: withText(text.trim(), structured(rule, m, v)) };
}

function fromTemplate(rule: Rule, m: NotifyMatch, v: Record<string, string>): Message {
  const t = parseTemplate(rule.template!);
  const text = `${wrapped(fill(t.body, v).trimEnd())}\n`;
  const subject = fill(t.subject ?? `[${rule.name}] {{order}}: {{status}}`, v);
  return {
    subject,
    text,
    html: page(subject, textToHtml(text)),
    payload: withText(text.trim(), structured(rule, m, v)),
  };
}

/** One parcel of a digest. */
export interface DigestLine {
  order: string;
  customer: string;
  carrier: string;
  status: string;
  days: string;
  number: string;
}

export function digestLine(rule: Rule, m: NotifyMatch, ctx: MessageContext): DigestLine {
  const v = valuesOf(rule, m, ctx);
  return {
    order: v.order!,
    customer: v.email || 'unknown',
    carrier: v.carrier!,
    status: v.status!,
    days: v.days!,
    number: v.number!,
  };
}

function digestBlock(l: DigestLine): string {
  const head = wrapped(`${l.order} · ${l.customer}`);
  const days = l.days === 'unknown' ? 'days without news unknown' : `${plural(Number(l.days), 'day')} without news`;
  const rest = [`${l.carrier} · ${l.status}`, `${days} · ${l.number}`].flatMap((t) =>
    wrapText(t, WIDTH - 2).map((x) => `  ${x}`),
  );
  return [head, ...rest].join('\n');
}

/** A digest of a rule's run: every parcel it matched. */
export function digestMessage(rule: Rule, lines: readonly DigestLine[]): Message {
  const count = plural(lines.length, 'parcel');
  const listing = lines.map(digestBlock).join('\n\n');
  const values = { rule: rule.name, count: String(lines.length), parcels: listing };
  const t = rule.template === undefined ? undefined : parseTemplate(rule.template);
  const subject = fill(t?.subject ?? `[{{rule}}] ${count}`, values);
  const text = t
    ? `${wrapped(fill(t.body, values).trimEnd())}\n`
    : `${wrapped(`${count} matched the rule ${rule.name}:`)}\n\n${listing}\n`;
  const head = ['Order', 'Customer', 'Carrier', 'Status', 'Days without news'].map((h) => `<th align="left">${h}</th>`);
  // As wide as the page and no wider: on a phone the cells wrap between words, an address anywhere (it has none).
  const cell = (text: string, anywhere = false) =>
    `<td${anywhere ? ' style="overflow-wrap:anywhere"' : ''}>${escapeHtml(text)}</td>`;
  const rows = lines.map(
    (l) =>
      `<tr valign="top">${cell(l.order)}${cell(l.customer, true)}${cell(l.carrier)}${cell(l.status)}` +
      `${cell(l.days)}</tr>`,
  );
  const table =
    '<table cellpadding="4" style="width:100%;border-collapse:collapse">\n' +
    `<tr valign="bottom">${head.join('')}</tr>\n${rows.join('\n')}\n</table>`;
  const html = page(subject, `<p>${escapeHtml(`${count} matched the rule ${rule.name}:`)}</p>\n${table}`);
  return {
    subject,
    text,
    html,
    payload: withText(text.trim(), { rule: rule.name, count: lines.length, parcels: lines }),
  };
}
