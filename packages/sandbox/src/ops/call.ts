// One request as an operation handler sees it (@trk/sandbox/ops/table.ts dispatches it).

import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { ServedVersion } from '../versions.js';

export interface OperationCall {
  /** The version whose rules answer (v2.2 and later: v2.1). */
  version: ApiVersion;
  /** The version segment the request came in under: later versions add answer fields. */
  served: ServedVersion;
  /** The parsed body; undefined when there was none. */
  body: unknown;
  /** Injected (http/faults.ts): records each list page after the first repeats of the page before. */
  pageOverlap?: number;
}
