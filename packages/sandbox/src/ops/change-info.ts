// changeinfo: tag, param and lang of registered records (v1: a single object, tag only).

import { type ApiVersion, LIMITS } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject, requestError } from '../account/envelope.js';
import { checkParam } from '../account/param.js';
import { type Item, arrayItems, isEnvelope, isObject, readLang, readText } from '../account/request.js';
import type { RecordState } from '../account/types.js';
import { forEachRecord, numberCarrier } from './items.js';
import { type EmulatedOperation, everywhere } from './call.js';

/**
 * v2/v2.1 change tag, param and lang (the description says only the tag changes, but lists the other
 * two; the emulator applies all three). A key present with null or "" clears the value. With carrier
 * omitted every record of the number is changed, as for the other item operations. A new lang is
 * charged (one unit) and applied with the next result change.
 */
export function changeInfo(core: AccountCore, version: ApiVersion, body: unknown): Envelope {
  let items: Item[] | Envelope;
  if (version === 'v1') {
    // v1 takes a single object. Clients that send every operation an array send it as a one-element array:
    // taken too, since it can mean nothing else; a longer array is refused as before.
    const single = Array.isArray(body) && body.length === 1 ? body[0] : body;
    if (!isObject(single)) return requestError(-18010013);
    items = [single];
  } else {
    items = arrayItems(body, LIMITS.itemsPerRequest);
    if (isEnvelope(items)) return items;
  }
  return forEachRecord(core, version, items, (rec, item) => {
    const changes = item.items;
    if (changes === undefined || changes === null) throw new ItemReject(-18010010, 'items');
    if (!isObject(changes)) throw new ItemReject(-18010011, 'items');
    applyChanges(core, version, rec, changes);
    return numberCarrier(rec);
  });
}

function applyChanges(core: AccountCore, version: ApiVersion, rec: RecordState, changes: Item): void {
  // Validate everything first, so that a refused item changes nothing.
  const has = (field: string): boolean => Object.hasOwn(changes, field);
  const tag = has('tag') ? (readText(changes, 'tag', LIMITS.tagMaxLength) ?? null) : undefined;
  if (version === 'v1') {
    if (tag !== undefined) rec.tag = tag;
    return;
  }
  let param: string | null | undefined;
  if (has('param')) {
    const carrier = core.world.findCarrier(rec.carrier);
    const text = readText(changes, 'param', 1000);
    param = carrier ? checkParam(carrier, text, 'param') : (text ?? null);
  }
  const lang = has('lang') ? (readLang(changes) ?? null) : undefined;
  if (tag !== undefined) rec.tag = tag;
  if (param !== undefined) rec.param = param;
  if (lang !== undefined && lang !== rec.lang) {
    rec.lang = lang;
    rec.langCharged = false;
  }
}

/** Its row of the emulator's table (table.ts). */
export const changeInfoOperation: EmulatedOperation = {
  operation: 'changeinfo',
  paths: everywhere('changeinfo'),
  handle: (core, c) => changeInfo(core, c.version, c.body),
};
