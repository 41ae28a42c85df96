// Registration records as gettracklist shows them: v2 (and v2.1's extra fields) and v1's short fields.
// Built from the record alone (plus the carrier's time zone), never from the shipment.

import { V1_PACKAGE_STATUS_CODE } from '@trk/service/vocabulary.js';
import { syncStatus } from '../ops/newer-fields.js';
import { isLaterVersion, rulesOf, type ServedVersion } from '../versions.js';
import type { AccountCore } from './core.js';
import { dayMetrics } from './metrics.js';
import { paramType } from './param.js';
import { isoUtc, isoWithOffset, v1Time } from './time.js';
import type { RecordState } from './types.js';

/** v1 `sr`: 1 expiry rules, 2 API request, 3 manual operation, 4 invalid carrier. */
const V1_STOP_REASON_CODE: Readonly<Record<string, number>> = { Expired: 1, ByRequest: 2, InvalidCarrier: 4 };

export function v2ListRecord(
  core: AccountCore,
  rec: RecordState,
  served: ServedVersion,
  now: number,
): Record<string, unknown> {
  const carrier = core.world.findCarrier(rec.carrier);
  const head = {
    number: rec.number,
    param: rec.param,
    param_type: paramType(carrier),
    data_origin: 'Api',
    carrier: rec.carrier,
    shipping_country: rec.shippingCountry,
    final_carrier: rec.finalCarrier,
    recipient_country: rec.recipientCountry,
    register_time: isoUtc(rec.registerMs),
    tracking_status: rec.tracking ? 'Tracking' : 'Stopped',
    package_status: rec.status,
    track_time: isoUtc(rec.trackMs),
  };
  const tail = {
    push_time: isoUtc(rec.pushMs),
    push_status: rec.pushStatus,
    push_status_code: rec.pushCode,
    stop_track_time: isoUtc(rec.stopMs),
    stop_track_reason: rec.stopReason,
    is_retracked: rec.retracked,
    carrier_change_count: rec.changeCount,
    tag: rec.tag,
  };
  // v2.2 and later: sync_status after track_time, as the newer documentation shows (@trk/sandbox/ops/newer-fields.ts).
  const out = isLaterVersion(served) ? { ...head, sync_status: syncStatus(rec), ...tail } : { ...head, ...tail };
  if (rulesOf(served) !== 'v2.1') return out;
  const offset = rec.latestEventOffset ?? carrier?.utcOffsetMinutes ?? 0;
  return {
    ...out,
    // As the service's own example shows: "" for no e-mail and no language, null for the rest.
    email: rec.email ?? '',
    order_no: rec.orderNo,
    order_time: rec.orderTime,
    lang: rec.lang ?? '',
    remark: rec.remark,
    latest_event_time: isoWithOffset(rec.lastEventMs, offset),
    latest_event_info: rec.latestEventInfo,
    ...dayMetrics(rec, now, core.numericMetrics),
    delievery_time: isoUtc(rec.deliveredMs),
    // "Empty when the carrier's events are too incomplete to give it."
    pickup_time: isoUtc(rec.pickupMs) ?? '',
  };
}

export function v1ListRecord(core: AccountCore, rec: RecordState): Record<string, unknown> {
  return {
    number: rec.number,
    w1: rec.carrier,
    w2: rec.finalCarrier,
    b: core.world.v1CountryCode(rec.shippingCountry),
    c: core.world.v1CountryCode(rec.recipientCountry),
    e: V1_PACKAGE_STATUS_CODE[rec.status],
    rt: v1Time(rec.registerMs),
    tt: v1Time(rec.trackMs),
    pt: v1Time(rec.pushMs),
    ps: rec.pushCode ?? 0,
    st: v1Time(rec.stopMs),
    sr: rec.stopReason === null ? null : (V1_STOP_REASON_CODE[rec.stopReason] ?? null),
    // `ir` is read as "has been re-tracked" (the live sample: stopped by request, never re-tracked, false).
    ir: rec.retracked,
    ts: rec.tracking,
    mc: rec.changeCount,
    tag: rec.tag,
    refer_key: null,
  };
}
