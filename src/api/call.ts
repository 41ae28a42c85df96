// One call of the client (client.ts): attempts of one POST, each started when the pacer admits it, retried by the
// policy in retry.ts, within the per-attempt timeout and the call's deadline.
//
// One attempt may take the per-attempt timeout; a call with retries has the deadline for all of it. The deadline
// runs from the first admission: the wait for a first turn is the pacer's (a hold is at most MAX_HOLD_MS and
// announced), and a bulk run queues its requests there on purpose. Once an attempt may have been processed, every
// later failure is ambiguous too, and an answer after it is marked as re-sent (retry.ts).

import { clock } from '../core/clock.js';
import { InterruptedError } from '../core/errors.js';
import { MAX_HOLD_MS, type Admission, type Pacer, type WaitReason } from '../pacing/pacer.js';
import { decodeAnswer, networkError } from './answers.js';
import type { RequestLog } from './client.js';
import {
  AnswerTooLargeError,
  NetworkError,
  RateLimitError,
  RequestAbortedError,
  ServiceError,
  TimeoutError,
  formatSeconds,
} from './errors.js';
import { operationClass } from '@trk/service/operations/index.js';
import { markResent, retryDelay, shouldRetry, waitReason, type RetryPolicy } from './retry.js';
import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';
import type { Transport } from './transport.js';
import type { Envelope } from '@trk/service/types.js';

/** What every call of a client shares. */
export interface CallSettings {
  version: ApiVersion;
  /** The service's host, for network errors. */
  host: string;
  headers: Record<string, string>;
  transport: Transport;
  pacer: Pacer;
  policy: RetryPolicy;
  timeoutMs: number;
  deadlineMs: number;
  maxAnswerBytes: number;
  onRequest: ((log: RequestLog) => void) | undefined;
  /** The Date of each answer, for the service's clock (client.ts). */
  onServiceTime?: ((ms: number) => void) | undefined;
  onWait: ((reason: WaitReason, delayMs: number) => void) | undefined;
}

/** One call's request: where it goes, what it carries. */
export interface CallRequest {
  op: Operation;
  url: string;
  body: unknown;
  signal: AbortSignal | undefined;
  /** false: one attempt only (the bulk runner decides itself). */
  retry: boolean;
}

export class Call {
  readonly #s: CallSettings;
  readonly #op: Operation;
  readonly #url: string;
  readonly #payload: string;
  readonly #items: number;
  readonly #signal: AbortSignal | undefined;
  readonly #maxAttempts: number;
  /** The whole call's time: the per-attempt timeout for one attempt, else the deadline. */
  readonly #budgetMs: number;
  #startedAt = 0;
  #deadline: AbortSignal | undefined;
  /** What a wait (for a turn, before a retry) ends on: Ctrl-C, and the deadline once it runs. */
  #waitSignal: AbortSignal | undefined;
  #ambiguous = false;
  #last: ServiceError | undefined;

  constructor(settings: CallSettings, request: CallRequest) {
    this.#s = settings;
    this.#op = request.op;
    this.#url = request.url;
    this.#payload = JSON.stringify(request.body);
    const body = request.body;
    this.#items = Array.isArray(body) ? body.length : body !== null && typeof body === 'object' ? 1 : 0;
    this.#signal = request.signal;
    this.#waitSignal = request.signal;
    this.#maxAttempts = request.retry ? Math.max(1, settings.policy.maxAttempts) : 1;
    this.#budgetMs = this.#maxAttempts === 1 ? settings.timeoutMs : Math.max(settings.timeoutMs, settings.deadlineMs);
  }

  /** The envelope of the first attempt that succeeds; the ServiceError of the last one otherwise. */
  async run(): Promise<Envelope> {
    for (let attempt = 1; ; attempt++) {
      const admission = await this.#admit();
      const remaining = this.#left();
      if (remaining <= 0) throw this.#outOfTime();
      try {
        return await this.#attempt(attempt, admission, remaining);
      } catch (err) {
        const wait = this.#failed(err, attempt);
        if (wait !== undefined) await this.#pause(err as ServiceError, wait);
      }
    }
  }

  /** Waits for the pacer's turn; the deadline starts with the first. */
  async #admit(): Promise<Admission | void> {
    let admission: Admission | void;
    try {
      admission = await this.#s.pacer.acquire(this.#waitSignal, { readOnly: operationClass(this.#op) === 'read' });
    } catch (reason) {
      throw this.#stopped(reason);
    }
    if (!this.#deadline) {
      this.#startedAt = clock().monotonic();
      this.#deadline = AbortSignal.timeout(this.#budgetMs);
      this.#waitSignal = this.#signal ? AbortSignal.any([this.#signal, this.#deadline]) : this.#deadline;
    }
    return admission;
  }

  #left(): number {
    return this.#budgetMs - (clock().monotonic() - this.#startedAt);
  }

  /** One attempt, logged; its envelope, marked when an earlier attempt may have been processed. */
  async #attempt(attempt: number, admission: Admission | void, remaining: number): Promise<Envelope> {
    const { timeoutMs } = this.#s;
    // The attempt is cut short by the deadline rather than by its own timeout: say so when it times out.
    const cut = this.#maxAttempts > 1 && remaining < timeoutMs ? this.#budgetMs : undefined;
    const started = clock().monotonic();
    try {
      const onSent = admission ? () => admission.sent() : undefined;
      const { status, envelope } = await this.#send(Math.min(timeoutMs, remaining), cut, onSent);
      if (this.#ambiguous) markResent(envelope);
      const note = this.#ambiguous ? { note: 're-sent after an ambiguous failure' } : {};
      this.#log({ status, ms: clock().monotonic() - started, attempt, ...note });
      return envelope;
    } catch (err) {
      if (err instanceof ServiceError) {
        // An earlier attempt may have been processed, whatever this one got back.
        if (this.#ambiguous) err.delivery = 'unknown';
        err.attempts = attempt;
        this.#log({ status: err.httpStatus ?? 'error', ms: clock().monotonic() - started, attempt, note: noteOf(err) });
      }
      throw err;
    }
  }

  /**
   * One POST, cut off after `limitMs` (the per-attempt timeout, or what is left of the call's deadline; `totalMs`
   * when that is what cut it). `onSent` is told when the request is written to its connection.
   */
  async #send(limitMs: number, totalMs: number | undefined, onSent: (() => void) | undefined) {
    const { transport, headers, maxAnswerBytes, timeoutMs } = this.#s;
    const op = this.#op;
    const caller = this.#signal;
    const timeout = AbortSignal.timeout(Math.max(1, Math.ceil(limitMs)));
    const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
    let res: Awaited<ReturnType<Transport['send']>>;
    try {
      res = await transport.send({ url: this.#url, headers, body: this.#payload, signal, maxAnswerBytes, onSent });
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      if (caller?.aborted) throw new RequestAbortedError({ operation: op, delivery: 'unknown', cause: caller.reason });
      if (!timeout.aborted) throw networkError(op, this.#s.host, err);
      throw new TimeoutError({ operation: op, timeoutMs, ...(totalMs === undefined ? {} : { totalMs }), cause: err });
    }
    const { status, text } = res;
    this.#tellServiceTime(res.headers.date);
    if (text === undefined) {
      throw new AnswerTooLargeError({ operation: op, httpStatus: status, limitBytes: maxAnswerBytes });
    }
    const version = this.#s.version;
    return { status, envelope: decodeAnswer({ op, url: this.#url, version, status, headers: res.headers, text }) };
  }

  /** The Date of an answer, the service's clock, to whoever keeps it (the context: ages count from it). */
  #tellServiceTime(date: string | string[] | undefined): void {
    const ms = typeof date === 'string' && this.#s.onServiceTime ? Date.parse(date) : NaN;
    if (!Number.isNaN(ms)) this.#s.onServiceTime?.(ms);
  }

  /**
   * After a failed attempt: rethrows when it is the last (not a ServiceError, no attempts left, not to be repeated,
   * no time left); else the ms to wait before the next, or undefined after a 429, whose wait is the pacer's hold.
   */
  #failed(err: unknown, attempt: number): number | undefined {
    if (!(err instanceof ServiceError)) throw err;
    this.#last = err;
    if (err.delivery === 'unknown') this.#ambiguous = true;
    const limited = err instanceof RateLimitError;
    const backoff = retryDelay(attempt, err, this.#s.policy);
    const wait = limited ? Math.min(MAX_HOLD_MS, err.retryAfterMs ?? Math.max(backoff, 1000)) : backoff;
    // A 429 means the shared budget is spent: hold every start of this process, retried or not. That hold is the
    // wait before the next attempt, and the pacer announces it.
    if (limited) this.#s.pacer.backoff(wait, 'rate-limited');
    if (attempt >= this.#maxAttempts || !shouldRetry(this.#op, err)) throw err;
    if (wait >= this.#left()) {
      const deadline = formatSeconds(this.#budgetMs);
      err.gaveUp = `the next attempt would come after the ${deadline} the --timeout deadline allows`;
      throw err;
    }
    return limited ? undefined : wait;
  }

  /** The wait before a retry, shown (`service unavailable, retrying in 2 s`). */
  async #pause(err: ServiceError, ms: number): Promise<void> {
    this.#s.onWait?.(waitReason(err), ms);
    try {
      await clock().sleep(ms, this.#waitSignal);
    } catch (reason) {
      throw this.#stopped(reason);
    }
  }

  /** The deadline has passed: the last failure, saying why it was the last, or a timeout. */
  #outOfTime(cause?: unknown): ServiceError {
    const last = this.#last;
    if (!last) {
      return new TimeoutError({ operation: this.#op, timeoutMs: this.#s.timeoutMs, totalMs: this.#budgetMs, cause });
    }
    last.gaveUp = `gave up after ${formatSeconds(this.#budgetMs)}, the --timeout deadline`;
    return last;
  }

  /**
   * What to throw when a wait (for its turn, or before a retry) ended early: Ctrl-C (the caller's signal, or a stop
   * signal inside the pacer, see stoppablePacer), or the deadline. Anything else is the pacer's own failure (its
   * budget file cannot be used), thrown as it is rather than passed off as an interruption.
   */
  #stopped(reason: unknown): unknown {
    const signal = this.#signal;
    if (this.#deadline?.aborted && !signal?.aborted) return this.#outOfTime(reason);
    const aborted = reason instanceof Error && reason.name === 'AbortError';
    if (signal?.aborted || reason instanceof InterruptedError || aborted) {
      const delivery = this.#ambiguous ? 'unknown' : 'not-sent';
      return new RequestAbortedError({ operation: this.#op, delivery, cause: reason });
    }
    return reason;
  }

  #log(entry: { status: number | 'error'; ms: number; attempt: number; note?: string }): void {
    const { status, ms, attempt, note } = entry;
    const log = { operation: this.#op, status, ms: Math.round(ms), items: this.#items, attempt };
    this.#s.onRequest?.(note === undefined ? log : { ...log, note });
  }
}

function noteOf(err: ServiceError): string {
  const detail = err instanceof NetworkError ? err.reason : err.serviceCode;
  return `${err.name}${detail === undefined ? '' : ` ${detail}`} (${err.delivery})`;
}
