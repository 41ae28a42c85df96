// Webhook bodies and their signatures, exactly as the specification describes them (Authentication 7 and 8):
// - v2 and v2.1: header `sign` = SHA-256, in lowercase hex, of `<raw body>/<key>`;
// - v1: `sign` inside the body = SHA-256 of `<event>/<compact JSON of data>/<key>`, and the body is
//   {event, sign, data} in that order (as the service's recorded v1 push shows).
// Computed here, apart from trk's verifier (src/webhook/verify.ts): the emulator is a second reading of the spec,
// so a misreading on either side shows as a failed verification in the end-to-end tests instead of agreeing
// with itself.

import { createHash } from 'node:crypto';
import type { ApiVersion } from '@trk/service/vocabulary.js';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function signedWebhook(
  version: ApiVersion,
  event: string,
  data: Record<string, unknown>,
  key: string,
): { headers: Record<string, string>; body: string } {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (version === 'v1') {
    // JSON.stringify writes `data` inside the body exactly as the compact text the sign covers.
    const sign = sha256Hex(`${event}/${JSON.stringify(data)}/${key}`);
    return { headers, body: JSON.stringify({ event, sign, data }) };
  }
  const body = JSON.stringify({ event, data });
  headers.sign = sha256Hex(`${body}/${key}`);
  return { headers, body };
}
