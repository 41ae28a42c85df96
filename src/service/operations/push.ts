// push: send the latest state of numbers to the webhook again (free).

import type { NumberCarrierItem } from '../types.js';
import { EVERY, RECORD_CARRIER, NUMBER_CARRIER, samePath, type ItemOperationSpec } from './operation.js';
import { numberCarrierBody, numberCarrierItems } from './number-carrier.js';
import { itemLists } from './shapes.js';

export const push = {
  name: 'push',
  paths: samePath('push'),
  class: 'write',
  perRequest: EVERY,
  fields: NUMBER_CARRIER,
  flagHelp: { carrier: RECORD_CARRIER },
  body: numberCarrierBody,
  itemBody: (version, items) => numberCarrierBody(version, numberCarrierItems(items)),
  answer: itemLists({ carrier: false }),
  command: 'push',
  done: 'queued for push',
} as const satisfies ItemOperationSpec<'push', readonly NumberCarrierItem[]>;
