// The one clock of trk: what time it is, how long something took, and waiting for time to pass. Everything that
// waits, paces, retries or prints a duration asks clock(), so that a test replaces time in one place (setClock):
// the tests' clock skips the waits and counts them, and a pace of 3 requests a second or a back-off of a minute
// then takes no time at all while every part of trk still sees it pass.
//
// Not for what races real input and output (a request's time limit, a server's idle connections): those are real
// timers, since a skipped wait there would cut short what is still under way.

import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  /** Wall-clock milliseconds since the epoch (what Date.now() tells): times shown and shared between processes. */
  now(): number;
  /** Milliseconds on a monotonic clock: paces, deadlines and durations. */
  monotonic(): number;
  /** Resolves once `ms` have passed; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The machine's clock. Its monotonic time is not `performance.now()`: the first use of `performance` loads Node's
 * perf_hooks internals, some 0.4 ms of every command.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => Number(process.hrtime.bigint()) / 1e6,
  sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : {}),
};

let current: Clock = systemClock;

/** The clock in force. */
export function clock(): Clock {
  return current;
}

/** Puts `next` in force (tests); returns the clock it replaced, to be put back. */
export function setClock(next: Clock): Clock {
  const previous = current;
  current = next;
  return previous;
}
