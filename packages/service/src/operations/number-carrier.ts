// The operations that take a number and, optionally, its carrier: stoptrack, retrack, deletetrack, push and
// gettrackinfo. Each has its own module; these are the parts they share.

import type { NumberCarrierItem } from '../types.js';
import type { ApiVersion } from '../vocabulary.js';
import { compact, EVERY, NUMBER_CARRIER, RECORD_CARRIER, type Item } from './operation.js';
import { itemLists } from './shapes.js';

/** The items as sent: number and carrier only. */
export function numberCarrierBody(_version: ApiVersion, items: readonly NumberCarrierItem[]): NumberCarrierItem[] {
  return items.map((i) => compact({ number: i.number, carrier: i.carrier }));
}

export function numberCarrierItems(items: readonly Item[]): NumberCarrierItem[] {
  return items.map((i) => compact({ number: i.number, carrier: i.carrier }));
}

/** What a module of such an operation is made of, unless it says otherwise. */
export const NUMBER_CARRIER_PARTS = {
  perRequest: EVERY,
  fields: NUMBER_CARRIER,
  flagHelp: { carrier: RECORD_CARRIER },
  body: numberCarrierBody,
  itemBody: (version: ApiVersion, items: readonly Item[]) => numberCarrierBody(version, numberCarrierItems(items)),
  answer: itemLists({ carrier: false }),
} as const;
