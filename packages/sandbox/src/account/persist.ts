// The account's records on disk. 100,000 records as objects are ~85 MB of JSON; as rows of the columns
// below, without the stored result of the last run, a fraction of that. The stored result is not saved:
// the world is deterministic, so it is recomputed on restore from the time of the last run.

import type { PackageStatus } from '@trk/service/vocabulary.js';
import type { RecordState } from './types.js';

/** Persisted fields, in row order. Rows are read by these names, so the order may change between versions. */
export const RECORD_COLUMNS = [
  'id',
  'number',
  'carrier',
  'finalCarrier',
  'param',
  'tag',
  'email',
  'lang',
  'orderNo',
  'orderTime',
  'remark',
  'version',
  'registerMs',
  'trackingStartMs',
  'tracking',
  'stopMs',
  'stopReason',
  'stopNotifiedMs',
  'retracked',
  'changeCount',
  'pending',
  'langCharged',
  'dueMs',
  'trackMs',
  'pushMs',
  'pushStatus',
  'pushCode',
] as const satisfies readonly (keyof RecordState)[];

type Persisted = (typeof RECORD_COLUMNS)[number];

/** The fields a tracking run stores: recomputed, never persisted. */
export type StoredResult = Omit<RecordState, Persisted>;

export function emptyResult(): StoredResult {
  return {
    status: 'NotFound' as PackageStatus,
    subStatus: 'NotFound_Other',
    firstEventMs: null,
    lastEventMs: null,
    pickupMs: null,
    deliveredMs: null,
    transitStartMs: null,
    latestEventInfo: null,
    latestEventOffset: null,
    shippingCountry: null,
    recipientCountry: null,
    resultKey: null,
  };
}

export function encodeRecord(rec: RecordState): unknown[] {
  return RECORD_COLUMNS.map((c) => rec[c]);
}

/** A record from a row; the stored result is empty until the caller recomputes it. */
export function decodeRecord(index: ReadonlyMap<string, number>, row: readonly unknown[]): RecordState {
  const get = <T>(c: Persisted): T => row[index.get(c) as number] as T;
  // One literal with every field: all records share one object shape, which keeps 100,000 of them fast.
  return {
    id: get('id'),
    number: get('number'),
    carrier: get('carrier'),
    finalCarrier: get('finalCarrier'),
    param: get('param'),
    tag: get('tag'),
    email: get('email'),
    lang: get('lang'),
    orderNo: get('orderNo'),
    orderTime: get('orderTime'),
    remark: get('remark'),
    version: get('version'),
    registerMs: get('registerMs'),
    trackingStartMs: get('trackingStartMs'),
    tracking: get('tracking'),
    stopMs: get('stopMs'),
    stopReason: get('stopReason'),
    stopNotifiedMs: get('stopNotifiedMs'),
    retracked: get('retracked'),
    changeCount: get('changeCount'),
    pending: get('pending'),
    langCharged: get('langCharged'),
    dueMs: get('dueMs'),
    trackMs: get('trackMs'),
    ...emptyResult(),
    pushMs: get('pushMs'),
    pushStatus: get('pushStatus'),
    pushCode: get('pushCode'),
  };
}

/** Column positions of a saved state; throws when one is missing. */
export function columnIndex(columns: readonly string[]): Map<string, number> {
  const index = new Map(columns.map((c, i) => [c, i]));
  for (const c of RECORD_COLUMNS) {
    if (!index.has(c)) throw new Error(`saved account records lack the field "${c}"`);
  }
  return index;
}
