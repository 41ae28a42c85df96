// gettracklist: filter, order and page the stored records. Reads the fields stored by the last tracking
// run only (never the world), so that a page over 100,000 records is one pass and a sort of the matches.

import {
  DATA_ORIGINS,
  LIMITS,
  ORDER_BY,
  type OrderBy,
  PACKAGE_STATUSES,
  PUSH_STATUSES,
  type PushStatus,
  TRACKING_STATUSES,
  V1_PACKAGE_STATUS_CODE,
  V1_PUSH_STATE,
} from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject, requestError } from '../account/envelope.js';
import { isObject, normaliseNumber } from '../account/request.js';
import { v1ListRecord, v2ListRecord } from '../account/record-view.js';
import { parseTimeFilter } from '../account/time.js';
import type { RecordState } from '../account/types.js';
import { type OperationCall, type EmulatedOperation, everywhere } from './call.js';

type Predicate = (rec: RecordState) => boolean;

interface ListQuery {
  predicates: Predicate[];
  /** Several numbers: exact match through the number index instead of a scan. */
  exactNumbers?: string[];
  pageNo: number;
  orderBy: OrderBy;
}

/**
 * Order when order_by is absent: registration time, oldest first. Pages stay stable while numbers are
 * being registered (new records go to the end). Ties (same millisecond) keep registration order.
 */
export const DEFAULT_ORDER: OrderBy = 'RegisterTimeAsc';

export function getTrackList(core: AccountCore, call: OperationCall): Envelope {
  const { version, served, body } = call;
  let query: ListQuery;
  try {
    query = version === 'v1' ? parseV1(body) : parseV2(body);
  } catch (err) {
    if (err instanceof ItemReject) return requestError(err.code, ...err.args);
    throw err;
  }
  const matches = filter(core, query);
  sortRecords(matches, query.orderBy);
  const size = LIMITS.pageSize;
  const paging = pagingOf(matches.length, call.pageOverlap ?? 0);
  const start = (query.pageNo - 1) * paging.stride;
  const now = core.now();
  // A page past the end is empty (with an overlap, one would otherwise repeat the last page's records).
  const page = query.pageNo > paging.pages ? [] : matches.slice(start, start + size);
  const accepted =
    version === 'v1' ? page.map((r) => v1ListRecord(core, r)) : page.map((r) => v2ListRecord(core, r, served, now));
  return {
    page: { data_total: paging.served, page_total: paging.pages, page_no: query.pageNo, page_size: size },
    code: 0,
    data: { accepted },
  };
}

/**
 * The pages of `total` matches: where each starts (`stride` records after the one before), how many there are, and
 * how many records they serve. With an injected overlap (http/faults.ts), every page after the first starts with the
 * last `overlap` records of the page before, as when records moved ahead between two page reads; the counts are of
 * the list as served, so that every record still comes.
 */
export function pagingOf(total: number, overlap: number): { stride: number; pages: number; served: number } {
  const size = LIMITS.pageSize;
  const stride = size - overlap;
  const pages = total <= size ? Math.ceil(total / size) : 1 + Math.ceil((total - size) / stride);
  return { stride, pages, served: total + overlap * Math.max(0, pages - 1) };
}

function filter(core: AccountCore, query: ListQuery): RecordState[] {
  const { predicates } = query;
  const test = (rec: RecordState): boolean => {
    for (const p of predicates) if (!p(rec)) return false;
    return true;
  };
  const out: RecordState[] = [];
  if (query.exactNumbers) {
    for (const number of new Set(query.exactNumbers)) {
      for (const rec of core.store.forNumber(number)) if (test(rec)) out.push(rec);
    }
    return out;
  }
  for (const rec of core.store.values()) if (test(rec)) out.push(rec);
  return out;
}

function sortKey(orderBy: OrderBy): (r: RecordState) => number {
  if (orderBy.startsWith('Push')) return (r) => r.pushMs ?? Number.NEGATIVE_INFINITY;
  if (orderBy.startsWith('Track')) return (r) => r.trackMs ?? Number.NEGATIVE_INFINITY;
  return (r) => r.registerMs;
}

/** Sort in place; records never pushed or tracked sort as the oldest. Already-sorted input is not re-sorted. */
export function sortRecords(recs: RecordState[], orderBy: OrderBy): void {
  const key = sortKey(orderBy);
  const dir = orderBy.endsWith('Desc') ? -1 : 1;
  const cmp = (a: RecordState, b: RecordState): number => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return ka < kb ? -dir : dir;
    return (a.id - b.id) * dir;
  };
  // The store iterates in registration order, so the default order is usually already there.
  for (let i = 1; i < recs.length; i++) {
    if (cmp(recs[i - 1] as RecordState, recs[i] as RecordState) > 0) {
      recs.sort(cmp);
      return;
    }
  }
}

// ---- request parsing ----

type Fields = Record<string, unknown>;

function bodyFields(body: unknown): Fields {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw new ItemReject(-18010013);
  // Empty strings and nulls are "not set": clients often send every field.
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== ''));
}

function enumField<T extends string>(fields: Fields, name: string, values: readonly T[]): T | undefined {
  const v = fields[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    throw new ItemReject(-18010015, String(v), name);
  return v as T;
}

function intField(fields: Fields, name: string, allowed?: readonly number[]): number | undefined {
  const v = fields[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || (allowed && !allowed.includes(n))) {
    throw new ItemReject(-18010015, String(v), name);
  }
  return n;
}

/** page_no: "default 1"; 0 is "not set" too (a Go client sends the zero value of a field it leaves out). */
function pageNo(fields: Fields): number {
  const n = intField(fields, 'page_no');
  if (n === undefined || n === 0) return 1;
  if (n < 0) throw new ItemReject(-18010015, String(fields.page_no), 'page_no');
  return n;
}

/** Adds a range predicate on `get` for `<from>`/`<to>` fields (both inclusive). */
function timeRange(
  fields: Fields,
  predicates: Predicate[],
  fromName: string,
  toName: string,
  get: (r: RecordState) => number | null,
): void {
  const bound = (name: string, end: boolean): number | undefined => {
    const v = fields[name];
    if (v === undefined) return undefined;
    const ms = parseTimeFilter(v, end);
    if (ms === undefined) throw new ItemReject(-18010015, String(v), name);
    return ms;
  };
  const from = bound(fromName, false);
  const to = bound(toName, true);
  if (from !== undefined) predicates.push((r) => (get(r) ?? Number.NEGATIVE_INFINITY) >= from);
  if (to !== undefined)
    predicates.push((r) => {
      const t = get(r);
      return t !== null && t <= to;
    });
}

/** The number filter: one number = substring match, several (comma separated, at most 200) = exact. */
function numberFilter(fields: Fields, query: ListQuery): void {
  const v = fields.number;
  if (v === undefined) return;
  if (typeof v !== 'string') throw new ItemReject(-18010011, 'number');
  const numbers = v
    .split(',')
    .map(normaliseNumber)
    .filter((n) => n !== '');
  if (numbers.length > LIMITS.listNumberFilterMax) throw new ItemReject(-18010014);
  if (numbers.length === 1) {
    const part = numbers[0] as string;
    query.predicates.push((r) => r.number.includes(part));
  } else if (numbers.length > 1) {
    query.exactNumbers = numbers;
  }
}

/** A carrier code of 0 is absent here as everywhere in the emulator: no code is 0, so it would match nothing. */
function carrierFilter(fields: Fields, predicates: Predicate[]): void {
  const carrier = intField(fields, 'carrier');
  if (carrier !== undefined && carrier !== 0) predicates.push((r) => r.carrier === carrier);
}

function parseV2(body: unknown): ListQuery {
  const fields = bodyFields(body);
  const query: ListQuery = { predicates: [], pageNo: pageNo(fields), orderBy: DEFAULT_ORDER };
  const p = query.predicates;
  numberFilter(fields, query);
  carrierFilter(fields, p);
  // Every record is registered through this API.
  const origin = enumField(fields, 'data_origin', DATA_ORIGINS);
  if (origin !== undefined) p.push(() => origin === 'Api');
  const status = enumField(fields, 'package_status', PACKAGE_STATUSES);
  if (status !== undefined) p.push((r) => r.status === status);
  const tracking = enumField(fields, 'tracking_status', TRACKING_STATUSES);
  if (tracking !== undefined) p.push((r) => r.tracking === (tracking === 'Tracking'));
  const push = enumField(fields, 'push_status', PUSH_STATUSES);
  if (push !== undefined) p.push((r) => r.pushStatus === push);
  const code = intField(fields, 'push_status_code');
  if (code !== undefined) p.push((r) => r.pushCode === code);
  timeRange(fields, p, 'register_time_from', 'register_time_to', (r) => r.registerMs);
  timeRange(fields, p, 'track_time_from', 'track_time_to', (r) => r.trackMs);
  timeRange(fields, p, 'push_time_from', 'push_time_to', (r) => r.pushMs);
  timeRange(fields, p, 'stop_track_time_from', 'stop_track_time_to', (r) => r.stopMs);
  query.orderBy = enumField(fields, 'order_by', ORDER_BY) ?? DEFAULT_ORDER;
  return query;
}

const V1_PUSH_BY_STATE = Object.fromEntries(Object.entries(V1_PUSH_STATE).map(([k, v]) => [v, k])) as Record<
  number,
  PushStatus
>;

/** v1 request fields; `tracking_time_*` (described only as "latest tracked time") filter the track time. */
function parseV1(body: unknown): ListQuery {
  const fields = bodyFields(body);
  const query: ListQuery = { predicates: [], pageNo: pageNo(fields), orderBy: DEFAULT_ORDER };
  const p = query.predicates;
  numberFilter(fields, query);
  carrierFilter(fields, p);
  const e = intField(fields, 'package_status', [...new Set(Object.values(V1_PACKAGE_STATUS_CODE))]);
  if (e !== undefined) p.push((r) => V1_PACKAGE_STATUS_CODE[r.status] === e);
  const state = intField(fields, 'tracking_state', [0, 1]);
  if (state !== undefined) p.push((r) => r.tracking === (state === 1));
  const pushState = intField(fields, 'push_state', [0, 1, 2]);
  if (pushState !== undefined) {
    const status = V1_PUSH_BY_STATE[pushState];
    p.push((r) => r.pushStatus === status);
  }
  timeRange(fields, p, 'register_time_from', 'register_time_to', (r) => r.registerMs);
  timeRange(fields, p, 'tracking_time_from', 'tracking_time_to', (r) => r.trackMs);
  timeRange(fields, p, 'push_time_from', 'push_time_to', (r) => r.pushMs);
  timeRange(fields, p, 'stop_time_from', 'stop_time_to', (r) => r.stopMs);
  return query;
}

/** Its row of the emulator's table (table.ts). */
export const getTrackListOperation: EmulatedOperation = {
  operation: 'gettracklist',
  paths: everywhere('gettracklist'),
  handle: (core, c) => getTrackList(core, c),
};
