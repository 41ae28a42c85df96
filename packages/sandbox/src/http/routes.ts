// Which API operation a request path names. Two modes:
// - lenient (the default): duplicate slashes collapse, a trailing slash is ignored, and the path is matched
//   without regard to letter case, so `//track/v2/getquota`, `/track/v1/retrack` and `/track/v2/register/` all
//   reach their operation, as clients built against the live service expect;
// - strict (`--strict-paths`, `strictPaths`): only the exact paths of the spec, in each version's casing
//   (`/track/v1/Retrack`, `/track/v2/retrack`), so that a client that gets a path wrong finds out here. trk's
//   own tests run in this mode.
// Versions: @trk/sandbox/versions.ts (v2.2 to v2.4 at v2.1's paths). Paths: the emulator's own operation table
// (@trk/sandbox/ops/table.ts).

import type { Operation } from '@trk/service/vocabulary.js';
import { EMULATED_OPERATION_NAMES, EMULATED_OPERATIONS } from '../ops/table.js';
import { rulesOf, SERVED_VERSIONS, type ServedVersion } from '../versions.js';

export interface Route {
  /** The version segment as served (`v2.2`): the account answers by its rules, with its fields. */
  served: ServedVersion;
  op: Operation;
}

/** Exact path → route: `/track/v1/Retrack` exists, `/track/v1/retrack` and `/track/v2/Retrack` do not. */
const EXACT: ReadonlyMap<string, Route> = new Map(
  SERVED_VERSIONS.flatMap((served) =>
    EMULATED_OPERATION_NAMES.flatMap((op) => {
      const segment = EMULATED_OPERATIONS[op].paths[rulesOf(served)];
      return segment === undefined ? [] : [[`/track/${served}/${segment}`, { served, op }] as const];
    }),
  ),
);

const LOWER: ReadonlyMap<string, Route> = new Map([...EXACT].map(([path, route]) => [path.toLowerCase(), route]));

/** Duplicate slashes collapsed and a trailing slash dropped: `//track/v2//getquota/` → `/track/v2/getquota`. */
export function normalisePath(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/** The operation a path names, or undefined (404). `path` is without the query string. */
export function routeOf(path: string, strict: boolean): Route | undefined {
  if (strict) return EXACT.get(path);
  return LOWER.get(normalisePath(path).toLowerCase());
}
