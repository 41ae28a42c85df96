// stoptrack: stop tracking numbers (free).

import type { NumberCarrierItem } from '../types.js';
import { EVERY, RECORD_CARRIER, NUMBER_CARRIER, samePath, type ItemOperationSpec } from './operation.js';
import { numberCarrierBody, numberCarrierItems } from './number-carrier.js';
import { itemLists } from './shapes.js';

export const stopTrack = {
  name: 'stoptrack',
  paths: samePath('stoptrack'),
  class: 'write',
  perRequest: EVERY,
  fields: NUMBER_CARRIER,
  flagHelp: { carrier: RECORD_CARRIER },
  body: numberCarrierBody,
  itemBody: (version, items) => numberCarrierBody(version, numberCarrierItems(items)),
  answer: itemLists({ carrier: false }),
  already: { codes: [-18019906], words: 'already stopped' },
  command: 'stop',
  done: 'stopped',
} as const satisfies ItemOperationSpec<'stoptrack', readonly NumberCarrierItem[]>;
