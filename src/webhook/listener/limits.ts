// The listener's bounds, in one place. It may face anything that can reach its port, so what it holds is bounded
// whatever arrives:
// - a body is buffered up to `maxBodyBytes` and no further: a larger one is refused (413) when announced, or as
//   soon as it passes the limit, and the rest is discarded unread;
// - at most `maxConcurrentBodies` bodies are read at once; further requests wait unread (their sockets paused, so
//   the kernel holds back the sender), and past `maxWaiting` they are refused with 503 and Retry-After;
// - a whole request must arrive within 30 s (Node's default is 300 s);
// - each open connection costs a little memory and a file descriptor, idle or not: at most `maxConnections`.

import type { Limits } from './types.js';

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  maxConcurrentBodies: 8,
  maxWaiting: 64,
  requestTimeoutMs: 30_000,
  maxConnections: 1024,
  forwardTimeoutMs: 30_000,
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
