// stoptrack, retrack, deletetrack and push: item operations on existing records.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { AccountCore } from '../account/core.js';
import { type Envelope, ItemReject } from '../account/envelope.js';
import { numberCarrier, recordOperation } from './items.js';
import { type EmulatedOperation, everywhere } from './call.js';

export function stopTrack(core: AccountCore, version: ApiVersion, body: unknown): Envelope {
  return recordOperation(core, version, body, (rec) => {
    if (!rec.tracking) throw new ItemReject(-18019906);
    core.stop(rec, 'ByRequest', core.now());
    return numberCarrier(rec);
  });
}

export function retrack(core: AccountCore, version: ApiVersion, body: unknown): Envelope {
  return recordOperation(core, version, body, (rec) => {
    if (rec.tracking) throw new ItemReject(-18019904);
    if (rec.retracked) throw new ItemReject(-18019905);
    core.retrack(rec);
    return numberCarrier(rec);
  });
}

export function deleteTrack(core: AccountCore, version: ApiVersion, body: unknown): Envelope {
  return recordOperation(
    core,
    version,
    body,
    (rec) => {
      core.removeRecord(rec);
      return numberCarrier(rec);
    },
    // v1 documents carrier as required for deleteTrack.
    { carrierRequired: version === 'v1' },
  );
}

/**
 * push: queue a TRACKING_UPDATED with the stored result. Without a webhook URL every item is refused
 * (-18010204); a record with no tracking run yet has nothing to push (-18019909). Stopped records can be
 * pushed: the request is explicit, and "no TRACKING_UPDATED after TRACKING_STOPPED" is about automatic
 * tracking.
 */
export function push(core: AccountCore, version: ApiVersion, body: unknown): Envelope {
  return recordOperation(core, version, body, (rec) => {
    if (!core.settings.webhookUrl) throw new ItemReject(-18010204);
    if (rec.trackMs === null) throw new ItemReject(-18019909);
    core.queueNotification(rec, 'TRACKING_UPDATED', rec.trackMs, true);
    return numberCarrier(rec);
  });
}

/** Its row of the emulator's table (table.ts). */
export const stopTrackOperation: EmulatedOperation = {
  operation: 'stoptrack',
  paths: everywhere('stoptrack'),
  handle: (core, c) => stopTrack(core, c.version, c.body),
};

// v1 spells these two in its own casing: POST /Retrack, POST /deleteTrack.
export const retrackOperation: EmulatedOperation = {
  operation: 'retrack',
  paths: { v1: 'Retrack', v2: 'retrack', 'v2.1': 'retrack' },
  handle: (core, c) => retrack(core, c.version, c.body),
};

/** Its row of the emulator's table (table.ts). */
export const deleteTrackOperation: EmulatedOperation = {
  operation: 'deletetrack',
  paths: { v1: 'deleteTrack', v2: 'deletetrack', 'v2.1': 'deletetrack' },
  handle: (core, c) => deleteTrack(core, c.version, c.body),
};

/** Its row of the emulator's table (table.ts). */
export const pushOperation: EmulatedOperation = {
  operation: 'push',
  paths: everywhere('push'),
  handle: (core, c) => push(core, c.version, c.body),
};
