// The emulator's own table of the service's operations (as moto's urls.py → dispatch): for each, the path it
// answers at in every version and the handler that answers it, as the handler's module gives them (its row).
// Routing (http/routes.ts) and the account's dispatch (Account.handle) read this table only, never the product's
// (@trk/service/operations/): both are readings of the same spec, and a misreading must not agree with itself.
// `test/operation-table.test.ts` (of this package) fails when an operation the product knows has no handler here,
// or sits at another path.

import type { Operation } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, requestError } from '../account/envelope.js';
import type { EmulatedOperation, OperationCall } from './call.js';
import { EMULATED_ROWS } from './rows.js';

export type { EmulatedOperation, OperationCall } from './call.js';

/**
 * Every operation of the service, each row from its handler's module (rows.ts, which the build writes from this
 * folder): an operation without a row is answered as one the version lacks, and test/operation-table.test.ts fails.
 */
export const EMULATED_OPERATIONS = Object.fromEntries(EMULATED_ROWS.map((row) => [row.operation, row])) as Readonly<
  Record<Operation, EmulatedOperation>
>;

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
