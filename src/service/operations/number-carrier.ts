// The operations that take a number and, optionally, its carrier: stoptrack, retrack, deletetrack, push and
// gettrackinfo. Each has its own module; this is the body they share.

import type { NumberCarrierItem } from '../types.js';
import type { ApiVersion } from '../vocabulary.js';
import { compact, type Item } from './operation.js';

/** The items as sent: number and carrier only. */
export function numberCarrierBody(_version: ApiVersion, items: readonly NumberCarrierItem[]): NumberCarrierItem[] {
  return items.map((i) => compact({ number: i.number, carrier: i.carrier }));
}

export function numberCarrierItems(items: readonly Item[]): NumberCarrierItem[] {
  return items.map((i) => compact({ number: i.number, carrier: i.carrier }));
}
