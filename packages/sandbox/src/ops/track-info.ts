// gettrackinfo: the stored result of registered records (v2: track_info; v1: track; v2.2 and later: the newer
// documentation's fields too, see newer-fields.ts).

import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject } from '../account/envelope.js';
import type { RecordState } from '../account/types.js';
import { type OperationCall, type EmulatedOperation, everywhere } from './call.js';
import { recordOperation } from './items.js';
import { detailsItem } from './newer-fields.js';
import { isLaterVersion } from '../versions.js';

export function getTrackInfo(core: AccountCore, call: OperationCall): Envelope {
  const now = core.now();
  return recordOperation(core, call.version, call.body, (rec) => trackDetails(core, rec, call, now));
}

/** The language track_info is translated into: only once the translation unit has been charged. */
export function translation(rec: RecordState): string | undefined {
  return rec.langCharged && rec.lang !== null ? rec.lang : undefined;
}

/**
 * One record's details as stored: events known up to its last tracking run. Before the first run the service has
 * no result yet: the item is rejected -18019909 "no tracking information yet", in every version (what the public
 * clients of the service handle there; a null track_info made one of them crash).
 */
export function trackDetails(
  core: AccountCore,
  rec: RecordState,
  call: Pick<OperationCall, 'version' | 'served'>,
  now: number,
): Record<string, unknown> {
  if (rec.trackMs === null) throw new ItemReject(-18019909);
  if (call.version === 'v1') {
    return { number: rec.number, tag: rec.tag, track: core.world.v1Track(rec, rec.trackMs, now) };
  }
  const newerFields = isLaterVersion(call.served);
  const info = core.world.trackInfo(rec, rec.trackMs, now, call.version, translation(rec), { newerFields });
  return detailsItem(rec, call.served, info);
}

/** Its row of the emulator's table (table.ts). */
export const getTrackInfoOperation: EmulatedOperation = {
  operation: 'gettrackinfo',
  paths: everywhere('gettrackinfo'),
  handle: (core, c) => getTrackInfo(core, c),
};
