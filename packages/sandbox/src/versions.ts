// The API versions the emulator serves. v1, v2 and v2.1 as the spec describes them; v2.2, v2.3 and v2.4, which
// the live service answers and real clients call but the spec does not describe, with v2.1's rules (paths,
// checks, codes) and the answer fields the service's newer documentation shows (see packages/sandbox/README.md,
// "Newer versions").

import { API_VERSIONS, type ApiVersion } from '@trk/service/vocabulary.js';

export const LATER_VERSIONS = ['v2.2', 'v2.3', 'v2.4'] as const;
export type LaterVersion = (typeof LATER_VERSIONS)[number];

/** A version segment the emulator answers under. */
export type ServedVersion = ApiVersion | LaterVersion;

export const SERVED_VERSIONS: readonly ServedVersion[] = [...API_VERSIONS, ...LATER_VERSIONS];

export function isLaterVersion(version: string): version is LaterVersion {
  return (LATER_VERSIONS as readonly string[]).includes(version);
}

/** The version whose rules answer a request made under `version`. */
export function rulesOf(version: ServedVersion): ApiVersion {
  return isLaterVersion(version) ? 'v2.1' : version;
}
