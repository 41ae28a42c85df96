// register: validate each item, settle its carrier (detection, origin), charge the quota, store it.

import { type ApiVersion, LIMITS } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject, itemsEnvelope } from '../account/envelope.js';
import { checkParam } from '../account/param.js';
import {
  type Item,
  arrayItems,
  isEnvelope,
  readBoolean,
  readCarrierField,
  readLang,
  readNumber,
  readText,
} from '../account/request.js';
import { normaliseTime } from '../account/time.js';
import { checkFinalCarrier, readPassedCarrier, settleCarrier } from './carrier.js';
import { rejectItem } from './items.js';
import { type EmulatedOperation, everywhere } from './call.js';

export function register(core: AccountCore, version: ApiVersion, body: unknown): Envelope {
  const items = arrayItems(body, LIMITS.itemsPerRequest);
  if (isEnvelope(items)) return items;
  const accepted: Record<string, unknown>[] = [];
  const rejected: Record<string, unknown>[] = [];
  for (const item of items) {
    try {
      accepted.push(registerItem(core, version, item));
    } catch (err) {
      rejected.push(rejectItem(version, item, err));
    }
  }
  return itemsEnvelope(accepted, rejected);
}

/**
 * Order of the checks: field formats, carrier (existence, detection, final carrier, param), the duplicate
 * check, then the quota. A rejected item is never charged: the state table charges quota when a number is
 * accepted, and "registering again charges quota again" after a deletion only makes sense if a repeat while
 * registered is not charged.
 */
function registerItem(core: AccountCore, version: ApiVersion, item: Item): Record<string, unknown> {
  const number = readNumber(item, version, true);
  const tag = readText(item, 'tag', LIMITS.tagMaxLength) ?? null;
  const v2 = version !== 'v1';
  // Fields a version does not know are ignored, like any unknown field: v1 has no email/lang, and the
  // order fields and remark exist from v2.1 on.
  const email = v2 ? (readText(item, 'email', LIMITS.emailMaxLength) ?? null) : null;
  const lang = v2 ? (readLang(item) ?? null) : null;
  const v21 = version === 'v2.1';
  const orderNo = v21 ? (readText(item, 'order_no', LIMITS.remarkMaxLength) ?? null) : null;
  const orderTimeText = v21 ? (readText(item, 'order_time', 64) ?? null) : null;
  // Kept as the service shows it: ISO 8601 to the second, in the zone given (see normaliseTime).
  let orderTime: string | null = null;
  if (orderTimeText !== null && orderTimeText.trim() !== '') {
    orderTime = normaliseTime(orderTimeText) ?? null;
    if (orderTime === null) throw new ItemReject(-18010011, 'order_time');
  }
  const remark = v21 ? (readText(item, 'remark', LIMITS.remarkMaxLength) ?? null) : null;
  const paramField = v2 ? 'param' : 'extra_param';
  const param = readText(item, paramField, 1000);

  const passed = readPassedCarrier(item);
  const finalPassed = readCarrierField(item, 'final_carrier') ?? 0;
  // Without a carrier (absent or 0) the carrier is detected, unless v2 detection is explicitly switched off:
  // `auto_detection: false` with no carrier field at all. `carrier: 0` is a code passed, and a wrong one: the
  // spec ignores auto_detection when a carrier is passed and picks the most likely carrier for a wrong code,
  // which is what clients sending every field with its zero value (`carrier: 0, auto_detection: false`)
  // need. v1's auto_detection ("default false; takes effect only when carrier is not set and value is true")
  // cannot make a number without carrier registrable otherwise, so v1 always detects then.
  const autoDetection = readBoolean(item, 'auto_detection');
  const carrierField = item.carrier !== undefined && item.carrier !== null;
  if (v2 && autoDetection === false && !carrierField) throw new ItemReject(-18019903);
  const detected = settleCarrier(core, number, passed);
  const carrier = detected.carrier;

  try {
    checkFinalCarrier(core, carrier, finalPassed);
    const paramValue = checkParam(carrier, param, paramField);
    if (core.store.get(number, carrier.key)) throw new ItemReject(-18019901, number);
    // A translation costs one more unit when the first result arrives: room for both is needed now.
    if (lang !== null) core.quota.check(2);
    core.quota.charge(1);
    core.addRecord({
      number,
      carrier: carrier.key,
      finalCarrier: finalPassed,
      param: paramValue,
      tag,
      email,
      lang,
      orderNo,
      orderTime,
      remark,
      version,
    });
  } catch (err) {
    if (err instanceof ItemReject) err.withCarrier(carrier.key);
    throw err;
  }

  if (version === 'v1') return { origin: detected.origin, number, carrier: carrier.key };
  if (version === 'v2') return { origin: detected.origin, number, carrier: carrier.key, tag };
  return { origin: detected.origin, number, carrier: carrier.key, email, lang, tag };
}

/** Its row of the emulator's table (table.ts). */
export const registerOperation: EmulatedOperation = {
  operation: 'register',
  paths: everywhere('register'),
  handle: (core, c) => register(core, c.version, c.body),
};
