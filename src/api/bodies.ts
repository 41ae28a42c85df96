// Wire bodies per API version, built from trk's inputs (v2 field names, src/service/types.ts), so that commands
// stay version-agnostic. What a version cannot express is refused up front with a UsageError naming the fix,
// never silently dropped: a tag or filter that quietly vanishes would do something the user did not ask.

import { UsageError } from '../errors.js';
import { operationFields, operationPath, operationSpec } from './ops.js';
import {
  PACKAGE_STATUSES,
  PUSH_STATUSES,
  TRACKING_STATUSES,
  V1_PACKAGE_STATUS_CODE,
  V1_PUSH_STATE,
  V1_TRACKING_STATE,
  type ApiVersion,
  type Operation,
  type PackageStatus,
  type PushStatus,
  type TrackingStatus,
} from '../service/vocabulary.js';
import type {
  ChangeCarrierRequestItem,
  ChangeInfoRequestItem,
  NumberCarrierItem,
  RealtimeRequestItem,
  RegisterRequestItem,
  TrackListFilter,
} from '../service/types.js';

/** Throws when `version` lacks `op` (v1 has no getquota and no getRealTimeTrackInfo). */
export function unsupported(version: ApiVersion, op: Operation): void {
  if (operationPath(version, op) !== undefined) return;
  throw new UsageError(`the ${version} API has no ${operationSpec(op).noun ?? `${op} operation`}`, 'use --api-version v2');
}

// ---- register ----

/** Fields of `item` (set, not undefined) that `version` cannot register; empty when all are known. */
export function unknownRegisterFields(version: ApiVersion, item: RegisterRequestItem): string[] {
  const known: readonly string[] = operationFields('register', version);
  return Object.entries(item)
    .filter(([field, value]) => value !== undefined && !known.includes(field))
    .map(([field]) => field);
}

/**
 * Register items on the wire. v1 calls `param` `extra_param`. auto_detection defaults differ (v1 false,
 * v2 true); trk's meaning is v2's, so when no carrier is given the flag is sent explicitly in every version.
 */
export function registerBody(version: ApiVersion, items: readonly RegisterRequestItem[]): Record<string, unknown>[] {
  return items.map((item) => {
    const unknown = unknownRegisterFields(version, item);
    if (unknown.length > 0) {
      throw new UsageError(
        `the ${version} API cannot register ${unknown.join(', ')} (number ${item.number})`,
        version === 'v2' && unknown.every((f) => f === 'order_no' || f === 'order_time' || f === 'remark')
          ? 'use --api-version v2.1, or drop those fields'
          : 'drop those fields, or use --api-version v2.1',
      );
    }
    const autoDetection = item.auto_detection ?? (item.carrier === undefined ? true : undefined);
    const { param, auto_detection: _ignored, ...rest } = item;
    return compact(
      version === 'v1'
        ? { ...rest, extra_param: param, auto_detection: autoDetection }
        : { ...rest, param, auto_detection: autoDetection },
    );
  });
}

// ---- number + carrier operations ----

export type NumberCarrierOperation = 'stoptrack' | 'retrack' | 'deletetrack' | 'gettrackinfo' | 'push';

/** Items for stoptrack, retrack, deletetrack, gettrackinfo, push. v1 deletetrack requires the carrier. */
export function numberCarrierBody(
  version: ApiVersion,
  op: NumberCarrierOperation,
  items: readonly NumberCarrierItem[],
): NumberCarrierItem[] {
  if (version === 'v1' && op === 'deletetrack') {
    const missing = items.filter((i) => i.carrier === undefined).map((i) => i.number);
    if (missing.length > 0) {
      throw new UsageError(
        `the v1 API needs the carrier to delete a number (missing for ${listSome(missing)})`,
        'pass --carrier <code> (or a carrier column), or use --api-version v2',
      );
    }
  }
  return items.map((i) => compact({ number: i.number, carrier: i.carrier }));
}

/** changecarrier: the same fields in every version. */
export function changeCarrierBody(_version: ApiVersion, items: readonly ChangeCarrierRequestItem[]): ChangeCarrierRequestItem[] {
  return items.map((i) =>
    compact({
      number: i.number,
      carrier_old: i.carrier_old,
      carrier_new: i.carrier_new,
      final_carrier_old: i.final_carrier_old,
      final_carrier_new: i.final_carrier_new,
    }),
  );
}

/**
 * changeinfo. v2/v2.1: an array of {number, carrier, items{tag, param, lang}}. v1: ONE object (not an
 * array) that can change the tag only, so param and lang are refused and callers send one item per request
 * (the operation table gives v1 one item per request).
 */
export function changeInfoBody(version: ApiVersion, items: readonly ChangeInfoRequestItem[]): unknown {
  if (version !== 'v1') {
    return items.map((i) =>
      compact({ number: i.number, carrier: i.carrier, items: compact({ tag: i.items.tag, param: i.items.param, lang: i.items.lang }) }),
    );
  }
  if (items.length !== 1) throw new RangeError(`v1 changeinfo takes exactly one item, got ${items.length}`);
  const item = items[0] as ChangeInfoRequestItem;
  const refused = (['param', 'lang'] as const).filter((f) => item.items[f] !== undefined);
  if (refused.length > 0) {
    throw new UsageError(
      `the v1 API can change only the tag, not ${refused.join(' or ')}`,
      `drop ${refused.map((f) => `--${f}`).join(' and ')}, or use --api-version v2`,
    );
  }
  return compact({ number: item.number, carrier: item.carrier, items: compact({ tag: item.items.tag }) });
}

/**
 * getRealTimeTrackInfo: an array holding exactly one item. The v2.1 form is not documented; the v2 form is
 * sent to the v2.1 path, since every documented v2.1 operation keeps its v2 shape.
 */
export function realtimeBody(version: ApiVersion, item: RealtimeRequestItem): [RealtimeRequestItem] {
  unsupported(version, 'getRealTimeTrackInfo');
  return [
    compact({
      number: item.number,
      carrier: item.carrier,
      param: item.param,
      final_carrier: item.final_carrier,
      cacheLevel: item.cacheLevel,
    }),
  ];
}

/** getquota takes no parameters: an empty array. */
export function quotaBody(version: ApiVersion): [] {
  unsupported(version, 'getquota');
  return [];
}

// ---- gettracklist ----

/** v2 filter fields v1 has no equivalent for. */
const V1_UNFILTERABLE = ['data_origin', 'push_status_code', 'order_by'] as const;

/**
 * The gettracklist request object. v2 and v2.1 take the filter as is. v1 renames fields and wants codes:
 * package_status → v1 status code, tracking_status → tracking_state 1/0, push_status → push_state 0/1/2,
 * track_time_* → tracking_time_*, stop_track_time_* → stop_time_*.
 */
export function trackListBody(version: ApiVersion, filter: TrackListFilter): Record<string, unknown> {
  if (version !== 'v1') return compact({ ...filter });
  const refused = V1_UNFILTERABLE.filter((f) => filter[f] !== undefined);
  if (refused.length > 0) {
    throw new UsageError(`the v1 API cannot filter or sort the list by ${refused.join(', ')}`, 'drop it, or use --api-version v2');
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
    package_status: mapEnum('package_status', filter.package_status, PACKAGE_STATUSES, (s: PackageStatus) => V1_PACKAGE_STATUS_CODE[s]),
    tracking_state: mapEnum('tracking_status', filter.tracking_status, TRACKING_STATUSES, (s: TrackingStatus) => V1_TRACKING_STATE[s]),
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
    throw new UsageError(`unknown ${field} "${value}"`, `use one of ${allowed.join(', ')}`);
  }
  return toCode(value as T);
}

// ---- helpers ----

/** Drop undefined fields: the wire carries only what was given. */
export function compact<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v;
  return out as T;
}

function listSome(values: readonly string[]): string {
  return values.length <= 3 ? values.join(', ') : `${values.slice(0, 3).join(', ')} and ${values.length - 3} more`;
}
