// deletetrack: delete numbers from the account (free). v1 spells it deleteTrack and needs the carrier.

import type { NumberCarrierItem } from '../types.js';
import type { ApiVersion } from '../vocabulary.js';
import { listSome, RequestRefused, type ItemOperationSpec } from './operation.js';
import { NUMBER_CARRIER_PARTS, numberCarrierBody, numberCarrierItems } from './number-carrier.js';

function deleteTrackBody(version: ApiVersion, items: readonly NumberCarrierItem[]): NumberCarrierItem[] {
  if (version === 'v1') {
    const missing = items.filter((i) => i.carrier === undefined).map((i) => i.number);
    if (missing.length > 0) {
      throw new RequestRefused(
        `the v1 API needs the carrier to delete a number (missing for ${listSome(missing)})`,
        'pass --carrier <code> (or a carrier column), or use --api-version v2',
      );
    }
  }
  return numberCarrierBody(version, items);
}

export const deleteTrack = {
  name: 'deletetrack',
  paths: { v1: 'deleteTrack', v2: 'deletetrack', 'v2.1': 'deletetrack' },
  class: 'write',
  ...NUMBER_CARRIER_PARTS,
  body: deleteTrackBody,
  itemBody: (version, items) => deleteTrackBody(version, numberCarrierItems(items)),
  rowLacks: (values, version) =>
    version === 'v1' && values.carrier === undefined
      ? 'the v1 API needs the carrier to delete a number (--carrier, or a carrier column)'
      : undefined,
  // Not registered is a rejection (a typo deletes nothing), except after a re-send or with --ignore-missing.
  already: { codes: [], words: 'already deleted' },
  alreadyAfterResend: [-18019902],
  command: 'delete',
  done: 'deleted',
} as const satisfies ItemOperationSpec<'deletetrack', readonly NumberCarrierItem[]>;
