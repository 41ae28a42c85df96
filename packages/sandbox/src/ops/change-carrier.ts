// changecarrier: move a record to another carrier and/or last-mile carrier.

import { type ApiVersion, LIMITS } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject, itemsEnvelope } from '../account/envelope.js';
import { type Item, arrayItems, isEnvelope, readCarrierField, readNumber } from '../account/request.js';
import type { RecordState } from '../account/types.js';
import { rejectItem } from './items.js';
import { type EmulatedOperation, everywhere } from './call.js';

export function changeCarrier(core: AccountCore, version: ApiVersion, body: unknown): Envelope {
  const items = arrayItems(body, LIMITS.itemsPerRequest);
  if (isEnvelope(items)) return items;
  const accepted: Record<string, unknown>[] = [];
  const rejected: Record<string, unknown>[] = [];
  for (const item of items) {
    let rec: RecordState | undefined;
    try {
      rec = target(core, version, item);
      accepted.push(change(core, rec, item));
    } catch (err) {
      rejected.push(rejectItem(version, item, err, rec));
    }
  }
  return itemsEnvelope(accepted, rejected);
}

/**
 * The record an item addresses. With carrier_old: that record (-18019805 when missing). Without: the
 * number's only record; with several, final_carrier_old may single one out (several matches
 * -18019810, none -18019805), otherwise -18019801.
 */
function target(core: AccountCore, version: ApiVersion, item: Item): RecordState {
  const number = readNumber(item, version, false);
  const carrierOld = readCarrierField(item, 'carrier_old');
  const finalOld = readCarrierField(item, 'final_carrier_old');
  const carrierNew = readCarrierField(item, 'carrier_new');
  const finalNew = readCarrierField(item, 'final_carrier_new');
  if (carrierNew === undefined && finalNew === undefined) throw new ItemReject(-18019804);
  const all = core.store.forNumber(number);
  if (carrierOld !== undefined && carrierOld !== 0) {
    const rec = core.store.get(number, carrierOld);
    if (!rec || (finalOld !== undefined && finalOld !== rec.finalCarrier)) {
      throw new ItemReject(-18019805, carrierOld, number).withCarrier(carrierOld);
    }
    return rec;
  }
  const candidates = finalOld === undefined ? all : all.filter((r) => r.finalCarrier === finalOld);
  if (candidates.length === 0) throw new ItemReject(-18019805, finalOld ?? 0, number);
  if (candidates.length > 1) throw new ItemReject(finalOld === undefined ? -18019801 : -18019810);
  return candidates[0] as RecordState;
}

/**
 * Checks in the order the codes are listed: wrong new carrier (-18019802), same carrier (-18019803),
 * stopped (-18019806), limit (-18019807), pending result (-18019808), duplicate (-18019809), last-mile
 * rules (-18010016), then the one unit it costs. carrier_new 0 with no last-mile change leaves nothing
 * valid to change (-18019811); final_carrier_new 0 on a record with a last-mile carrier removes it.
 */
function change(core: AccountCore, rec: RecordState, item: Item): Record<string, unknown> {
  const carrierNewRaw = readCarrierField(item, 'carrier_new');
  const finalNewRaw = readCarrierField(item, 'final_carrier_new');
  if (!carrierNewRaw && (finalNewRaw === undefined || (finalNewRaw === 0 && rec.finalCarrier === 0))) {
    throw new ItemReject(-18019811);
  }
  const carrierNew = carrierNewRaw ? carrierNewRaw : rec.carrier;
  const finalNew = finalNewRaw === undefined ? rec.finalCarrier : finalNewRaw;
  const carrier = core.world.findCarrier(carrierNew);
  if (!carrier) throw new ItemReject(-18019802, carrierNew);
  if (finalNew !== 0 && !core.world.findCarrier(finalNew)) throw new ItemReject(-18019802, finalNew);
  if (carrierNew === rec.carrier && finalNew === rec.finalCarrier) throw new ItemReject(-18019803);
  if (!rec.tracking) throw new ItemReject(-18019806);
  if (rec.changeCount >= LIMITS.carrierChangesMax) throw new ItemReject(-18019807);
  if (rec.pending) throw new ItemReject(-18019808);
  if (carrierNew !== rec.carrier && core.store.get(rec.number, carrierNew)) throw new ItemReject(-18019809);
  if (finalNew !== 0 && !carrier.postal) throw new ItemReject(-18010016);
  // "One unit is charged upon successful registration with the new carrier."
  core.quota.charge(1);
  core.changeCarrier(rec, carrierNew, finalNew);
  return { number: rec.number, carrier: rec.carrier };
}

/** Its row of the emulator's table (table.ts). */
export const changeCarrierOperation: EmulatedOperation = {
  operation: 'changecarrier',
  paths: everywhere('changecarrier'),
  handle: (core, c) => changeCarrier(core, c.version, c.body),
};
