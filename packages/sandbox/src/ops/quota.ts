// getquota: no parameters; the body is an empty array (an empty object or no body is taken too).

import type { AccountCore } from '../account/core.js';
import { type Envelope, requestError } from '../account/envelope.js';
import { isObject } from '../account/request.js';
import type { EmulatedOperation } from './call.js';

export function getQuota(core: AccountCore, body: unknown): Envelope {
  const empty =
    body === undefined ||
    body === null ||
    (Array.isArray(body) && body.length === 0) ||
    (isObject(body) && Object.keys(body).length === 0);
  if (!empty) return requestError(-18010013);
  return { code: 0, data: core.quota.record() };
}

// "v1 has no getquota and no real-time operation".
export const getQuotaOperation: EmulatedOperation = {
  operation: 'getquota',
  paths: { v2: 'getquota', 'v2.1': 'getquota' },
  handle: (core, c) => getQuota(core, c.body),
};
