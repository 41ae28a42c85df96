// The fields answers on v2.2 to v2.4 carry beyond v2.1's. The spec describes v1, v2 and v2.1 only; the service's
// newer documentation (its examples are test/fixtures/doc-v2) shows these, and clients of those versions decode
// them. Decisions where that documentation is silent:
// - gettrackinfo and real-time items: `lang` is the record's translation language (null without one); the
//   shipment fields (`origin_country`, `destination_postal_code`, ...) are details a registration may supply in
//   those versions, which the emulator does not take, so they are null, as in the examples;
// - `provider_tips` (the carrier's notes) is null: the simulation has none;
// - `description_translation` is always an object: the record's language once charged, else English;
// - gettracklist's `sync_status` is true once a tracking run reached the carrier, false before the first run and
//   while the carrier answers "invalid number" (its providers' latest_sync_status is then Failure);
// - webhook bodies stay in the version the number was registered with (v2.1's for these versions).

import type { RecordState } from '../account/types.js';
import { isLaterVersion, type ServedVersion } from '../versions.js';

/** The shipment fields of a details item, between `lang` and `track_info`, in the documentation's order. */
const SHIPMENT_FIELDS = [
  'destination_postal_code',
  'origin_country',
  'destination_country',
  'destination_city',
  'ship_date',
  'shipper',
  'consignee',
  'phone_number_last_4',
  'phone_number',
  'cpf_or_cnpj',
  'special_tracking_info',
] as const;

export interface ItemHead {
  number: string;
  carrier: number;
  param: string | null;
  tag: string | null;
  /** The record's translation language; null for a number that is not registered. */
  lang: string | null;
}

/** A v2-family details item (gettrackinfo, real time) in the shape of the version served. */
export function detailsItem(head: ItemHead, served: ServedVersion, trackInfo: unknown): Record<string, unknown> {
  const { number, carrier, param, tag } = head;
  if (!isLaterVersion(served)) return { number, carrier, param, tag, track_info: trackInfo };
  const shipment = Object.fromEntries(SHIPMENT_FIELDS.map((field) => [field, null]));
  return { number, carrier, param, tag, lang: head.lang, ...shipment, track_info: trackInfo };
}

/** gettracklist's `sync_status`. */
export function syncStatus(rec: RecordState): boolean {
  return rec.trackMs !== null && rec.subStatus !== 'NotFound_InvalidCode';
}
