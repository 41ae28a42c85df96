// getRealTimeTrackInfo (v2, v2.1): one number, fetched "from the carrier" now.

import { LIMITS, REALTIME_CACHE_COST } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject, itemsEnvelope, requestError } from '../account/envelope.js';
import { checkParam } from '../account/param.js';
import { type Item, arrayItems, isEnvelope, readCarrierField, readNumber, readText } from '../account/request.js';
import { HOUR } from '../account/time.js';
import type { OperationCall, EmulatedOperation } from './call.js';
import { checkFinalCarrier, readPassedCarrier, settleCarrier } from './carrier.js';
import { rejectItem } from './items.js';
import { detailsItem } from './newer-fields.js';
import { translation } from './track-info.js';
import { isLaterVersion, type ServedVersion } from '../versions.js';

/** Age of the data a cacheLevel 0 query may answer with. */
export const REALTIME_CACHE_MS = 3 * HOUR;

/**
 * cacheLevel: 0 or 1; the description's words are accepted for them too ("Standard" = 0,
 * "Instant" = 1, any letter case). Anything else → -18010015.
 */
export function readCacheLevel(item: Item): 0 | 1 {
  const v = item.cacheLevel;
  if (v === undefined || v === null || v === 0) return 0;
  if (v === 1) return 1;
  if (typeof v === 'string') {
    const word = v.trim().toLowerCase();
    if (word === 'standard') return 0;
    if (word === 'instant') return 1;
  }
  throw new ItemReject(-18010015, typeof v === 'string' ? v : JSON.stringify(v), 'cacheLevel');
}

export function realtime(core: AccountCore, call: OperationCall): Envelope {
  const { version, served, body } = call;
  // The table serves real time in v2 and v2.1 only.
  if (version === 'v1') return requestError(-18010013);
  if (!core.settings.realtimeAllowed) return requestError(-18019912);
  const items = arrayItems(body, LIMITS.realtimeItemsPerRequest, 1);
  if (isEnvelope(items)) return items;
  const item = items[0] as Item;
  try {
    return itemsEnvelope([query(core, { version, served }, item)], []);
  } catch (err) {
    if (err instanceof ItemReject) return itemsEnvelope([], [rejectItem(version, item, err)]);
    throw err;
  }
}

type RealtimeCall = { version: 'v2' | 'v2.1'; served: ServedVersion };

/**
 * A registered number that is being tracked is refreshed (a changed result is pushed, as for a
 * subscribed number); a stopped or unregistered number is answered without saving anything. With
 * cacheLevel 0 a stored result younger than 3 hours is answered as is.
 */
function query(core: AccountCore, call: RealtimeCall, item: Item): Record<string, unknown> {
  const { version, served } = call;
  const shape = { realtime: true, newerFields: isLaterVersion(served) };
  const number = readNumber(item, version, true);
  const param = readText(item, 'param', 1000);
  const passed = readPassedCarrier(item);
  const finalCarrier = readCarrierField(item, 'final_carrier') ?? 0;
  const level = readCacheLevel(item);
  const carrier = settleCarrier(core, number, passed).carrier;
  try {
    if (!carrier.realtime) throw new ItemReject(-18019818);
    checkFinalCarrier(core, carrier, finalCarrier);
    const rec = core.store.get(number, carrier.key);
    const paramValue = rec && param === undefined ? rec.param : checkParam(carrier, param, 'param');
    core.quota.charge(REALTIME_CACHE_COST[level]);
    const now = core.now();
    if (rec?.tracking) {
      if (level === 1 || rec.trackMs === null || now - rec.trackMs > REALTIME_CACHE_MS) core.runNow(rec, now);
      const info = core.world.trackInfo(rec, rec.trackMs ?? now, now, version, translation(rec), shape);
      const head = { number, carrier: carrier.key, param: rec.param, tag: rec.tag, lang: rec.lang };
      return detailsItem(head, served, info);
    }
    // Fresh data for level 1; level 0 answers from the start of the current 3-hour slot.
    const knownUntil = level === 1 ? now : now - (now % REALTIME_CACHE_MS);
    const ref = rec ?? {
      number,
      carrier: carrier.key,
      finalCarrier,
      param: paramValue,
      registerMs: core.world.unregisteredStart(number, carrier.key, now),
    };
    const info = core.world.trackInfo(ref, knownUntil, now, version, undefined, shape);
    const head = { number, carrier: carrier.key, param: paramValue, tag: rec?.tag ?? null, lang: rec?.lang ?? null };
    return detailsItem(head, served, info);
  } catch (err) {
    if (err instanceof ItemReject) err.withCarrier(carrier.key);
    throw err;
  }
}

// v1 has no real-time operation; v2.1's forms of real time are not shown: v2's path.
export const realtimeOperation: EmulatedOperation = {
  operation: 'getRealTimeTrackInfo',
  paths: { v2: 'getRealTimeTrackInfo', 'v2.1': 'getRealTimeTrackInfo' },
  handle: (core, c) => realtime(core, c),
};
