// gettracklist: the account's records, a page at a time, filtered. As an item operation (`trk list --number`
// with more numbers than one call takes) the numbers go into the filter, up to 200 a call.

import type { TrackListFilter } from '../types.js';
import {
  LIMITS,
  PACKAGE_STATUSES,
  PUSH_STATUSES,
  TRACKING_STATUSES,
  V1_PACKAGE_STATUS_CODE,
  V1_PUSH_STATE,
  V1_TRACKING_STATE,
  type ApiVersion,
  type PackageStatus,
  type PushStatus,
  type TrackingStatus,
} from '../vocabulary.js';
import { compact, RequestRefused, samePath, type ItemOperationSpec } from './operation.js';
import { recordPage } from './shapes.js';

/** v2 filter fields v1 has no equivalent for. */
const V1_UNFILTERABLE = ['data_origin', 'push_status_code', 'order_by'] as const;

/**
 * The gettracklist request object. v2 and v2.1 take the filter as is. v1 renames fields and wants codes:
 * package_status → v1 status code, tracking_status → tracking_state 1/0, push_status → push_state 0/1/2,
 * track_time_* → tracking_time_*, stop_track_time_* → stop_time_*.
 */
function trackListBody(version: ApiVersion, filter: TrackListFilter): Record<string, unknown> {
  if (version !== 'v1') return compact({ ...filter });
  const refused = V1_UNFILTERABLE.filter((f) => filter[f] !== undefined);
  if (refused.length > 0) {
    const fields = refused.join(', ');
    throw new RequestRefused(
      `the v1 API cannot filter or sort the list by ${fields}`,
      'drop it, or use --api-version v2',
    );
  }
  return compact({
    number: filter.number,
    carrier: filter.carrier,
    register_time_from: filter.register_time_from,
    register_time_to: filter.register_time_to,
    tracking_time_from: filter.track_time_from,
    tracking_time_to: filter.track_time_to,
    push_time_from: filter.push_time_from,
    push_time_to: filter.push_time_to,
    push_state: mapEnum('push_status', filter.push_status, PUSH_STATUSES, (s: PushStatus) => V1_PUSH_STATE[s]),
    stop_time_from: filter.stop_track_time_from,
    stop_time_to: filter.stop_track_time_to,
    package_status: mapEnum(
      'package_status',
      filter.package_status,
      PACKAGE_STATUSES,
      (s: PackageStatus) => V1_PACKAGE_STATUS_CODE[s],
    ),
    tracking_state: mapEnum(
      'tracking_status',
      filter.tracking_status,
      TRACKING_STATUSES,
      (s: TrackingStatus) => V1_TRACKING_STATE[s],
    ),
    page_no: filter.page_no,
  });
}

function mapEnum<T extends string>(
  field: string,
  value: string | undefined,
  allowed: readonly T[],
  toCode: (v: T) => number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new RequestRefused(`unknown ${field} "${value}"`, `use one of ${allowed.join(', ')}`);
  }
  return toCode(value as T);
}

const PER_CALL = LIMITS.listNumberFilterMax;

export const getTrackList = {
  name: 'gettracklist',
  paths: samePath('gettracklist'),
  class: 'read',
  perRequest: { v1: PER_CALL, v2: PER_CALL, 'v2.1': PER_CALL },
  fields: { v1: ['number'], v2: ['number'], 'v2.1': ['number'] },
  body: trackListBody,
  itemBody: (version, items, list) =>
    trackListBody(version, {
      ...(list?.filter ?? {}),
      number: [...new Set(items.map((i) => i.number))].join(','),
      page_no: list?.page ?? 1,
    }),
  answer: recordPage,
  command: 'list',
  done: 'found',
} as const satisfies ItemOperationSpec<'gettracklist', TrackListFilter>;
