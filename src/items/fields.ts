// Which input columns an operation reads, and which the API version knows at all. A column the version does
// not know is refused before anything is read further (a `lang` column against v1 would otherwise be dropped
// without a word); a known column the operation does not use (a `tag` column in a file given to `trk stop`) is
// ignored with a note, so that the file a shop imported can be reused to stop or delete the same numbers.

import { API_VERSIONS, type ApiVersion } from '../api/spec.js';
import type { ChangeCarrierRequestItem, RegisterRequestItem } from '../api/types.js';

/** Operations the bulk path runs. `gettracklist` is `trk list --number` with more numbers than one call takes. */
export const BULK_OPERATIONS = [
  'register',
  'stoptrack',
  'retrack',
  'deletetrack',
  'push',
  'gettrackinfo',
  'changecarrier',
  'changeinfo',
  'gettracklist',
] as const;
export type BulkOperation = (typeof BULK_OPERATIONS)[number];

/** The trk command that runs each operation: what status lines call it, since that is what the user typed. */
export const COMMAND_NAME: Readonly<Record<BulkOperation, string>> = {
  register: 'register',
  stoptrack: 'stop',
  retrack: 'retrack',
  deletetrack: 'delete',
  push: 'push',
  gettrackinfo: 'info',
  changecarrier: 'change-carrier',
  changeinfo: 'update',
  gettracklist: 'list',
};

/** Every column name trk reads, named after the API's request fields. */
export const COLUMN_NAMES = [
  'number',
  'carrier',
  'param',
  'tag',
  'lang',
  'email',
  'final_carrier',
  'auto_detection',
  'order_no',
  'order_time',
  'remark',
  'carrier_old',
  'carrier_new',
  'final_carrier_old',
  'final_carrier_new',
] as const;
export type ColumnName = (typeof COLUMN_NAMES)[number];

const REGISTER_V1: readonly ColumnName[] = ['number', 'carrier', 'param', 'tag', 'final_carrier', 'auto_detection'];
const REGISTER_V2: readonly ColumnName[] = [...REGISTER_V1, 'lang', 'email'];
const REGISTER_V21: readonly ColumnName[] = [...REGISTER_V2, 'order_no', 'order_time', 'remark'];
const CHANGE_CARRIER: readonly ColumnName[] = ['number', 'carrier', 'carrier_old', 'carrier_new', 'final_carrier_old', 'final_carrier_new'];

/** Columns `op` reads in `version`. In change-carrier files `carrier` means the current carrier (carrier_old). */
export function operationColumns(op: BulkOperation, version: ApiVersion): readonly ColumnName[] {
  switch (op) {
    case 'register':
      return version === 'v1' ? REGISTER_V1 : version === 'v2' ? REGISTER_V2 : REGISTER_V21;
    case 'changecarrier':
      return CHANGE_CARRIER;
    case 'changeinfo':
      // v1 changeinfo changes the tag only.
      return version === 'v1' ? ['number', 'carrier', 'tag'] : ['number', 'carrier', 'tag', 'param', 'lang'];
    case 'gettracklist':
      return ['number'];
    default:
      return ['number', 'carrier'];
  }
}

/** Columns any operation of `version` can use: the ones a file for this version may carry. */
export function versionColumns(version: ApiVersion): readonly ColumnName[] {
  return [...new Set<ColumnName>([...operationColumns('register', version), ...CHANGE_CARRIER])];
}

/** The first version that knows `column`, for the refusal's hint; undefined for names no version knows. */
export function versionIntroducing(column: string): ApiVersion | undefined {
  for (const v of API_VERSIONS) if ((versionColumns(v) as readonly string[]).includes(column)) return v;
  return undefined;
}

export function isColumnName(name: string): name is ColumnName {
  return (COLUMN_NAMES as readonly string[]).includes(name);
}

/** Header cell → column name: case-insensitive, trimmed; `tracking_number` and friends mean `number`. */
export function normaliseHeader(cell: string): string {
  const name = cell.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return name === 'tracking_number' || name === 'trackingnumber' ? 'number' : name;
}

/** The values of one input row, by column, after defaults were applied (text as read). */
export type RowValues = Partial<Record<ColumnName, string>>;

/** A row made ready for the wire (v2 field names; the v1 mapping is the body builders' business). */
export type BulkItem = RegisterRequestItem & Omit<ChangeCarrierRequestItem, 'number'>;

/** The carrier that makes a row unique for `op` (number + this is the duplicate key and the journal's match). */
export function identityCarrier(op: BulkOperation, item: BulkItem): number | undefined {
  return op === 'changecarrier' ? (item.carrier_old ?? item.carrier) : item.carrier;
}

/** Quota units an item costs: registering costs 1, 2 with a translation language; a carrier change 1. */
export function quotaCost(op: BulkOperation, item: BulkItem): number {
  if (op === 'register') return item.lang ? 2 : 1;
  if (op === 'changecarrier') return 1;
  return 0;
}

/** Operations that consume quota: checked against the quota before a run, verified after lost answers. */
export function isCharging(op: BulkOperation): boolean {
  return op === 'register' || op === 'changecarrier';
}

/** Reads change nothing: they are not journaled and simply run again when interrupted. */
export function isReadOnly(op: BulkOperation): boolean {
  return op === 'gettrackinfo' || op === 'gettracklist';
}

/** Items per request. `gettracklist` takes up to 200 numbers in its filter. */
export const LIST_NUMBERS_PER_CALL = 200;
