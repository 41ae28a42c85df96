// The listener's bounds, in one place. It may face anything that can reach its port, so what it holds is bounded
// whatever arrives, and the service still gets through while others hold on:
// - a body is buffered up to `maxBodyBytes` and no further: a larger one is refused (413) when announced, or as
//   soon as it passes the limit, and the rest is discarded unread;
// - bodies are read a few at once, in two lanes: 128 announced at up to 64 KiB (every notification the service
//   sends; 8 MiB at most) and 8 others (32 MiB at most); further requests wait unread (their sockets paused, so
//   the kernel holds back the sender), and past 64 waiting in a lane they are refused with 503 and Retry-After;
// - after 3 s a body must have come at 8 KiB/s on average (a genuine one takes milliseconds), or it is cut off
//   (408): 100 senders trickling their bodies free their turns within seconds;
// - a whole request must arrive within 30 s (Node's default is 300 s), its headers within 10 s of the
//   connection's opening or of its previous answer;
// - each open connection costs a little memory and a file descriptor, idle or not: at most 1,024, and 64 from
//   one address; idle ones make room for new ones (connections.ts), so 3,000 idle connections lock no one out.

import type { Limits, QueueLimits } from './types.js';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  maxConcurrentBodies: 8,
  smallBodyBytes: 64 * 1024,
  maxConcurrentSmallBodies: 128,
  maxWaiting: 64,
  minBodyBytesPerSecond: 8 * 1024,
  bodyGraceMs: 3000,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 64,
  forwardTimeoutMs: 30_000,
  // The service waits about 5 s for its answer; a disk that takes longer is not the service's problem.
  writeDeadlineMs: 2000,
};

/** The limits given, the defaults for the rest. */
export function settleLimits(given: Partial<Limits>): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(limits) as (keyof Limits)[]) {
    const v = given[key];
    if (v !== undefined) limits[key] = v;
  }
  return limits;
}

// The forward queue (--forward-to). The service is told 200 before the app is tried, so a forward that fails
// would be lost to the app: each notification is kept on disk before the answer (in the state folder, as a
// saved pair that `trk webhook replay` reads) until the app takes it, and is tried again with backoff, from 1 s
// doubling to 5 minutes, 10 attempts in all; what is still there at the stop is counted and named.
// Bounded: at most 10,000 notifications and 256 MiB waiting (a day of a busy account's notifications, a few KB
// each; a full one with every event stays below 200 KB). At the bound, a new notification is still answered 200
// at once (refusing it would only make the service try again 10, 30 and 60 minutes later, into a queue just as
// full) and forwarded once, not kept; the listener says so, and if that one forward fails it is counted as lost
// in the summary, which points to `trk push NUMBER` (the service sends it again) and to --save, which keeps it
// whatever the queue holds. A disk slower than `writeDeadlineMs` does not hold the answer either.
export const DEFAULT_QUEUE_LIMITS: Readonly<QueueLimits> = {
  maxCount: 10_000,
  maxBytes: 256 * 1024 * 1024,
  firstDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  maxAttempts: 10,
};
