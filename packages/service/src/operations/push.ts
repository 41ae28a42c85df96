// push: send the latest state of numbers to the webhook again (free).

import type { NumberCarrierItem } from '../types.js';
import { samePath, type ItemOperationSpec } from './operation.js';
import { NUMBER_CARRIER_PARTS } from './number-carrier.js';

export const push = {
  name: 'push',
  paths: samePath('push'),
  class: 'write',
  ...NUMBER_CARRIER_PARTS,
  command: 'push',
  done: 'queued for push',
} as const satisfies ItemOperationSpec<'push', readonly NumberCarrierItem[]>;
