// Which signature rule a notification falls under and whether it holds, decided on the raw bytes.

import { detectVersion, verifyV1, verifyV2, type SignatureVersion } from '../verify.js';

export interface Verdict {
  version: SignatureVersion | undefined;
  verified: boolean;
  /** Why it does not verify. */
  problem?: string;
}

function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h.join(', ') : h;
}

/**
 * A `sign` header means v2/v2.1; a JSON body carrying `sign` means v1; anything else is unsigned. The body is
 * parsed only when it may be v1 (it mentions "sign").
 */
export function verifyNotification(
  raw: Buffer,
  signHeader: string | string[] | undefined,
  key: string | undefined,
): Verdict {
  const headerSign = headerValue(signHeader);
  const version: SignatureVersion | undefined =
    headerSign !== undefined ? 'v2' : raw.includes('"sign"') && detectVersion(raw) === 'v1' ? 'v1' : undefined;
  if (version === undefined) return { version, verified: false, problem: 'no signature' };
  if (!key) return { version, verified: false, problem: 'no key to verify with' };
  const verified = version === 'v2' ? verifyV2(raw, headerSign!, key) : verifyV1(raw, key);
  if (verified) return { version, verified };
  return { version, verified, problem: `bad signature (${version === 'v2' ? 'sign header' : 'v1, sign in the body'})` };
}
