// How long the chunk runner waits before trying a failing request again, and when it gives the chunk up. A 429
// says when to come back and is not counted as a failure, only as a streak that any answer ends; other failures
// are ambiguous and counted over the chunk's whole life (a lookup that works says nothing about its next send).
// The pause doubles per failure, with jitter, up to 30 s; a chunk is given up after a bounded number of attempts
// (ten times more for a 429 streak) or once the next attempt would come past its time.

import { formatSeconds, RateLimitError, type ServiceError } from '../api/errors.js';
import { DEFAULT_MAX_FAILURES, type Pending } from './chunk-work.js';
import type { RunnerOptions } from './runner.js';

const MAX_PAUSE_MS = 30_000;
const DEFAULT_MAX_CHUNK_MS = 10 * 60_000;
/** A chunk may meet this many times more 429s in a row than other failures before the run gives up. */
const MAX_LIMITED_FACTOR = 10;

type Limits = Pick<RunnerOptions, 'maxFailures' | 'maxChunkMs' | 'retryBaseMs'>;

/**
 * The failure `err` of a request of `chunks` counted: the pause before the next attempt, or the error the run
 * stops with (the chunk's last send failure, saying it was the last).
 */
export function nextAttempt(chunks: Pending[], err: ServiceError, now: number, limits: Limits): number | ServiceError {
  const limited = err instanceof RateLimitError;
  for (const p of chunks) {
    if (limited ? p.limited === 0 : p.failures === 0) p[limited ? 'limitedSince' : 'firstFailureAt'] = now;
  }
  const failures = Math.max(...chunks.map((p) => (limited ? (p.limited += 1) : (p.failures += 1))));
  // Ambiguous failures count over the chunk's life; a 429 streak ends with any answer.
  const since = Math.min(...chunks.map((p) => (limited ? p.limitedSince : p.firstFailureAt)));
  const maxFailures = limits.maxFailures ?? DEFAULT_MAX_FAILURES;
  const maxMs = limits.maxChunkMs ?? DEFAULT_MAX_CHUNK_MS;
  const base = limits.retryBaseMs ?? 1000;
  const pause = limited
    ? Math.min(MAX_PAUSE_MS, err.retryAfterMs ?? base)
    : Math.min(MAX_PAUSE_MS, err.retryAfterMs ?? base * 2 ** (failures - 1) * (0.5 + Math.random() / 2));
  const outOfTime = now + pause - since > maxMs;
  if (failures < maxFailures * (limited ? MAX_LIMITED_FACTOR : 1) && !outOfTime) return pause;
  const reported = chunks.find((p) => p.sendError)?.sendError ?? err;
  reported.attempts = failures;
  reported.gaveUp = outOfTime
    ? `the next attempt would come after the ${formatSeconds(maxMs)} the --timeout deadline allows`
    : `gave up after ${failures} attempts`;
  return reported;
}
