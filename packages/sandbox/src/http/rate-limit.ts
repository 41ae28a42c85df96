// The service's request-rate limit: at most N requests per second per key, above that HTTP 429.
// Counted strictly per arrival over a sliding window (any one-second span, not calendar seconds), so a
// client whose pacing is only approximately right is caught the way the real service would catch it.
// Real (monotonic) time, never simulated time: the limit is about the wire, and a fast simulated clock
// must not loosen or tighten it.

import { performance } from 'node:perf_hooks';

export const RATE_WINDOW_MS = 1000;

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

export class RateLimiter {
  /** Admitted arrival times per key, oldest first; never longer than the limit. */
  readonly #arrivals = new Map<string, number[]>();
  readonly #now: () => number;
  #perSecond: number;

  /** `perSecond` 0 turns the limit off. */
  constructor(perSecond: number, now: () => number = () => performance.now()) {
    this.#perSecond = checkLimit(perSecond);
    this.#now = now;
  }

  /** The limiter's clock: when a request arrives. */
  now(): number {
    return this.#now();
  }

  get perSecond(): number {
    return this.#perSecond;
  }

  set perSecond(value: number) {
    this.#perSecond = checkLimit(value);
    this.#arrivals.clear();
  }

  /**
   * Decide on one arrival, at `at` (when its request was received; by default now). Only admitted requests are
   * counted: a refused request was not served, and counting it would lock out a client that retries a little too
   * early for ever. An arrival decided after a later one (its body came in more slowly) is counted in its place.
   */
  take(key: string, at: number = this.#now()): RateDecision {
    const limit = this.#perSecond;
    if (limit === 0) return { ok: true };
    let log = this.#arrivals.get(key);
    if (!log) {
      log = [];
      this.#arrivals.set(key, log);
    }
    // Half-open window (at - 1 s, at]: an arrival exactly one second after another no longer sees it.
    while (log.length > 0 && (log[0] as number) <= at - RATE_WINDOW_MS) log.shift();
    if (log.length >= limit) {
      const oldest = log[0] as number;
      return { ok: false, retryAfterMs: Math.max(1, Math.ceil(oldest + RATE_WINDOW_MS - at)) };
    }
    let i = log.length;
    while (i > 0 && (log[i - 1] as number) > at) i--;
    log.splice(i, 0, at);
    return { ok: true };
  }

  reset(): void {
    this.#arrivals.clear();
  }
}

function checkLimit(n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`invalid rate limit ${n}`);
  return n;
}
