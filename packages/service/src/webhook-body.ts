// The shape of a notification's body as the service documents it (Webhooks), checked by `trk webhook listen` once
// its signature holds: a body of another shape is answered 400 and never stored, saved or forwarded. A genuine
// sign says who sent it, not that what was sent can be read: `{"data":{"carrier":1}}` would become a record
// without a number in the mirror.
//
// Decision, field by field (fields not named here, and those newer minor versions add, are welcome):
//   event                   text, not empty. TRACKING_UPDATED and TRACKING_STOPPED are checked as below; another
//                           name (an event a newer service sends) needs only `data`: the app may know it, the
//                           mirror keeps nothing of it.
//   data                    an object.
//   data.number             text, not blank: the record's key.
//   data.carrier            a carrier code, a whole number from 0 (0: not detected). Required but in v1's
//                           TRACKING_UPDATED, where the recorded push names it only in the track (`track.w1`).
//   data.param, data.tag    may be missing or null (the service sends null for "none"), else text.
//   TRACKING_UPDATED        v2 and v2.1: data.track_info, an object (null too is refused: an update without its
//                           tracking holds nothing to keep). v1: data.track, an object.
//   TRACKING_STOPPED        number, carrier, param and tag only.

import { describe, isObject } from './operations/shapes.js';

/** The signature rule a body came under, which says whose shapes it has (v2 covers v2.1); unsigned: v2. */
export type NotificationVersion = 'v1' | 'v2';

/** Why `body` (parsed; undefined when it is not JSON) is not a notification as documented, or undefined. */
export function notificationProblem(body: unknown, version: NotificationVersion): string | undefined {
  if (body === undefined) return 'the body is not JSON';
  if (!isObject(body)) return `the body is ${describe(body)}, not an object`;
  const { event, data } = body;
  if (typeof event !== 'string') return `event is ${describe(event)}, not text`;
  if (event.trim() === '') return 'event is empty';
  if (!isObject(data)) return `data is ${describe(data)}, not an object`;
  if (event === 'TRACKING_UPDATED') return updatedProblem(data, version);
  if (event === 'TRACKING_STOPPED') return parcelProblem(data, true);
  return undefined;
}

function updatedProblem(data: Record<string, unknown>, version: NotificationVersion): string | undefined {
  const tracking = version === 'v1' ? 'track' : 'track_info';
  return (
    parcelProblem(data, version !== 'v1') ??
    (isObject(data[tracking]) ? undefined : `data.${tracking} is ${describe(data[tracking])}, not an object`)
  );
}

/** The fields naming the parcel: number, carrier (`carrierRequired`), param and tag. */
function parcelProblem(data: Record<string, unknown>, carrierRequired: boolean): string | undefined {
  const { number, carrier } = data;
  if (typeof number !== 'string') return `data.number is ${describe(number)}, not text`;
  if (number.trim() === '') return 'data.number is empty';
  if (!(carrier === undefined && !carrierRequired) && !isCarrierCode(carrier)) {
    return `data.carrier is ${describe(carrier)}, not a carrier code (a whole number)`;
  }
  for (const field of ['param', 'tag'] as const) {
    const value = data[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return `data.${field} is ${describe(value)}, not text`;
    }
  }
  return undefined;
}

function isCarrierCode(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
