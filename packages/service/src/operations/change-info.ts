// changeinfo (trk update): change the tag, extra parameter or translation language of numbers. Free.

import type { ItemField } from '../fields.js';
import type { ChangeInfoRequestItem } from '../types.js';
import type { ApiVersion } from '../vocabulary.js';
import { compact, EVERY, RequestRefused, samePath, THIS_RECORD, type ItemOperationSpec } from './operation.js';
import { itemLists } from './shapes.js';

const V2: readonly ItemField[] = ['number', 'carrier', 'tag', 'param', 'lang'];
const FIELDS: Readonly<Record<ApiVersion, readonly ItemField[]>> = {
  v1: ['number', 'carrier', 'tag'],
  v2: V2,
  'v2.1': V2,
};

/**
 * v2/v2.1: an array of {number, carrier, items{tag, param, lang}}. v1: ONE object (not an array) that can change
 * the tag only, so param and lang are refused and callers send one item per request (v1 carries one a request).
 */
function changeInfoBody(version: ApiVersion, items: readonly ChangeInfoRequestItem[]): unknown {
  if (version !== 'v1') {
    return items.map((i) => {
      const { tag, param, lang } = i.items;
      return compact({ number: i.number, carrier: i.carrier, items: compact({ tag, param, lang }) });
    });
  }
  if (items.length !== 1) throw new RangeError(`v1 changeinfo takes exactly one item, got ${items.length}`);
  const item = items[0] as ChangeInfoRequestItem;
  const refused = (['param', 'lang'] as const).filter((f) => item.items[f] !== undefined);
  if (refused.length > 0) {
    throw new RequestRefused(
      `the v1 API can change only the tag, not ${refused.join(' or ')}`,
      `drop ${refused.map((f) => `--${f}`).join(' and ')}, or use --api-version v2`,
    );
  }
  return compact({ number: item.number, carrier: item.carrier, items: compact({ tag: item.items.tag }) });
}

export const changeInfo = {
  name: 'changeinfo',
  paths: samePath('changeinfo'),
  class: 'write',
  // v1 changeinfo takes a single object, not an array, and changes the tag only.
  perRequest: { ...EVERY, v1: 1 },
  fields: FIELDS,
  flags: ['carrier', 'tag', 'param', 'lang'],
  flagHelp: {
    carrier: THIS_RECORD,
    tag: 'new tag',
    param: 'new extra tracking parameter',
    lang: 'new translation language',
  },
  body: changeInfoBody,
  itemBody: (version, items) =>
    changeInfoBody(
      version,
      items.map((i) => ({ number: i.number, carrier: i.carrier, items: { tag: i.tag, param: i.param, lang: i.lang } })),
    ),
  rowLacks: (values, version) =>
    values.tag === undefined && values.param === undefined && values.lang === undefined
      ? `nothing to change (${FIELDS[version].filter((f) => f !== 'number' && f !== 'carrier').join(', ')})`
      : undefined,
  answer: itemLists({ carrier: false }),
  command: 'update',
  done: 'updated',
} as const satisfies ItemOperationSpec<'changeinfo', readonly ChangeInfoRequestItem[]>;
