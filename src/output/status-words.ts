// Statuses in words for people: the tracking page and the watch-style summaries. The service's names stay the
// machine values (JSON, CSV); these are only what a terminal shows. Unknown values are shown raw, since the service
// adds statuses over time.

import type { KeyStage, PackageStatus } from '@trk/service/vocabulary.js';

export const STATUS_WORDS: Readonly<Record<PackageStatus, string>> = {
  NotFound: 'Not found',
  InfoReceived: 'Info received',
  InTransit: 'In transit',
  Expired: 'Expired',
  AvailableForPickup: 'Available for pickup',
  OutForDelivery: 'Out for delivery',
  DeliveryFailure: 'Delivery failed',
  Delivered: 'Delivered',
  Exception: 'Exception',
};

/** All 30 sub-statuses (v2's 27 and v2.1's customs three). */
export const SUB_STATUS_WORDS: Readonly<Record<string, string>> = {
  NotFound_Other: 'the carrier has no information yet',
  NotFound_InvalidCode: 'the tracking number is invalid',
  InfoReceived: 'the carrier has the order data, pickup pending',
  InTransit_PickedUp: 'picked up by the carrier',
  InTransit_Other: 'on its way',
  InTransit_Departure: 'left the origin port',
  InTransit_Arrival: 'arrived at destination port',
  InTransit_CustomsProcessing: 'in customs',
  InTransit_CustomsReleased: 'released by customs',
  InTransit_CustomsRequiringInformation: 'customs need more information',
  Expired_Other: 'no update for a long time',
  AvailableForPickup_Other: 'waiting at the pickup point',
  OutForDelivery_Other: 'out for delivery',
  DeliveryFailure_Other: 'delivery attempt failed',
  DeliveryFailure_NoBody: 'recipient not reachable',
  DeliveryFailure_Security: 'security, customs or fee issue',
  DeliveryFailure_Rejected: 'refused by the recipient',
  DeliveryFailure_InvalidAddress: 'address invalid',
  Delivered_Other: 'delivered',
  Exception_Other: 'problem reported by the carrier',
  Exception_Returning: 'being returned to the sender',
  Exception_Returned: 'returned to the sender',
  Exception_NoBody: 'recipient not reachable',
  Exception_Security: 'held for security or customs',
  Exception_Damage: 'damaged',
  Exception_Rejected: 'refused',
  Exception_Delayed: 'delayed',
  Exception_Lost: 'lost',
  Exception_Destroyed: 'destroyed',
  Exception_Cancel: 'cancelled',
};

export const STAGE_WORDS: Readonly<Record<KeyStage, string>> = {
  InfoReceived: 'Info received',
  PickedUp: 'Picked up',
  Departure: 'Departed',
  Arrival: 'Arrived',
  AvailableForPickup: 'Available for pickup',
  OutForDelivery: 'Out for delivery',
  Delivered: 'Delivered',
  Returning: 'Returning',
  Returned: 'Returned',
};

function lookup(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Main status in words; unknown values (and v1's unknown numeric codes) as given. */
export function statusWords(status: string | null | undefined): string {
  if (status === null || status === undefined || status === '') return 'No status';
  return lookup(STATUS_WORDS, status) ?? status;
}

/** Sub-status in words; unknown values as given. */
export function subStatusWords(sub: string): string {
  return lookup(SUB_STATUS_WORDS, sub) ?? sub;
}

/**
 * `In transit — arrived at destination port`. The sub-status part is left out when it only repeats the main
 * status (`Delivered_Other`, `InfoReceived`).
 */
export function statusLine(status: string | null | undefined, sub: string | null | undefined): string {
  const main = statusWords(status);
  if (sub === null || sub === undefined || sub === '') return main;
  const words = subStatusWords(sub);
  return words.toLowerCase() === main.toLowerCase() ? main : `${main} — ${words}`;
}

export function stageWords(stage: string): string {
  return lookup(STAGE_WORDS, stage) ?? stage;
}
