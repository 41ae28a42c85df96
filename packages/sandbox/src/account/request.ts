// Reading request bodies: the whole-request shape checks, and field readers that throw ItemReject with the
// service's codes. Unknown fields are ignored, as the service does with fields it may add over time.

import { type ApiVersion, LANGUAGES, numberPattern } from '@trk/service/vocabulary.js';
import { type Envelope, ItemReject, requestError } from './envelope.js';

export type Item = Record<string, unknown>;

export function isObject(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The items of an array body, or the envelope refusing it: not an array, or an item that is not an object
 * → -18010013; more than `max` items → -18010014; fewer than `min` → -18010013.
 */
export function arrayItems(body: unknown, max: number, min = 0): Item[] | Envelope {
  if (!Array.isArray(body)) return requestError(-18010013);
  if (body.length > max) return requestError(-18010014);
  if (body.length < min) return requestError(-18010013);
  if (!body.every(isObject)) return requestError(-18010013);
  return body as Item[];
}

export function isEnvelope(value: Item[] | Envelope): value is Envelope {
  return !Array.isArray(value);
}

/** How a number is echoed in a rejected item: as sent, when it was a string. */
export function rawNumber(item: Item): string {
  const n = item.number;
  return typeof n === 'string' ? n : n === undefined || n === null ? '' : String(n);
}

/** Numbers are kept trimmed and in capitals: `ab123456` and `AB123456` are one number. */
export function normaliseNumber(text: string): string {
  return text.trim().toUpperCase();
}

/** The item's number, normalised. `format` checks the register format (-18010012). */
export function readNumber(item: Item, version: ApiVersion, format: boolean): string {
  const n = item.number;
  if (n === undefined || n === null || n === '') throw new ItemReject(-18010010, 'number');
  if (typeof n !== 'string') throw new ItemReject(-18010011, 'number');
  const number = normaliseNumber(n);
  if (format && !numberPattern(version).test(number)) throw new ItemReject(-18010012, n);
  if (number === '') throw new ItemReject(-18010010, 'number');
  return number;
}

/** An optional carrier code field: an integer (a digit string, as old lists wrote codes, is accepted). */
export function readCarrierField(item: Item, field: string): number | undefined {
  const v = item[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'string' && /^\d{1,9}$/.test(v.trim())) return Number(v.trim());
  throw new ItemReject(-18010011, field);
}

/** An optional text field of at most `max` characters (longer or not a string → -18010011); "" is absent. */
export function readText(item: Item, field: string, max: number): string | undefined {
  const v = item[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || [...v].length > max) throw new ItemReject(-18010011, field);
  return v;
}

/** An optional translation language; unknown codes → -18010015 "value x of field lang invalid". */
export function readLang(item: Item, field = 'lang'): string | undefined {
  const v = item[field];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ItemReject(-18010011, field);
  if (!(LANGUAGES as readonly string[]).includes(v)) throw new ItemReject(-18010015, v, field);
  return v;
}

export function readBoolean(item: Item, field: string): boolean | undefined {
  const v = item[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new ItemReject(-18010011, field);
  return v;
}
