// What `trk changes --columns` takes: the names alone, for the declaration (the columns are in changes.ts). The
// parcel's customer references come from the registry of record fields.

import { REFERENCE_COLUMN_NAMES } from '@trk/service/record-fields.js';

export const CHANGE_COLUMN_NAMES = [
  'id',
  'detected_at',
  'number',
  'carrier',
  'from',
  'to',
  'from_sub_status',
  'to_sub_status',
  'event_time',
  'source',
  ...REFERENCE_COLUMN_NAMES,
] as const;
