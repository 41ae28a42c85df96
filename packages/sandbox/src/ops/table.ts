// The emulator's own table of the service's operations (as moto's urls.py → dispatch): for each, the path it
// answers at in every version and the handler that answers it. Routing (http/routes.ts) and the account's
// dispatch (Account.handle) read this table only, never the product's (@trk/service/operations/): both are
// readings of the same spec, and a misreading must not agree with itself. `test/operation-table.test.ts` (of this
// package) fails when an operation the product knows has no handler here, or sits at another path.

import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, requestError } from '../account/envelope.js';
import type { OperationCall } from './call.js';
import { changeCarrier } from './change-carrier.js';
import { changeInfo } from './change-info.js';
import { deleteTrack, push, retrack, stopTrack } from './lifecycle.js';
import { getQuota } from './quota.js';
import { realtime } from './realtime.js';
import { register } from './register.js';
import { getTrackInfo } from './track-info.js';
import { getTrackList } from './track-list.js';

export type { OperationCall } from './call.js';

export interface EmulatedOperation {
  /** Path segment in each version (spec, "v1 differences"); a version without the operation has none. */
  readonly paths: Readonly<Partial<Record<ApiVersion, string>>>;
  readonly handle: (core: AccountCore, call: OperationCall) => Envelope;
}

const everywhere = (segment: string) => ({ v1: segment, v2: segment, 'v2.1': segment });

/** Every operation of the service; the type makes a missing one a compile error. */
export const EMULATED_OPERATIONS: Readonly<Record<Operation, EmulatedOperation>> = {
  register: { paths: everywhere('register'), handle: (core, c) => register(core, c.version, c.body) },
  changecarrier: { paths: everywhere('changecarrier'), handle: (core, c) => changeCarrier(core, c.version, c.body) },
  changeinfo: { paths: everywhere('changeinfo'), handle: (core, c) => changeInfo(core, c.version, c.body) },
  stoptrack: { paths: everywhere('stoptrack'), handle: (core, c) => stopTrack(core, c.version, c.body) },
  // v1 spells these two in its own casing: POST /Retrack, POST /deleteTrack.
  retrack: {
    paths: { v1: 'Retrack', v2: 'retrack', 'v2.1': 'retrack' },
    handle: (core, c) => retrack(core, c.version, c.body),
  },
  deletetrack: {
    paths: { v1: 'deleteTrack', v2: 'deletetrack', 'v2.1': 'deletetrack' },
    handle: (core, c) => deleteTrack(core, c.version, c.body),
  },
  push: { paths: everywhere('push'), handle: (core, c) => push(core, c.version, c.body) },
  gettrackinfo: { paths: everywhere('gettrackinfo'), handle: (core, c) => getTrackInfo(core, c) },
  gettracklist: { paths: everywhere('gettracklist'), handle: (core, c) => getTrackList(core, c) },
  // "v1 has no getquota and no real-time operation"; v2.1's forms of real time are not shown: v2's path.
  getquota: { paths: { v2: 'getquota', 'v2.1': 'getquota' }, handle: (core, c) => getQuota(core, c.body) },
  getRealTimeTrackInfo: {
    paths: { v2: 'getRealTimeTrackInfo', 'v2.1': 'getRealTimeTrackInfo' },
    handle: (core, c) => realtime(core, c),
  },
};

export const EMULATED_OPERATION_NAMES = Object.keys(EMULATED_OPERATIONS) as Operation[];

/**
 * Answer one request. An operation the version lacks (reached only by calling the account directly: routing
 * gives such paths 404) is refused as a malformed request.
 */
export function dispatch(core: AccountCore, op: Operation, call: OperationCall): Envelope {
  const operation = EMULATED_OPERATIONS[op] as EmulatedOperation | undefined;
  if (operation?.paths[call.version] === undefined) return requestError(-18010013);
  return operation.handle(core, call);
}
