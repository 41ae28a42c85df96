// When to try a request again, and how long to wait first. Pure functions, used by the client.
//
// Policy, by what is known about the failed attempt (see Delivery in errors.ts):
// - never after 401 or an authentication code: the key is wrong, repeating only hammers the service;
// - always after 429, 503 and connection failures before the request was sent: nothing was processed;
// - read-only operations also after 500/502/504, timeouts, dropped connections, answers trk cannot read
//   (truncated, not JSON, the wrong shape) and -18010003: repeating a read is harmless;
// - operations that charge quota (register, changecarrier, real-time) never after an ambiguous failure:
//   a second send could charge twice, so the error propagates with delivery 'unknown' and the bulk layer
//   verifies what the service has before deciding;
// - the other writes (trk stop, retrack, delete, update and push) ARE repeated after an ambiguous
//   failure. They cost nothing and are idempotent in effect: if the first send was processed, the second
//   yields an item rejection such as -18019906 (already stopped), -18019905 (already re-tracked) or
//   -18019902 (already deleted) rather than harm; a push is at worst sent twice. The client marks such an
//   answer (`resentAfterAmbiguousFailure` below) so the caller can read those rejections as "probably
//   done by the first send".
// - nothing else: 404, other 4xx, envelope errors and answers too large to read do not get better by repeating.
//
// A Retry-After is honoured up to MAX_HOLD_MS. The service's own 429 asks for no long wait (its limit is per
// second), so a longer one comes from something in between or something broken, and honouring it (a day, for
// `Retry-After: 86400`) would stop every trk process on the key for that long.

import { MAX_HOLD_MS, type WaitReason } from '../pacing/pacer.js';
import { operationClass } from '@trk/service/operations/index.js';
import type { Operation } from '@trk/service/vocabulary.js';
import {
  AuthenticationError,
  EnvelopeError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  ServerError,
  ServiceError,
  TimeoutError,
  TLS_CODE,
} from './errors.js';
import { clock } from '../core/clock.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Cap of the first backoff; doubles per attempt (full jitter picks uniformly below it). */
  baseDelayMs: number;
  /** No wait is longer than this, Retry-After included. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * How long a whole call may take with its retries and waits, and how long a chunk of an item run may keep
 * failing before it is given up: room for a slow answer, a retry and a hold of the rate budget.
 */
export function callDeadlineMs(timeoutMs: number): number {
  return timeoutMs * 3;
}

/** -18010003 "internal error, retry later": a whole-request refusal the service itself calls transient. */
const TRANSIENT_SERVICE_CODES: ReadonlySet<number> = new Set([-18010003]);

/** Whether a failed attempt of `op` may be sent again. */
export function shouldRetry(op: Operation, err: unknown): boolean {
  if (!(err instanceof ServiceError)) return false;
  if (err instanceof AuthenticationError) return false;
  // TLS failures are not transient: repeating cannot make a certificate acceptable.
  if (err instanceof NetworkError && err.reason !== undefined && TLS_CODE.test(err.reason)) return false;
  const transient =
    err instanceof RateLimitError ||
    err instanceof ServerError ||
    err instanceof NetworkError ||
    err instanceof TimeoutError ||
    err instanceof InvalidResponseError ||
    (err instanceof EnvelopeError && err.serviceCode !== undefined && TRANSIENT_SERVICE_CODES.has(err.serviceCode));
  if (!transient) return false;
  if (err.delivery === 'not-sent') return true;
  // Possibly processed (or, for -18010003, refused by the service's own failure):
  return operationClass(op) !== 'charging';
}

/**
 * Wait before attempt `attempt + 1`. Retry-After when the service sent one, else full jitter:
 * uniform in [0, min(max, base * 2^(attempt-1))). Both capped at `maxDelayMs`.
 */
export function retryDelay(
  attempt: number,
  err: unknown,
  policy: RetryPolicy = DEFAULT_RETRY,
  random: () => number = Math.random,
): number {
  const hinted = err instanceof ServiceError ? err.retryAfterMs : undefined;
  if (hinted !== undefined) return Math.min(policy.maxDelayMs, Math.max(0, hinted));
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** What to tell the user while waiting. */
export function waitReason(err: unknown): WaitReason {
  if (err instanceof RateLimitError) return 'rate-limited';
  if (err instanceof NetworkError || err instanceof TimeoutError) return 'network';
  return 'unavailable';
}

/**
 * `Retry-After` in milliseconds: delay-seconds (`120`) or an HTTP date, at most MAX_HOLD_MS. Undefined when
 * absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  nowMs: number = clock().now(),
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(MAX_HOLD_MS, Math.round(Number(text) * 1000));
  // HTTP dates always name the weekday or month in letters; this keeps numbers like "-5" out of Date.parse.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(MAX_HOLD_MS, Math.max(0, at - nowMs));
}

/** Envelopes answered to a re-send after an attempt that may have been processed. */
const resent = new WeakSet<object>();

/** Called by the client on the envelope of a successful re-send that followed an ambiguous failure. */
export function markResent(envelope: object): void {
  resent.add(envelope);
}

/**
 * True when this envelope answers a re-send that followed an ambiguous failure (timeout, dropped
 * connection, 500) of a non-charging write: rejections such as -18019906 (not tracking), -18019905 (already
 * re-tracked) or -18019902 (not registered) then most likely mean the first send did the work.
 * Here rather than in client.ts so that callers can ask without loading undici.
 */
export function resentAfterAmbiguousFailure(envelope: object): boolean {
  return resent.has(envelope);
}
