// changecarrier: move numbers to another carrier or last-mile carrier. Charging: the registration with the new
// carrier is paid once it succeeds. The same fields in every version.

import type { ItemField } from '../fields.js';
import type { ChangeCarrierRequestItem } from '../types.js';
import type { ApiVersion } from '../vocabulary.js';
import { compact, EVERY, samePath, type ItemOperationSpec } from './operation.js';
import { itemLists } from './shapes.js';

const FIELDS: readonly ItemField[] = [
  'number',
  'carrier',
  'carrier_old',
  'carrier_new',
  'final_carrier_old',
  'final_carrier_new',
];

function changeCarrierBody(
  _version: ApiVersion,
  items: readonly ChangeCarrierRequestItem[],
): ChangeCarrierRequestItem[] {
  return items.map((i) =>
    compact({
      number: i.number,
      carrier_old: i.carrier_old,
      carrier_new: i.carrier_new,
      final_carrier_old: i.final_carrier_old,
      final_carrier_new: i.final_carrier_new,
    }),
  );
}

export const changeCarrier = {
  name: 'changecarrier',
  paths: samePath('changecarrier'),
  class: 'charging',
  perRequest: EVERY,
  // In change-carrier input `carrier` means the carrier the number has now (carrier_old).
  fields: { v1: FIELDS, v2: FIELDS, 'v2.1': FIELDS },
  // The carrier of a row is its current one; the flags say which is which.
  flags: ['carrier_new', 'carrier_old', 'final_carrier_new', 'final_carrier_old'],
  body: changeCarrierBody,
  itemBody: (version, items) =>
    changeCarrierBody(
      version,
      items.map((i) => ({ ...i, carrier_old: i.carrier_old ?? i.carrier })),
    ),
  rowLacks: (values) =>
    values.carrier_new === undefined && values.final_carrier_new === undefined
      ? 'carrier_new or final_carrier_new is needed'
      : undefined,
  answer: itemLists({ carrier: true }),
  command: 'change-carrier',
  done: 'changed',
  unitCost: () => 1,
} as const satisfies ItemOperationSpec<'changecarrier', readonly ChangeCarrierRequestItem[]>;
