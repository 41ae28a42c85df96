// retrack: track stopped numbers again, once each (free; v1 spells it Retrack).

import type { NumberCarrierItem } from '../types.js';
import { EVERY, RECORD_CARRIER, NUMBER_CARRIER, type ItemOperationSpec } from './operation.js';
import { numberCarrierBody, numberCarrierItems } from './number-carrier.js';
import { itemLists } from './shapes.js';

export const retrack = {
  name: 'retrack',
  paths: { v1: 'Retrack', v2: 'retrack', 'v2.1': 'retrack' },
  class: 'write',
  perRequest: EVERY,
  fields: NUMBER_CARRIER,
  flagHelp: { carrier: RECORD_CARRIER },
  body: numberCarrierBody,
  itemBody: (version, items) => numberCarrierBody(version, numberCarrierItems(items)),
  answer: itemLists({ carrier: false }),
  already: { codes: [-18019904], words: 'already tracking' },
  alreadyAfterResend: [-18019905],
  command: 'retrack',
  done: 'retracked',
} as const satisfies ItemOperationSpec<'retrack', readonly NumberCarrierItem[]>;
