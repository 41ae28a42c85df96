// Request bodies of the bulk operations, from validated items, through the one set of body builders in
// src/api/operations.ts (which knows each version's wire format).

import {
  changeCarrierBody,
  changeInfoBody,
  compact,
  numberCarrierBody,
  registerBody,
  trackListBody,
} from '../api/bodies.js';
import type { ApiVersion } from '../service/vocabulary.js';
import type { TrackListFilter } from '../service/types.js';
import type { Item, ItemOperation } from './fields.js';

export function requestBody(
  op: ItemOperation,
  version: ApiVersion,
  items: readonly Item[],
  list?: { filter?: TrackListFilter | undefined; page: number },
): unknown {
  switch (op) {
    case 'register':
      return registerBody(
        version,
        items.map((i) =>
          compact({
            number: i.number,
            carrier: i.carrier,
            param: i.param,
            tag: i.tag,
            lang: i.lang,
            email: i.email,
            final_carrier: i.final_carrier,
            auto_detection: i.auto_detection,
            order_no: i.order_no,
            order_time: i.order_time,
            remark: i.remark,
          }),
        ),
      );
    case 'changecarrier':
      return changeCarrierBody(
        version,
        items.map((i) =>
          compact({
            number: i.number,
            carrier_old: i.carrier_old ?? i.carrier,
            carrier_new: i.carrier_new,
            final_carrier_old: i.final_carrier_old,
            final_carrier_new: i.final_carrier_new,
          }),
        ),
      );
    case 'changeinfo':
      return changeInfoBody(
        version,
        items.map((i) => compact({ number: i.number, carrier: i.carrier, items: compact({ tag: i.tag, param: i.param, lang: i.lang }) })),
      );
    case 'gettracklist':
      return trackListBody(version, {
        ...(list?.filter ?? {}),
        number: [...new Set(items.map((i) => i.number))].join(','),
        page_no: list?.page ?? 1,
      });
    default:
      return numberCarrierBody(
        version,
        op,
        items.map((i) => compact({ number: i.number, carrier: i.carrier })),
      );
  }
}
