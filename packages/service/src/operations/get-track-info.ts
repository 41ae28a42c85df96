// gettrackinfo: the tracking details of numbers.

import type { NumberCarrierItem } from '../types.js';
import { samePath, THIS_RECORD, type ItemOperationSpec } from './operation.js';
import { NUMBER_CARRIER_PARTS } from './number-carrier.js';

export const getTrackInfo = {
  name: 'gettrackinfo',
  paths: samePath('gettrackinfo'),
  class: 'read',
  ...NUMBER_CARRIER_PARTS,
  flagHelp: { carrier: THIS_RECORD },
  command: 'info',
  done: 'found',
} as const satisfies ItemOperationSpec<'gettrackinfo', readonly NumberCarrierItem[]>;
