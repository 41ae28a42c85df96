// Which API operation a request path names. Two modes:
// - lenient (the default): duplicate slashes collapse, a trailing slash is ignored, and the path is matched
//   without regard to letter case, so `//track/v2/getquota`, `/track/v1/retrack` and `/track/v2/register/` all
//   reach their operation, as clients built against the live service expect;
// - strict (`--strict-paths`, `strictPaths`): only the exact paths of the spec, in each version's casing
//   (`/track/v1/Retrack`, `/track/v2/retrack`), so that a client that gets a path wrong finds out here. trk's
//   own tests run in this mode.
// Versions: v1, v2 and v2.1 as the spec gives them; v2.2, v2.3 and v2.4, which the live service answers and
// real clients call but the spec does not describe, are served with v2.1's semantics (paths, rules, shapes).

import { operationPath } from '../../api/ops.js';
import { API_VERSIONS, type ApiVersion, OPERATIONS, type Operation } from '../../api/spec.js';

/** Versions served beyond the spec's, each with the semantics of the version it maps to. */
export const LATER_VERSIONS: Readonly<Record<string, ApiVersion>> = { 'v2.2': 'v2.1', 'v2.3': 'v2.1', 'v2.4': 'v2.1' };

export interface Route {
  /** The version whose semantics answer (v2.2 and later: v2.1). */
  version: ApiVersion;
  /** The version segment as served (`v2.2`), for logs and counts. */
  served: string;
  op: Operation;
}

const SERVED: readonly (readonly [string, ApiVersion])[] = [
  ...API_VERSIONS.map((v) => [v, v] as const),
  ...Object.entries(LATER_VERSIONS),
];

/** Exact path → route: `/track/v1/Retrack` exists, `/track/v1/retrack` and `/track/v2/Retrack` do not. */
const EXACT: ReadonlyMap<string, Route> = new Map(
  SERVED.flatMap(([served, version]) =>
    OPERATIONS.flatMap((op) => {
      const path = operationPath(version, op);
      return path === undefined ? [] : [[`/track/${served}/${path}`, { version, served, op }] as const];
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
