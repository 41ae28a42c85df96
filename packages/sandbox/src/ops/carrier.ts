// How register and getRealTimeTrackInfo settle the carrier of a number: the same rules for both, since a
// real-time query names its carrier as a registration does.

import type { AccountCore } from '../account/core.js';
import { ItemReject } from '../account/envelope.js';
import { type Item, readCarrierField } from '../account/request.js';
import type { Detection, SimCarrier } from '../account/world.js';

/** The item's `carrier`; 0 counts as not passed. */
export function readPassedCarrier(item: Item): number | undefined {
  const passed = readCarrierField(item, 'carrier');
  return passed === 0 ? undefined : passed;
}

/**
 * "If omitted or wrong, the service picks the most likely carrier and returns its code": a code the service
 * does not know is replaced by detection; only when nothing is detected is it refused as incorrect
 * (-18019910). Nothing passed and nothing detected: -18019903.
 */
export function settleCarrier(core: AccountCore, number: string, passed: number | undefined): Detection {
  const detected = core.world.detectCarrier(number, passed);
  if (detected) return detected;
  throw passed !== undefined && !core.world.findCarrier(passed)
    ? new ItemReject(-18019910, passed).withCarrier(passed)
    : new ItemReject(-18019903).withCarrier(passed);
}

/** A last-mile carrier (0: none) is for postal carriers only (-18010016) and must be one the service knows. */
export function checkFinalCarrier(core: AccountCore, carrier: SimCarrier, finalCarrier: number): void {
  if (finalCarrier === 0) return;
  if (!carrier.postal) throw new ItemReject(-18010016);
  if (!core.world.findCarrier(finalCarrier)) throw new ItemReject(-18019910, finalCarrier);
}
