// getquota: the account's quota. v1 has none. It takes no parameters: an empty array.

import type { OperationSpec } from './operation.js';
import { quotaFields } from './shapes.js';

export const getQuota = {
  name: 'getquota',
  paths: { v2: 'getquota', 'v2.1': 'getquota' },
  class: 'read',
  noun: 'quota operation',
  body: (): [] => [],
  answer: quotaFields,
} as const satisfies OperationSpec<'getquota', void>;
