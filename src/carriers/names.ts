// What a carrier value means before any list is read: a code, a name, a word for "no carrier" (the service
// then detects it), or a number that cannot be a code (`-1`), refused here rather than sent to the lookup. Kept
// apart from the lists and their search, so that reading a file of codes loads nothing more.

import { UsageError } from '../core/errors.js';

/**
 * Comparison form of a carrier name: accents dropped, lower case, nothing but letters and digits
 * (`FedEx®` → `fedex`, `DPD (DE)` → `dpdde`, `La Poste – Colissimo` → `lapostecolissimo`).
 */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Words shops write where they have no carrier (Shopify's "Other", a dash, "N/A"), in the languages of their
 * exports, folded. A value without a letter or a digit (`-`, `?`) says the same.
 */
const NO_CARRIER_WORDS: ReadonlySet<string> = new Set([
  'other',
  'others',
  'unknown',
  'na',
  'none',
  'notavailable',
  'sonstige',
  'sonstiges',
  'andere',
  'unbekannt',
  'autre',
  'autres',
  'inconnu',
  'otro',
  'otros',
  'desconocido',
  'altro',
  'altri',
  'sconosciuto',
  'overig',
  'overige',
  'onbekend',
  '其他',
  '未知',
]);

/** The words shown in help and messages. */
export const NO_CARRIER_EXAMPLES = ['Other', 'Unknown', '-', 'N/A'] as const;

/** Whether a carrier value means "no carrier: let the service detect it" (an empty cell does too). */
export function isNoCarrier(text: string): boolean {
  const folded = foldName(text);
  return folded === '' || NO_CARRIER_WORDS.has(folded);
}

/**
 * A value that looks like a number but is not a code (`-1`, `3011.0`, `+44`): refused as it is, without
 * fetching the carrier list to look for a carrier of that name.
 */
export function refuseNumberLike(text: string): void {
  const t = text.trim();
  if (looksLikeNumber(t) && !/^\d+$/.test(t)) {
    throw new UsageError(
      `carrier ${JSON.stringify(t)} is not a carrier code`,
      'a code is a whole number from `trk carriers`; nothing was sent',
    );
  }
}

/** Digits with signs, dots, commas or spaces: a code (digits alone) or a mistake, never a carrier's name. */
export function looksLikeNumber(text: string): boolean {
  return /^[+-]?[\d\s.,]*\d[\d\s.,]*$/.test(text.trim());
}

/** Whether resolving `text` needs the names of the carrier list: it is no code, no word for none, no alias. */
export function isCarrierName(text: string, aliases?: ReadonlyMap<string, number>): boolean {
  return !isNoCarrier(text) && !looksLikeNumber(text) && !aliases?.has(foldName(text));
}

/**
 * Names shops' platforms write for carriers that the service's list names otherwise, folded → code: only where
 * one carrier is meant beyond doubt (Stamps.com prints USPS labels; Colissimo is La Poste's parcel
 * service). A user's own aliases (`trk config set carrier-alias.NAME CODE`, `--carrier-map`) come first.
 */
export const BUILT_IN_ALIASES: Readonly<Record<string, number>> = {
  stampscom: 21051,
  uspsstampscom: 21051,
  colissimo: 6051,
};

/** How a name was read as a carrier other than by its exact name: a service level left out, or a generic word added. */
export type LooseReading = 'service' | 'short';

/**
 * Words of a carrier's service level, folded, as shops' platforms write them after the carrier's name (`UPS
 * Ground`, `USPS Priority Mail`, `Royal Mail Tracked 48`, `FedEx Home Delivery`, `DHL Express Worldwide`).
 */
const SERVICE_WORDS: ReadonlySet<string> = new Set([
  ...['ground', 'priority', 'mail', 'express', 'tracked', 'signed', 'for', 'worldwide', 'international', 'intl'],
  ...['home', 'delivery', 'standard', 'economy', 'saver', 'next', 'day', 'nextday', 'sameday', 'same', 'first'],
  ...['second', 'class', '1st', '2nd', 'parcel', 'parcels', 'packet', 'plus', 'premium', 'overnight', 'advantage'],
  ...['select', 'smartpost', '2day', '3day', 'am', 'service', 'small', 'large', 'letter', 'flat', 'rate'],
  ...['envelope', 'box', 'registered', 'certified', 'domestic', 'signature', 'required', 'insured', 'package'],
  ...['retail', 'media', 'airmail', 'air', 'surface', 'business', 'guaranteed', 'special', 'by', 'classic'],
  ...['europe', 'world', 'connect', 'medium', 'prime', 'returns', 'return', 'label'],
]);

/** Whether a word (as written) is part of a service level: a service word, a weight or weight range, a time. */
export function isServiceWord(word: string): boolean {
  const w = word.toLowerCase();
  if (/^\d+([.,]\d+)?(-\d+([.,]\d+)?)?(kg|g|lbs?|oz)?$/.test(w) || /^\d{1,2}(am|pm)$/.test(w)) return true;
  return SERVICE_WORDS.has(foldName(word));
}

/**
 * Last words of carriers' names that say what kind of carrier it is, not which: `Deutsche Post` means "Deutsche Post
 * Mail" where no other carrier's name is `Deutsche Post` and such a word.
 */
export const GENERIC_LAST_WORDS: ReadonlySet<string> = new Set([
  ...['mail', 'post', 'express', 'parcel', 'parcels', 'paket', 'logistics', 'courier', 'delivery', 'shipping'],
  ...['service', 'services', 'group', 'freight'],
]);
