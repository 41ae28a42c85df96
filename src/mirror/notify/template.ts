// A rule's own template (`trk notify add --template FILE`): plain text with placeholders in double braces
// (`{{order}}`), an optional first line `Subject: ...`. Placeholders are a fixed set, checked when the rule is added:
// a misspelt one is refused then (exit 2), never sent as braces to a customer. The HTML part is the text made safe
// for HTML, its addresses made links.

import { UsageError } from '../../core/errors.js';

/** Every placeholder of a message about one parcel, with what it holds (docs/notify.md lists them too). */
export const PARCEL_PLACEHOLDERS: Readonly<Record<string, string>> = {
  order: 'the order number (else the tag, else the tracking number)',
  number: 'the tracking number',
  carrier: "the carrier's name",
  status: 'the status in words (with its sub-status)',
  event: 'the latest event, as the carrier wrote it',
  event_time: "the latest event's time",
  eta: 'the expected delivery (the estimated window), or "not known yet"',
  link: 'the tracking link (the tracking-url setting with the number)',
  tag: 'the tag',
  email: "the customer's e-mail",
  days: 'days without news',
  rule: "the rule's name",
};

/** A digest's placeholders: the rule's name, how many parcels, and their listing. */
export const DIGEST_PLACEHOLDERS: Readonly<Record<string, string>> = {
  rule: "the rule's name",
  count: 'how many parcels the digest lists',
  parcels: 'the parcels, one block each: order, customer, carrier, status, days without news',
};

const PLACEHOLDER = /\{\{\s*([A-Za-z_]+)\s*\}\}/g;

export interface Template {
  subject: string | undefined;
  body: string;
}

/** Splits a template's `Subject:` line from its body. */
export function parseTemplate(text: string): Template {
  const normalised = text.replace(/\r\n?/g, '\n');
  const m = /^Subject:[ \t]*(.*)\n(?:\n)?/i.exec(normalised);
  return m ? { subject: m[1]!.trim(), body: normalised.slice(m[0].length) } : { subject: undefined, body: normalised };
}

/** Refuses a template with a placeholder this kind of message does not fill (exit 2). */
export function checkTemplate(text: string, digest: boolean): void {
  const known = digest ? DIGEST_PLACEHOLDERS : PARCEL_PLACEHOLDERS;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const name = m[1]!;
    if (!Object.hasOwn(known, name)) {
      throw new UsageError(
        `the template has an unknown placeholder {{${name}}}`,
        `use ${Object.keys(known)
          .map((k) => `{{${k}}}`)
          .join(', ')}${digest ? ' (a digest template)' : ''}`,
      );
    }
  }
  if (text.trim() === '')
    throw new UsageError(
      'the template is empty',
      'write the message in it, e.g. "Your order {{order}} is {{status}}."',
    );
}

/** The template with its placeholders filled. */
export function fill(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? values[name]! : whole));
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Plain text as HTML: paragraphs at blank lines, line breaks kept, http(s) addresses made links. */
export function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n{2,}/)
    .map((p) => `<p>${linked(p).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

function linked(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"]+)/)
    .map((part, i) => (i % 2 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}
