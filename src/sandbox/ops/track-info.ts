// gettrackinfo: the stored result of registered records (v2: track_info; v1: track).

import type { ApiVersion } from '../../api/spec.js';
import type { AccountCore } from '../account/core.js';
import type { Envelope } from '../account/envelope.js';
import type { RecordState } from '../account/types.js';
import type { OperationCall } from './call.js';
import { recordOperation } from './items.js';

export function getTrackInfo(core: AccountCore, call: OperationCall): Envelope {
  const { version, body } = call;
  const now = core.now();
  return recordOperation(core, version, body, (rec) => trackDetails(core, rec, version, now));
}

/** The language track_info is translated into: only once the translation unit has been charged. */
export function translation(rec: RecordState): string | undefined {
  return rec.langCharged && rec.lang !== null ? rec.lang : undefined;
}

/**
 * One record's details as stored: events known up to its last tracking run. Before the first run the
 * service has no result yet: v2 track_info / v1 track are null.
 */
export function trackDetails(core: AccountCore, rec: RecordState, version: ApiVersion, now: number): Record<string, unknown> {
  if (version === 'v1') {
    return { number: rec.number, tag: rec.tag, track: rec.trackMs === null ? null : core.world.v1Track(rec, rec.trackMs, now) };
  }
  return {
    number: rec.number,
    carrier: rec.carrier,
    param: rec.param,
    tag: rec.tag,
    track_info: rec.trackMs === null ? null : core.world.trackInfo(rec, rec.trackMs, now, version, translation(rec)),
  };
}
