// Webhook bodies and their signatures, exactly as the specification describes them.
// v2 and v2.1: header `sign` = sha256hex(<raw body> + "/" + key).
// v1: `sign` inside the body = sha256hex(<event> + "/" + <compact JSON of data> + "/" + key), and the body
// is {event, sign, data} in that order (as the service's captured v1 push shows).

import { createHash } from 'node:crypto';
import type { ApiVersion } from '../api/spec.js';

export function sha256hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function signedWebhook(
  version: ApiVersion,
  event: string,
  data: Record<string, unknown>,
  key: string,
): { headers: Record<string, string>; body: string } {
  if (version === 'v1') {
    const dataText = JSON.stringify(data);
    const sign = sha256hex(`${event}/${dataText}/${key}`);
    // Built by hand so that `data` is byte-for-byte the text that was signed.
    const body = `{"event":${JSON.stringify(event)},"sign":"${sign}","data":${dataText}}`;
    return { headers: { 'content-type': 'application/json' }, body };
  }
  const body = JSON.stringify({ event, data });
  return { headers: { 'content-type': 'application/json', sign: sha256hex(`${body}/${key}`) }, body };
}
