// What `trk changes --columns` takes: the names alone, for the declaration (the columns are in changes.ts).

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
] as const;
