// The automatic tracking schedule of the specification, as pure rules on a record:
// - first run a few seconds after registration (or retrack, or carrier change);
// - then every 6 to 12 hours depending on the main status last seen, 24 hours when delivered or in
//   exception;
// - stop (Expired) after 30 days without an event update counted from the tracking start, or 15 days
//   without one once delivered;
// - stopped records are deleted 90 days after the stop.

import type { PackageStatus } from '@trk/service/vocabulary.js';
import { DAY, HOUR, SECOND } from './time.js';
import type { RecordState } from './types.js';
import { fnv1a } from '../world/random.js';

export const EXPIRY_MS = 30 * DAY;
export const EXPIRY_AFTER_DELIVERY_MS = 15 * DAY;
export const RETENTION_MS = 90 * DAY;
/**
 * A number whose carrier answers "invalid number" (NotFound_InvalidCode) is stopped with reason
 * InvalidCarrier once that has lasted this long from the tracking start. Not at the first run: the
 * window lets the user change the carrier (changecarrier refuses stopped numbers).
 */
export const INVALID_CARRIER_AFTER_MS = 3 * DAY;

/** 3 to 10 seconds, fixed per number, so that runs of a batch do not all fall on one tick. */
export function firstRunDelay(number: string): number {
  return 3 * SECOND + (fnv1a(number) % 8) * SECOND;
}

/**
 * Interval to the next run by the main status last seen. Moving parcels are looked at most often;
 * parcels not yet moving (no result, order data only, long without news) every 12 hours.
 */
export function runInterval(status: PackageStatus): number {
  switch (status) {
    case 'Delivered':
    case 'Exception':
      return 24 * HOUR;
    case 'NotFound':
    case 'InfoReceived':
    case 'Expired':
      return 12 * HOUR;
    default:
      return 6 * HOUR;
  }
}

/** Time at which the record stops by expiry unless an event update arrives before. */
export function expiryDeadline(rec: RecordState): number {
  const base = Math.max(rec.trackingStartMs, rec.lastEventMs ?? Number.NEGATIVE_INFINITY);
  return base + (rec.status === 'Delivered' ? EXPIRY_AFTER_DELIVERY_MS : EXPIRY_MS);
}

export function invalidCarrierDeadline(rec: RecordState): number | undefined {
  return rec.subStatus === 'NotFound_InvalidCode' ? rec.trackingStartMs + INVALID_CARRIER_AFTER_MS : undefined;
}

/** Next due time of a tracking record after a run at `t`. */
export function nextDue(rec: RecordState, t: number): number {
  let due = Math.min(t + runInterval(rec.status), expiryDeadline(rec));
  const invalid = invalidCarrierDeadline(rec);
  if (invalid !== undefined) due = Math.min(due, invalid);
  return Math.max(due, t + 1);
}
