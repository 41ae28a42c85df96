// Where an accepted notification goes: printed, saved, forwarded, and later kept in a database. A sink is written
// in two steps around the answer to the sender:
//   write        awaited before the answer: the sender is told 200 only once every sink has written, so a durable
//                sink (a database, the forward queue on disk) makes the answer wait until the notification is kept.
//                A write that rejects makes the answer 503, so that the service delivers it again later, and the
//                sinks after it are not written. A write must settle in a few seconds: the service waits about 5.
//   afterAnswer  once the answer is out: work the sender need not wait for (printing, the first forward). The
//                notification counts as handled when every sink's afterAnswer has settled; it never rejects.

import type { ReceivedEvent } from '../types.js';

export interface Sink {
  write?(ev: ReceivedEvent): Promise<void>;
  afterAnswer?(ev: ReceivedEvent): Promise<void>;
  /** At the stop, first: abandon slow work in flight (a forward), so that the requests still handled finish. */
  stop?(): void;
  /** At the stop, once every request is handled: finish what is left and let go of resources. */
  close?(): Promise<void>;
  /** For the stop summary: counts for its first line, and lines about what needs doing (shown even with --quiet). */
  summary?(): { counts?: string; notes: string[] };
}

/** Resolves once `work` has settled or `ms` have passed, whichever is first; `work` goes on either way. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.then(noop, noop), deadline]);
  clearTimeout(timer);
}

const noop = (): void => {};
