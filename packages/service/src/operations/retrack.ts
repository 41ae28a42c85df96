// retrack: track stopped numbers again, once each (free; v1 spells it Retrack).

import type { NumberCarrierItem } from '../types.js';
import type { ItemOperationSpec } from './operation.js';
import { NUMBER_CARRIER_PARTS } from './number-carrier.js';

export const retrack = {
  name: 'retrack',
  paths: { v1: 'Retrack', v2: 'retrack', 'v2.1': 'retrack' },
  class: 'write',
  ...NUMBER_CARRIER_PARTS,
  already: { codes: [-18019904], words: 'already tracking' },
  alreadyAfterResend: [-18019905],
  command: 'retrack',
  done: 'retracked',
} as const satisfies ItemOperationSpec<'retrack', readonly NumberCarrierItem[]>;
