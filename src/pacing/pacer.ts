// Request pacing. The service allows 3 requests per second and counts arrivals strictly over any one-second
// span, so the pacer admits no more than N request STARTS in any window of 1000 ms plus a margin (network
// jitter can bring two requests closer together on arrival than they were at start), spread through it (a start
// due a third of the window after the one before: spacing.ts) rather than in bursts of three
// with the rest of the window idle. It limits starts, not requests in flight: several requests may be under way
// at once, so latency does not lower throughput.
// A start is recorded when it is admitted, then moved to when the request is actually written to its
// connection (Admission.sent, told by the transport): a request that waits for a new connection, or for an
// event loop busy elsewhere, must not count as having left earlier than it did. After a 429 the margin is
// widened (WIDEN_MARGIN_MS), and narrowed again after each quiet minute: whatever brought arrivals closer than
// the margin allowed for (a loaded machine, a jittery network) is likely to do it again soon, if not for ever.
// One pacer per process (processPacer), shared by every client, so that concurrent work cannot exceed the rate
// together; processes sharing a key share a budget file instead (file-pacer.ts), or Redis (redis-pacer.ts).

import { clock } from '../core/clock.js';
import { LIMITS } from '@trk/service/vocabulary.js';
import { spacedAfter } from './spacing.js';

/** Why starts are held: a 429, the service unavailable, or the network failing. */
export type WaitReason = 'rate-limited' | 'unavailable' | 'network';

/**
 * The longest hold of the rate budget, and the longest Retry-After honoured (api/retry.ts): the service's own 429
 * asks for no long wait, so a longer one comes from something in between or something broken.
 */
export const MAX_HOLD_MS = 60_000;

/** What the request waiting for its turn does: a shared budget that cannot be used lets reads go on (budget.ts). */
export interface AcquireOptions {
  /** The request changes nothing on the service. */
  readOnly?: boolean;
}

/**
 * A start the pacer admitted and recorded. The request may reach its connection a little later (a new
 * connection, an event loop busy elsewhere): `sent()` moves the recorded start to that moment.
 */
export interface Admission {
  sent(): void;
}

/** Admits request starts so that no more than `perSecond` begin in any one-second window. */
export interface Pacer {
  /**
   * Resolves when a request may start, with the admission when the pacer records starts; rejects with the
   * signal's reason when aborted.
   */
  acquire(signal?: AbortSignal, opts?: AcquireOptions): Promise<Admission | void>;
  /**
   * Hold all starts for this long (at most MAX_HOLD_MS): after a 429 ('rate-limited', the default), or while the
   * service is unavailable or unreachable.
   */
  backoff(ms: number, reason?: WaitReason): void;
}

/**
 * A request admitted and not written yet leaves no earlier than now, so the next start is reckoned from now for it
 * (the event loop, a busy machine or the connections hold it back): for this long after its admission, after which
 * it is taken to have failed before it left (a refused connection), and holds the budget back no more.
 */
export const UNSENT_LEAVES_LATER_MS = 5_000;

/**
 * Why the service refused a start the budget allowed (a 429), as far as the pacer can tell: this process stalled
 * shortly before (the machine was busy, and requests left closer together than they were paced), another trk
 * process sharing the budget was refused (its hold, read from the budget), or neither, so something the budget
 * does not count used the key (another host, another program, a trk with another state folder).
 */
export type HoldCause = { kind: 'stall'; ms: number } | { kind: 'shared' } | { kind: 'outside' };

/** Called once per hold, when a start first has to wait for it: nothing waits silently. */
export type HoldListener = (ms: number, reason: WaitReason, cause?: HoldCause) => void;

/** Holds shorter than this pass without a word: no longer than the ordinary pace of requests. */
export const ANNOUNCE_HOLD_MS = 500;

/**
 * Decides which holds to announce: a hold is told once, when a start first waits for it; a hold extended by more
 * than ANNOUNCE_HOLD_MS (a new 429) is a new one.
 */
export function holdAnnouncer(
  listener: HoldListener | undefined,
): (until: number, now: number, reason: WaitReason, cause?: HoldCause) => void {
  let told = -Infinity;
  return (until, now, reason, cause) => {
    if (!listener || until - now < ANNOUNCE_HOLD_MS || until <= told + ANNOUNCE_HOLD_MS) return;
    told = until;
    listener(until - now, reason, cause);
  };
}

export interface PacerOptions {
  perSecond: number;
  /** Added to the one-second window. */
  marginMs: number;
  now?: () => number;
  /** Sleeps `ms`; resolves early (or rejects) when `signal` aborts. Tests pass one that advances a fake clock. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  onHold?: HoldListener;
}

/** Default margin: at 3 per second this costs about 10 % of throughput and absorbs ordinary jitter. */
export const DEFAULT_MARGIN_MS = 100;

/**
 * Added to the margin after each 429, up to WIDEN_MARGIN_MAX_MS more than it started with: 50 ms costs the
 * shared budget's pace (1030 ms a window) 5 % of the ceiling, enough to ride out what caused one 429 without
 * giving up much for a run that will not meet another.
 */
export const WIDEN_MARGIN_MS = 50;
export const WIDEN_MARGIN_MAX_MS = 200;
/**
 * After this long without a 429 the margin narrows by WIDEN_MARGIN_MS again, down to where it started: what brought
 * arrivals too close (a burst of load on the machine, a jittery minute of the network) often passes, and a run of
 * an hour (a first sync, a large import) should not pay 5 % to its end for one 429 in its first minute. Should
 * the cause stay, it costs a 429 a minute at most, which the rate budget waits out.
 */
export const NARROW_AFTER_MS = 60_000;

/**
 * A pacer's margin, widened after a 429 and narrowed again after each quiet minute: whatever brought arrivals
 * closer than the margin allowed for (a loaded machine, a jittery network) is likely to do it again soon.
 */
export class Margin {
  #widened: number;
  readonly #initial: number;
  #widenedAt = -Infinity;

  constructor(initialMs: number) {
    this.#initial = Math.max(0, initialMs);
    this.#widened = this.#initial;
  }

  /** The margin at `now` (the clock `held` is told). */
  at(now: number): number {
    const quietMinutes = Math.max(0, Math.floor((now - this.#widenedAt) / NARROW_AFTER_MS));
    return Math.max(this.#initial, this.#widened - quietMinutes * WIDEN_MARGIN_MS);
  }

  /**
   * Told of every hold at `now` (any clock); a 429 widens the margin by WIDEN_MARGIN_MS, up to WIDEN_MARGIN_MAX_MS
   * more than it started with. One 429 is often told twice (the client, then the item runner), and answers in
   * flight together meet the same spent budget: once a second at most.
   */
  held(reason: WaitReason, now: number): void {
    if (reason !== 'rate-limited' || now - this.#widenedAt < 1000) return;
    this.#widened = Math.min(this.#initial + WIDEN_MARGIN_MAX_MS, this.at(now) + WIDEN_MARGIN_MS);
    this.#widenedAt = now;
  }
}

interface Waiter {
  resolve(admission: Admission): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export function createPacer(opts: PacerOptions): Pacer {
  if (!Number.isInteger(opts.perSecond) || opts.perSecond < 1) throw new RangeError(`invalid rate ${opts.perSecond}`);
  const perSecond = opts.perSecond;
  const margin = new Margin(opts.marginMs);
  const now = opts.now ?? (() => clock().monotonic());
  const sleep = opts.sleep ?? ((ms: number, signal: AbortSignal) => clock().sleep(ms, signal));

  /**
   * Start times of the latest admitted requests, oldest first: twice the rate, so that a start moved later by
   * its request's late departure is still counted among the latest.
   */
  const starts: Start[] = [];
  const queue: Waiter[] = [];
  /** When the latest start was due by the spacing (spacing.ts). */
  let due: number | undefined;
  let holdUntil = -Infinity;
  let holdReason: WaitReason = 'rate-limited';
  const announce = holdAnnouncer(opts.onHold);
  let pumping = false;
  /** Cancels the pump's current sleep, when every waiter has gone. */
  let sleeping: AbortController | undefined;

  /** Moves the starts admitted and not written yet to `t`: they leave no earlier. */
  function unsentLeaveAt(t: number): void {
    let moved = false;
    for (const s of starts) {
      if (s.sent || s.t >= t || t - s.admitted >= UNSENT_LEAVES_LATER_MS) continue;
      s.t = t;
      moved = true;
    }
    if (moved) starts.sort((a, b) => a.t - b.t);
  }

  /** Milliseconds until the next start is allowed (0: now). */
  function waitFor(t: number): number {
    unsentLeaveAt(t);
    const windowMs = 1000 + margin.at(t);
    let until = Math.max(holdUntil, due === undefined ? -Infinity : due + windowMs / perSecond);
    if (starts.length >= perSecond) {
      const nth = (starts[starts.length - perSecond] as Start).t;
      until = Math.max(until, nth + windowMs);
    }
    return Math.max(0, until - t);
  }

  // One loop admits waiters in arrival order; only it sleeps, so a backoff set while it sleeps is seen on wake.
  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0) {
        const t = now();
        const wait = waitFor(t);
        if (wait > 0) {
          if (holdUntil > t) announce(holdUntil, t, holdReason);
          sleeping = new AbortController();
          try {
            await sleep(wait, sleeping.signal);
          } catch {
            // cancelled: re-check the queue
          }
          sleeping = undefined;
          continue;
        }
        const waiter = queue.shift() as Waiter;
        if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
        const admitted = now();
        due = spacedAfter(due, admitted, (1000 + margin.at(admitted)) / perSecond);
        const start: Start = { t: admitted, admitted, sent: false };
        starts.push(start);
        if (starts.length > 2 * perSecond) starts.shift();
        waiter.resolve({
          sent() {
            start.sent = true;
            const t = now();
            if (t <= start.t) return;
            start.t = t;
            starts.sort((a, b) => a.t - b.t);
          },
        });
      }
    } finally {
      pumping = false;
    }
  }

  return {
    acquire(signal?: AbortSignal): Promise<Admission> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<Admission>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
        if (signal) {
          waiter.onAbort = () => {
            const i = queue.indexOf(waiter);
            if (i >= 0) queue.splice(i, 1);
            // Nothing left to admit: do not keep the process alive with the pump's timer.
            if (queue.length === 0) sleeping?.abort();
            reject(signal.reason);
          };
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        queue.push(waiter);
        void pump();
      });
    },
    backoff(ms: number, reason: WaitReason = 'rate-limited'): void {
      margin.held(reason, now());
      if (!(ms > 0)) return;
      const until = now() + Math.min(ms, MAX_HOLD_MS);
      if (until <= holdUntil) return;
      holdUntil = until;
      holdReason = reason;
    },
  };
}

let shared: Pacer | undefined;

/** The process-wide pacer: every client of this process shares one rate budget. */
export function processPacer(): Pacer {
  shared ??= createPacer({ perSecond: LIMITS.requestsPerSecond, marginMs: DEFAULT_MARGIN_MS });
  return shared;
}

/**
 * Admissions wait as `inner`'s do, but are refused once `stop` aborts: on Ctrl-C nothing more leaves while the
 * requests already on the wire finish.
 */
export function stoppablePacer(inner: Pacer, stop: AbortSignal): Pacer {
  return {
    acquire: (signal, opts) => inner.acquire(signal ? AbortSignal.any([signal, stop]) : stop, opts),
    backoff: (ms, reason) => inner.backoff(ms, reason),
  };
}

/** A start the in-process pacer admitted: where it is now (moved to when its request left), and since when. */
interface Start {
  t: number;
  admitted: number;
  sent: boolean;
}
