// Webhook bodies and their signatures, exactly as the specification describes them.
// v2 and v2.1: header `sign` = sha256hex(<raw body> + "/" + key).
// v1: `sign` inside the body = sha256hex(<event> + "/" + <compact JSON of data> + "/" + key), and the body
// is {event, sign, data} in that order (as the service's captured v1 push shows).
// The signing itself is the one implementation trk verifies with (src/webhook/verify.ts), so the emulator and
// `trk webhook verify/listen` cannot drift apart; the end-to-end tests check it against the spec's rule.

import type { ApiVersion } from '../../api/spec.js';
import { signedV1Body, signV2 } from '../../webhook/verify.js';

export function signedWebhook(
  version: ApiVersion,
  event: string,
  data: Record<string, unknown>,
  key: string,
): { headers: Record<string, string>; body: string } {
  if (version === 'v1') return { headers: { 'content-type': 'application/json' }, body: signedV1Body(event, data, key) };
  const body = JSON.stringify({ event, data });
  return { headers: { 'content-type': 'application/json', sign: signV2(body, key) }, body };
}
