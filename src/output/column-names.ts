// The names of every column set, in the order the columns are printed: what --columns takes, what its help and
// the completions list, and the CSV header. One place for them, light enough for command declarations to load;
// columns.ts and the commands define the columns themselves under these names (the compiler holds them together).

import { REFERENCE_COLUMN_NAMES, withFieldColumns } from '@trk/service/record-fields.js';

/** Registration records (`trk list`); the columns of fields read as sent are placed by record-fields.ts. */
export const RECORD_COLUMN_NAMES = withFieldColumns([
  'number',
  'carrier',
  'final_carrier',
  'status',
  'tracking',
  'registered',
  'tracked',
  'pushed',
  'push_status',
  'push_code',
  'stopped',
  'stop_reason',
  'retracked',
  'carrier_changes',
  'origin_country',
  'destination_country',
  'latest_event_time',
  'latest_event',
  'delivered',
  'delivered_raw',
] as const);

/** Tracking details (`trk info`, `trk realtime`), one row per number. */
export const DETAILS_COLUMN_NAMES = [
  'number',
  'carrier',
  'final_carrier',
  'status',
  'sub_status',
  'latest_event_time',
  'latest_event',
  'latest_location',
  'age',
  'expected',
  'origin',
  'destination',
  'days_after_order',
  'days_of_transit',
  'days_after_last_update',
  'eta_from',
  'eta_to',
  'delivered',
  'customs',
  'events',
  'tag',
  'latest_event_time_raw',
  'delivered_raw',
] as const;

/** What item results add to the columns of what they are about. */
export const RESULT_COLUMN_NAMES = ['result', 'error_code', 'error_message'] as const;

/** Results of item commands (stop, retrack, delete, push, change-carrier, update). */
export const ITEM_COLUMN_NAMES = ['number', 'carrier', ...RESULT_COLUMN_NAMES, 'tag'] as const;

/** Results of `trk register`: how each carrier was settled, too. */
export const REGISTER_COLUMN_NAMES = ['number', 'carrier', 'origin', ...RESULT_COLUMN_NAMES, 'tag'] as const;

/** Details columns of `trk info` and `trk realtime`, with the result of each number. */
export const DETAILS_RESULT_COLUMN_NAMES = [...DETAILS_COLUMN_NAMES, ...RESULT_COLUMN_NAMES] as const;

/** `trk find`: details with the customer references the mirror's records hold (the tag is the details' own). */
export const FIND_COLUMN_NAMES = [
  ...DETAILS_RESULT_COLUMN_NAMES,
  ...REFERENCE_COLUMN_NAMES.filter((name) => name !== 'tag'),
] as const;

export const QUOTA_FIELD_NAMES = [
  'quota_total',
  'quota_used',
  'quota_remain',
  'today_used',
  'max_track_daily',
  'free_email_quota',
  'free_email_quotaused',
] as const;

export const CARRIER_COLUMN_NAMES = ['key', 'name', 'country', 'url'] as const;
export const COUNTRY_COLUMN_NAMES = ['key', 'iso', 'name'] as const;
/** Columns a rejects file adds to the input's own; ignored when such a file is read back as input. */
export const REJECT_COLUMNS = ['input_line', 'error_code', 'error_message'] as const;
export const RUN_COLUMN_NAMES = ['id', 'state', 'command', 'input', 'when', 'done', 'account'] as const;
