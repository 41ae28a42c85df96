// Request bodies on their way to the wire: what the operation modules build (@trk/service/operations/), with what a
// version cannot express refused as a usage error naming the fix (exit 2, nothing sent), never silently dropped:
// a tag or filter that quietly vanishes would do something the user did not ask.

import { UsageError } from '../core/errors.js';
import {
  itemsBody,
  operationBody,
  operationPath,
  operationSpec,
  RequestRefused,
  type BodyInput,
  type BodyOf,
  type Item,
  type ItemOperation,
  type ListPart,
  type Operation,
} from '@trk/service/operations/index.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';

/** Throws when `version` lacks `op` (v1 has no getquota and no getRealTimeTrackInfo). */
export function unsupported(version: ApiVersion, op: Operation): void {
  if (operationPath(version, op) !== undefined) return;
  const noun = operationSpec(op).noun ?? `${op} operation`;
  throw new UsageError(`the ${version} API has no ${noun}`, 'use --api-version v2');
}

/** The body of `op` in `version` for what the caller has (a filter, items). */
export function wireBody<O extends Operation>(op: O, version: ApiVersion, input: BodyInput<O>): BodyOf<O> {
  unsupported(version, op);
  return refusedAsUsage(() => operationBody(op, version, input));
}

/** The body of an item operation for a chunk of the engine's checked rows. */
export function requestBody(op: ItemOperation, version: ApiVersion, items: readonly Item[], list?: ListPart): unknown {
  return refusedAsUsage(() => itemsBody(op, version, items, list));
}

function refusedAsUsage<T>(build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof RequestRefused) throw new UsageError(err.message, err.hint);
    throw err;
  }
}
