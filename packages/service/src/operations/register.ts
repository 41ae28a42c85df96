// register: start tracking numbers. Charging: one unit an accepted number, one more with a translation language.

import { fieldsSince, wireName, type ItemField } from '../fields.js';
import type { RegisterRequestItem } from '../types.js';
import type { ApiVersion } from '../vocabulary.js';
import { compact, EVERY, RequestRefused, samePath, type Item, type ItemOperationSpec } from './operation.js';
import { itemLists } from './shapes.js';

const V1: readonly ItemField[] = ['number', 'carrier', 'param', 'tag', 'final_carrier', 'auto_detection'];
const V2: readonly ItemField[] = [...V1, 'lang', 'email'];
const FIELDS: Readonly<Record<ApiVersion, readonly ItemField[]>> = {
  v1: V1,
  v2: V2,
  'v2.1': [...V2, ...fieldsSince('v2.1')],
};
/** The fields v2.1 added: a refusal of them alone on v2 says to use v2.1. */
const SINCE_V21 = FIELDS['v2.1'].filter((f) => !V2.includes(f));

/** Fields of `item` (set, not undefined) that `version` cannot register; empty when all are known. */
export function unknownRegisterFields(version: ApiVersion, item: RegisterRequestItem): string[] {
  const known: readonly string[] = FIELDS[version];
  return Object.entries(item)
    .filter(([field, value]) => value !== undefined && !known.includes(field))
    .map(([field]) => field);
}

/**
 * Register items on the wire, each field by its name in the version (@trk/service/fields.ts). auto_detection
 * defaults differ (v1 false, v2 true); trk's meaning is v2's, so when no carrier is given the flag is sent
 * explicitly in every version.
 */
function registerBody(version: ApiVersion, items: readonly RegisterRequestItem[]): Record<string, unknown>[] {
  return items.map((item) => {
    const unknown = unknownRegisterFields(version, item);
    if (unknown.length > 0) {
      throw new RequestRefused(
        `the ${version} API cannot register ${unknown.join(', ')} (number ${item.number})`,
        version === 'v2' && unknown.every((f) => (SINCE_V21 as readonly string[]).includes(f))
          ? 'use --api-version v2.1, or drop those fields'
          : 'drop those fields, or use --api-version v2.1',
      );
    }
    const autoDetection = item.auto_detection ?? (item.carrier === undefined ? true : undefined);
    const { auto_detection: _ignored, ...rest } = item;
    // Each field by the name the version gives it (v1's extra_param).
    const named = Object.entries(rest).map(([field, value]) => [wireName(field as ItemField, version), value]);
    return compact({ ...Object.fromEntries(named), auto_detection: autoDetection });
  });
}

/** A checked row's fields of register (the others are none of its business). */
function registerItem(item: Item): RegisterRequestItem {
  const out: Record<string, unknown> = {};
  for (const field of FIELDS['v2.1']) out[field] = item[field];
  return compact(out) as unknown as RegisterRequestItem;
}

export const register = {
  name: 'register',
  paths: samePath('register'),
  class: 'charging',
  perRequest: EVERY,
  fields: FIELDS,
  body: registerBody,
  itemBody: (version, items) => registerBody(version, items.map(registerItem)),
  // The answer names the carrier that was settled: trk shows and journals it.
  answer: itemLists({ carrier: true }),
  already: { codes: [-18019901], words: 'already registered' },
  command: 'register',
  done: 'registered',
  // A translation language costs one more unit.
  unitCost: (item) => (item.lang ? 2 : 1),
} as const satisfies ItemOperationSpec<'register', readonly RegisterRequestItem[]>;
