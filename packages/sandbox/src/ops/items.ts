// The loop shared by the item operations: per item, find the records it addresses and apply the handler
// to each, collecting `accepted` and `rejected` in the version's shapes.

import { type ApiVersion, LIMITS } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject, itemsEnvelope, rejectFrom } from '../account/envelope.js';
import { type Item, arrayItems, isEnvelope, readCarrierField, readNumber, rawNumber } from '../account/request.js';
import type { RecordState } from '../account/types.js';

export interface ResolveOptions {
  /** v1 deletetrack: carrier is required (-18010010). */
  carrierRequired?: boolean;
}

/**
 * The records an item addresses: the one (number, carrier) when carrier is given, else every record of the
 * number ("if carrier is omitted and the number exists under several carriers, every record is
 * processed"). Unknown carrier code → -18019910; nothing registered → -18019902.
 */
export function resolveRecords(
  core: AccountCore,
  version: ApiVersion,
  item: Item,
  opts: ResolveOptions = {},
): RecordState[] {
  const number = readNumber(item, version, false);
  const carrier = readCarrierField(item, 'carrier');
  if (carrier === undefined || carrier === 0) {
    if (opts.carrierRequired) throw new ItemReject(-18010010, 'carrier');
    const all = core.store.forNumber(number);
    if (all.length === 0) throw new ItemReject(-18019902, number);
    return [...all];
  }
  if (!core.world.findCarrier(carrier)) throw new ItemReject(-18019910, carrier).withCarrier(carrier);
  const rec = core.store.get(number, carrier);
  if (!rec) throw new ItemReject(-18019902, number).withCarrier(carrier);
  return [rec];
}

/** Reject one item; anything but ItemReject is a bug and propagates. */
export function rejectItem(version: ApiVersion, item: Item, err: unknown, rec?: RecordState): Record<string, unknown> {
  if (!(err instanceof ItemReject)) throw err;
  const carrierField = item.carrier;
  const passedCarrier = typeof carrierField === 'number' ? carrierField : undefined;
  const tag = rec ? rec.tag : typeof item.tag === 'string' ? item.tag : null;
  return rejectFrom(version, rawNumber(item), err, { carrier: rec?.carrier ?? passedCarrier, tag });
}

/** Apply `handler` to every record each item addresses. */
export function forEachRecord(
  core: AccountCore,
  version: ApiVersion,
  items: Item[],
  handler: (rec: RecordState, item: Item) => Record<string, unknown>,
  opts: ResolveOptions = {},
): Envelope {
  const accepted: Record<string, unknown>[] = [];
  const rejected: Record<string, unknown>[] = [];
  for (const item of items) {
    let recs: RecordState[];
    try {
      recs = resolveRecords(core, version, item, opts);
    } catch (err) {
      rejected.push(rejectItem(version, item, err));
      continue;
    }
    for (const rec of recs) {
      try {
        accepted.push(handler(rec, item));
      } catch (err) {
        rejected.push(rejectItem(version, item, err, rec));
      }
    }
  }
  return itemsEnvelope(accepted, rejected);
}

/** An operation on registered records: the array body checked as a whole, then `handler` per record. */
export function recordOperation(
  core: AccountCore,
  version: ApiVersion,
  body: unknown,
  handler: (rec: RecordState, item: Item) => Record<string, unknown>,
  opts: ResolveOptions = {},
): Envelope {
  const items = arrayItems(body, LIMITS.itemsPerRequest);
  if (isEnvelope(items)) return items;
  return forEachRecord(core, version, items, handler, opts);
}

export function numberCarrier(rec: RecordState): Record<string, unknown> {
  return { number: rec.number, carrier: rec.carrier };
}
