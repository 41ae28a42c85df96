// gettrackinfo: the tracking details of numbers.

import type { NumberCarrierItem } from '../types.js';
import { EVERY, NUMBER_CARRIER, samePath, type ItemOperationSpec } from './operation.js';
import { numberCarrierBody, numberCarrierItems } from './number-carrier.js';
import { itemLists } from './shapes.js';

export const getTrackInfo = {
  name: 'gettrackinfo',
  paths: samePath('gettrackinfo'),
  class: 'read',
  perRequest: EVERY,
  fields: NUMBER_CARRIER,
  flagHelp: { carrier: 'only the record under this carrier (code or name)' },
  body: numberCarrierBody,
  itemBody: (version, items) => numberCarrierBody(version, numberCarrierItems(items)),
  answer: itemLists({ carrier: false }),
  command: 'info',
  done: 'found',
} as const satisfies ItemOperationSpec<'gettrackinfo', readonly NumberCarrierItem[]>;
