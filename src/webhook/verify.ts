// Webhook signatures (spec: Authentication 7 and 8). Pure functions over the bytes received.
//   v2 and v2.1: header `sign` = sha256_hex(<raw body> "/" <key>), lowercase, 64 characters.
//   v1:          body field `sign` = sha256_hex(<event> "/" <compact JSON text of data> "/" <key>).
// Comparisons run in constant time so that a receiver does not leak how much of a forged sign was right.

import { createHash, timingSafeEqual } from 'node:crypto';
import { compactJson, rawMember } from './raw-json.js';

export type SignatureVersion = 'v1' | 'v2';

function sha256Hex(...parts: (string | Buffer)[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex'); // always 64 lowercase digits, zero-padded
}

/**
 * A sign value as received, made comparable: trimmed and lowercased. A hex value that lost its leading zeros
 * (some implementations print the hash as a number) is the same hash, so it is padded back to 64 digits;
 * anything that is not 1 to 64 hex digits stays as is and will simply not match.
 */
function normaliseSign(sign: string): string {
  const s = sign.trim().toLowerCase();
  return /^[0-9a-f]{1,63}$/.test(s) ? s.padStart(64, '0') : s;
}

/** Constant-time equality of an expected hex digest and a received sign. */
export function signMatches(expectedHex: string, received: string): boolean {
  const a = Buffer.from(expectedHex, 'utf8');
  const b = Buffer.from(normaliseSign(received), 'utf8');
  // timingSafeEqual needs equal lengths; compare a with itself so the failing path costs the same.
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

// ---- v2 / v2.1 ----

/** The `sign` header the service sends with this body. */
export function signV2(rawBody: Buffer | string, key: string): string {
  return sha256Hex(rawBody, `/${key}`);
}

/** True when `sign` (the header value) is the signature of the raw body bytes under `key`. */
export function verifyV2(rawBody: Buffer | string, sign: string, key: string): boolean {
  return signMatches(signV2(rawBody, key), sign);
}

// ---- v1 ----

/** The v1 `sign` over an event name and the compact JSON text of its data. */
export function signV1(event: string, dataText: string, key: string): string {
  return sha256Hex(`${event}/${dataText}/${key}`);
}

/** A v1 body as the service would send it: compact JSON with `event`, `sign`, `data` and a valid sign. */
export function signedV1Body(event: string, data: unknown, key: string): string {
  const dataText = JSON.stringify(data);
  return `{"event":${JSON.stringify(event)},"sign":"${signV1(event, dataText, key)}","data":${dataText}}`;
}

function asText(body: Buffer | string): string {
  return typeof body === 'string' ? body : body.toString('utf8');
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The texts of `data` a v1 sign may have been computed over, best first: the raw text as received, compacted
 * (keeps field order and number formatting exactly as sent), then a re-serialisation of the parsed value (the
 * only choice when no raw text is at hand). Both come from the same data, so accepting either does not help a
 * forger, who still needs the key.
 */
function v1DataTexts(rawText: string | undefined, data: unknown): string[] {
  const texts: string[] = [];
  const raw = rawText === undefined ? undefined : rawMember(rawText, 'data');
  if (raw !== undefined) texts.push(compactJson(raw));
  if (data !== undefined) {
    const re = JSON.stringify(data);
    if (!texts.includes(re)) texts.push(re);
  }
  return texts;
}

/**
 * True when a v1 body carries a genuine `sign`. `body` is best the raw bytes or text as received; a parsed
 * object works too but then depends on JSON.stringify reproducing the service's text. `sign` overrides the one
 * in the body.
 */
export function verifyV1(body: Buffer | string | Record<string, unknown>, key: string, sign?: string): boolean {
  const rawText = typeof body === 'string' || Buffer.isBuffer(body) ? asText(body) : undefined;
  const obj = rawText === undefined ? (body as Record<string, unknown>) : parseObject(rawText);
  if (!obj) return false;
  const event = obj.event;
  const given = sign ?? obj.sign;
  if (typeof event !== 'string' || typeof given !== 'string') return false;
  let ok = false;
  // Every candidate is compared (no early exit) so timing does not depend on which one matched.
  for (const text of v1DataTexts(rawText, obj.data)) {
    if (signMatches(signV1(event, text, key), given)) ok = true;
  }
  return ok;
}

/**
 * Which rule a body follows: v1 bodies carry `sign` themselves; v2 and v2.1 bodies do not (their sign is a
 * header). Undefined when the body is not a JSON object.
 */
export function detectVersion(body: Buffer | string | Record<string, unknown>): SignatureVersion | undefined {
  const obj = typeof body === 'string' || Buffer.isBuffer(body) ? parseObject(asText(body)) : body;
  if (!obj) return undefined;
  return typeof obj.sign === 'string' ? 'v1' : 'v2';
}
