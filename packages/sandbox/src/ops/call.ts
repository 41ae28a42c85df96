// One request as an operation handler sees it, and a handler's row of the table (@trk/sandbox/ops/table.ts
// dispatches it): each handler's module exports its row.

import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import type { Envelope } from '../account/envelope.js';
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

export interface EmulatedOperation {
  /** The operation it answers, by trk's name for it (its v2 spelling). */
  readonly operation: Operation;
  /** Path segment in each version (spec, "v1 differences"); a version without the operation has none. */
  readonly paths: Readonly<Partial<Record<ApiVersion, string>>>;
  readonly handle: (core: AccountCore, call: OperationCall) => Envelope;
}

/** The same path segment in every version. */
export const everywhere = (segment: string) => ({ v1: segment, v2: segment, 'v2.1': segment });
