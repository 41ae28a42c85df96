// stoptrack: stop tracking numbers (free).

import type { NumberCarrierItem } from '../types.js';
import { samePath, type ItemOperationSpec } from './operation.js';
import { NUMBER_CARRIER_PARTS } from './number-carrier.js';

export const stopTrack = {
  name: 'stoptrack',
  paths: samePath('stoptrack'),
  class: 'write',
  ...NUMBER_CARRIER_PARTS,
  already: { codes: [-18019906], words: 'already stopped' },
  command: 'stop',
  done: 'stopped',
} as const satisfies ItemOperationSpec<'stoptrack', readonly NumberCarrierItem[]>;
