// The HTTP client of the service. One POST per attempt to `${baseUrl}/track/<version>/<path>`,
// started when its pacer admits it (the process-wide one unless another is given), retried by the policy in
// retry.ts. The envelope is decoded here and only here: a caller gets either an envelope with code 0 of the
// shape its operation returns (answer-shapes.ts; rejected items are data) or a typed ServiceError.
// The API key goes into the `svctoken` header and nowhere else: not into logs, messages or errors.
//
// Every answer is bounded: in time (`timeoutMs` per attempt, `deadlineMs` for a call with its retries and
// waits) and in size (`maxAnswerBytes`; nothing the service returns comes near it, so more is a runaway or
// endless body, and reading it whole would take the memory of the machine). The POSTs go through transport.ts:
// node:http for requests one at a time, undici once they overlap or behind a proxy.

import { setTimeout as delay } from 'node:timers/promises';
import { CredentialsError, InterruptedError, noApiKeyError } from '../errors.js';
import { addSecret } from '../secrets.js';
import { answerProblem } from './answer-shapes.js';
import { createTransport, type Transport } from './transport.js';
import type { Envelope } from './types.js';
import { callDeadlineMs } from '../config/timeout.js';
import { LIMITS, type ApiVersion, type Operation } from './spec.js';
import { operationClass, operationPath } from './ops.js';
import { monotonicMs, processPacer, type Admission, type Pacer } from './pacer.js';
import {
  AnswerTooLargeError,
  AuthenticationError,
  EndpointNotFoundError,
  EnvelopeError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  ServiceError,
  TimeoutError,
  TLS_CODE,
  UnexpectedStatusError,
  formatSeconds,
  isAuthCode,
} from './errors.js';
import {
  DEFAULT_RETRY,
  MAX_HOLD_MS,
  markResent,
  parseRetryAfter,
  retryDelay,
  shouldRetry,
  waitReason,
  type RetryPolicy,
  type WaitReason,
} from './retry.js';
import { unsupported } from './bodies.js';
import { packageVersion } from '../version.js';

export { resentAfterAmbiguousFailure } from './retry.js';

/** One line per request for --verbose / TRK_DEBUG (the key is never part of it). */
export interface RequestLog {
  operation: Operation;
  status: number | 'error';
  ms: number;
  items: number;
  attempt: number;
  note?: string;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  version: ApiVersion;
  /** Default `trk/<package version>`. */
  userAgent?: string;
  /** Per attempt; default 30 000 ms (`--timeout`). */
  timeoutMs?: number;
  /**
   * For a whole call, retries and waits included; default three times `timeoutMs`. A call gives up as soon as
   * the next wait would end after it, rather than waiting in vain.
   */
  deadlineMs?: number;
  /** Longest answer read; default DEFAULT_MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
  /** Default: the process-wide pacer (3 starts in any second, with a margin). */
  pacer?: Pacer;
  /** Retry tuning; tests shrink the delays. */
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  onRequest?: (log: RequestLog) => void;
  /**
   * Called before sleeping for a retry, e.g. to show "service unavailable, retrying in 2 s". Not after a 429:
   * that wait is the pacer's hold, which every start of the process honours and the pacer announces.
   */
  onWait?: (reason: WaitReason, delayMs: number) => void;
  /** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read from; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Default: node:http, or undici when requests overlap or a proxy applies (transport.ts). */
  transport?: Transport;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** false: one attempt only (the bulk runner decides itself). Default true. */
  retry?: boolean;
}

/**
 * 8 MiB: the largest answers, 40 items of gettrackinfo with every event of two carriers, stay well below 2 MB
 * (a page of gettracklist is some 40 KB).
 */
export const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;


export interface ApiClient {
  readonly version: ApiVersion;
  /**
   * POST `${baseUrl}/track/${version}/${path}` with the wire body as given. Resolves with the decoded envelope
   * when it is code 0 without data.errors (rejected items are data); throws a ServiceError otherwise.
   */
  call<A = Record<string, unknown>>(op: Operation, body: unknown, opts?: CallOptions): Promise<Envelope<A>>;
  close(): Promise<void>;
}

/** `trk/<version>`, asked for only when a client is built. */
export function defaultUserAgent(): string {
  return `trk/${packageVersion()}`;
}

// Connection failures that happen before a single byte of the request is written.
const CONNECT_PHASE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function createApiClient(opts: ApiClientOptions): ApiClient {
  // A header cannot carry line breaks or non-ASCII; say so without echoing the key.
  if (!opts.apiKey) throw noApiKeyError();
  if (!/^[\x21-\x7e]+$/.test(opts.apiKey)) {
    throw new CredentialsError(
      'the API key contains characters that cannot be sent (spaces, line breaks or non-ASCII)',
      'check TRK_API_KEY, TRK_API_KEY_FILE or the profile ("trk auth login")',
    );
  }
  // Whatever the service sends back, the key it was sent is never printed (src/secrets.ts).
  addSecret(opts.apiKey);
  const version = opts.version;
  const base = opts.baseUrl.replace(/\/+$/, '');
  const host = safeHost(base);
  const timeoutMs = opts.timeoutMs ?? LIMITS.requestTimeoutMs;
  const deadlineMs = opts.deadlineMs ?? callDeadlineMs(timeoutMs);
  const maxAnswerBytes = opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const pacer = opts.pacer ?? processPacer();
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...definedOnly(opts.retry ?? {}) };
  const headers = {
    'content-type': 'application/json',
    svctoken: opts.apiKey,
    'user-agent': opts.userAgent ?? defaultUserAgent(),
  };
  const transport = opts.transport ?? createTransport(base, opts.env ?? process.env);

  /**
   * One attempt, cut off after `limitMs` (the per-attempt timeout, or what is left of the call's deadline).
   * `onSent` is told when the request is written to its connection.
   */
  async function attemptOnce(
    op: Operation,
    url: string,
    payload: string,
    signal: AbortSignal | undefined,
    limitMs: number,
    totalMs: number | undefined,
    onSent: (() => void) | undefined,
  ): Promise<{ status: number; envelope: Envelope }> {
    const timeout = AbortSignal.timeout(Math.max(1, Math.ceil(limitMs)));
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let status: number;
    let text: string;
    let responseHeaders: Record<string, string | string[] | undefined>;
    try {
      const res = await transport.send({ url, headers, body: payload, signal: combined, maxAnswerBytes, onSent });
      status = res.status;
      responseHeaders = res.headers;
      if (res.text === undefined) throw new AnswerTooLargeError({ operation: op, httpStatus: status, limitBytes: maxAnswerBytes });
      text = res.text;
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      if (signal?.aborted) throw new RequestAbortedError({ operation: op, delivery: 'unknown', cause: signal.reason });
      if (timeout.aborted) {
        throw new TimeoutError({ operation: op, timeoutMs, ...(totalMs === undefined ? {} : { totalMs }), cause: err });
      }
      throw networkError(op, host, err);
    }
    return { status, envelope: decodeResponse(op, url, status, responseHeaders, text) };
  }

  function decodeResponse(
    op: Operation,
    url: string,
    status: number,
    resHeaders: Record<string, string | string[] | undefined>,
    text: string,
  ): Envelope {
    const parsed = parseJson(text);
    const envelope = isEnvelope(parsed) ? parsed : undefined;
    const first = envelope ? firstError(envelope) : undefined;
    const common = {
      operation: op,
      httpStatus: status,
      ...(first?.code === undefined ? {} : { serviceCode: first.code }),
    };
    if (status >= 200 && status < 300) {
      if (!envelope) {
        return fail(
          new InvalidResponseError({
            ...common,
            detail: parsed === NOT_JSON ? `not JSON (HTTP ${status}${describeType(resHeaders)})` : `no envelope (HTTP ${status})`,
          }),
        );
      }
      return decodeEnvelope(op, status, envelope);
    }
    const retryAfterMs = parseRetryAfter(resHeaders['retry-after']);
    const withRetryAfter = retryAfterMs === undefined ? common : { ...common, retryAfterMs };
    if (status === 401) {
      return fail(new AuthenticationError({ ...common, ...(first?.message ? { serviceMessage: first.message } : {}) }));
    }
    if (status === 404) return fail(new EndpointNotFoundError({ ...common, url, version }));
    if (status === 429) return fail(new RateLimitError(withRetryAfter));
    if (status >= 500) return fail(new ServerError({ ...withRetryAfter, httpStatus: status }));
    if (envelope && (envelope.code !== 0 || first)) return decodeEnvelope(op, status, envelope);
    // A redirect (e.g. http:// to https://) is fixed in the base URL, so name where the service points.
    const location = resHeaders.location;
    const redirect = status >= 300 && status < 400 && typeof location === 'string';
    return fail(
      new UnexpectedStatusError({
        ...common,
        httpStatus: status,
        ...(redirect ? { hint: `the service redirects to ${location.replace(/[\u0000-\u001f\u007f]/g, '')}: correct the base URL` } : {}),
      }),
    );
  }

  function decodeEnvelope(op: Operation, status: number, envelope: Envelope): Envelope {
    const first = firstError(envelope);
    if (envelope.code === 0 && !first) {
      // Of the shape the operation returns, or not an answer trk can act on (it may have been processed).
      const problem = answerProblem(op, envelope);
      if (problem === undefined) return envelope;
      return fail(new InvalidResponseError({ operation: op, httpStatus: status, detail: `${problem} (${op}, HTTP ${status})` }));
    }
    const serviceCode = first?.code ?? envelope.code;
    const serviceMessage = first?.message;
    const common = { operation: op, httpStatus: status, serviceCode, ...(serviceMessage ? { serviceMessage } : {}) };
    if (isAuthCode(serviceCode)) return fail(new AuthenticationError({ ...common, delivery: 'processed' }));
    return fail(new EnvelopeError(common));
  }

  return {
    version,
    async call<A = Record<string, unknown>>(op: Operation, body: unknown, callOpts: CallOptions = {}): Promise<Envelope<A>> {
      unsupported(version, op);
      const url = `${base}/track/${version}/${operationPath(version, op) as string}`;
      const payload = JSON.stringify(body);
      const items = Array.isArray(body) ? body.length : body !== null && typeof body === 'object' ? 1 : 0;
      const signal = callOpts.signal;
      const maxAttempts = callOpts.retry === false ? 1 : Math.max(1, policy.maxAttempts);
      // One attempt may take the per-attempt timeout; a call with retries has the deadline for all of it. The
      // deadline runs from the first admission: the wait for a first turn is the pacer's (a hold is at most
      // MAX_HOLD_MS and announced), and a bulk run queues its requests there on purpose.
      const budgetMs = maxAttempts === 1 ? timeoutMs : Math.max(timeoutMs, deadlineMs);
      let startedAt = 0;
      const left = () => budgetMs - (monotonicMs() - startedAt);
      let deadline: AbortSignal | undefined;
      let waitSignal = signal;
      const readOnly = operationClass(op) === 'read';
      // Once an attempt may have been processed, every later failure is ambiguous too.
      let ambiguous = false;
      let last: ServiceError | undefined;

      /** The deadline has passed: the last failure, saying why it was the last, or a timeout. */
      const outOfTime = (cause?: unknown): ServiceError => {
        if (!last) return new TimeoutError({ operation: op, timeoutMs, totalMs: budgetMs, cause });
        last.gaveUp = `gave up after ${formatSeconds(budgetMs)}, the --timeout deadline`;
        return last;
      };
      /**
       * What to throw when a wait (for its turn, or before a retry) ended early: Ctrl-C (the caller's signal, or a
       * stop signal inside the pacer, see stoppablePacer), or the deadline. Anything else is the pacer's own
       * failure (its budget file cannot be used), thrown as it is rather than passed off as an interruption.
       */
      const stopped = (reason: unknown): unknown => {
        if (deadline?.aborted && !signal?.aborted) return outOfTime(reason);
        if (signal?.aborted || reason instanceof InterruptedError || (reason instanceof Error && reason.name === 'AbortError')) {
          return new RequestAbortedError({ operation: op, delivery: ambiguous ? 'unknown' : 'not-sent', cause: reason });
        }
        return reason;
      };

      for (let attempt = 1; ; attempt++) {
        let admission: Admission | void;
        try {
          admission = await pacer.acquire(waitSignal, { readOnly });
        } catch (reason) {
          throw stopped(reason);
        }
        if (!deadline) {
          startedAt = monotonicMs();
          deadline = AbortSignal.timeout(budgetMs);
          waitSignal = signal ? AbortSignal.any([signal, deadline]) : deadline;
        }
        const remaining = left();
        if (remaining <= 0) throw outOfTime();
        // The attempt is cut short by the deadline rather than by its own timeout: say so when it times out.
        const cut = maxAttempts > 1 && remaining < timeoutMs ? budgetMs : undefined;
        const started = monotonicMs();
        try {
          const sent = admission ? () => admission.sent() : undefined;
          const { status, envelope } = await attemptOnce(op, url, payload, signal, Math.min(timeoutMs, remaining), cut, sent);
          const ms = Math.round(monotonicMs() - started);
          if (ambiguous) markResent(envelope);
          opts.onRequest?.({
            operation: op,
            status,
            ms,
            items,
            attempt,
            ...(ambiguous ? { note: 're-sent after an ambiguous failure' } : {}),
          });
          return envelope as Envelope<A>;
        } catch (err) {
          const ms = Math.round(monotonicMs() - started);
          if (!(err instanceof ServiceError)) throw err;
          // An earlier attempt may have been processed, whatever this one got back.
          if (ambiguous) err.delivery = 'unknown';
          err.attempts = attempt;
          last = err;
          opts.onRequest?.({ operation: op, status: err.httpStatus ?? 'error', ms, items, attempt, note: noteOf(err) });
          if (err.delivery === 'unknown') ambiguous = true;
          const limited = err instanceof RateLimitError;
          // A 429 means the shared budget is spent: hold every start of this process, retried or not. That hold
          // is the wait before the next attempt, and the pacer announces it.
          const backoff = retryDelay(attempt, err, policy);
          const wait = limited ? Math.min(MAX_HOLD_MS, err.retryAfterMs ?? Math.max(backoff, 1000)) : backoff;
          if (limited) pacer.backoff(wait, 'rate-limited');
          if (attempt >= maxAttempts || !shouldRetry(op, err)) throw err;
          if (wait >= left()) {
            err.gaveUp = `the next attempt would come after the ${formatSeconds(budgetMs)} the --timeout deadline allows`;
            throw err;
          }
          if (limited) continue;
          opts.onWait?.(waitReason(err), wait);
          try {
            await delay(wait, undefined, waitSignal ? { signal: waitSignal } : {});
          } catch (reason) {
            throw stopped(reason);
          }
        }
      }
    },
    async close(): Promise<void> {
      await transport.close();
    },
  };
}

function fail(err: ServiceError): never {
  throw err;
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as { code?: unknown; data?: unknown };
  return typeof v.code === 'number' && (v.data === undefined || v.data === null || typeof v.data === 'object');
}

function firstError(envelope: Envelope): { code: number | undefined; message: string | undefined } | undefined {
  const errors = envelope.data?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const e = errors[0] as { code?: unknown; message?: unknown } | null;
  return {
    code: typeof e?.code === 'number' ? e.code : undefined,
    message: typeof e?.message === 'string' ? e.message : undefined,
  };
}

function describeType(headers: Record<string, string | string[] | undefined>): string {
  const type = headers['content-type'];
  return typeof type === 'string' && type !== '' ? `, ${type.split(';')[0]?.trim()}` : '';
}

/** A ServiceError for a failure of the transport; anything else (a bug, a bad argument) is rethrown as is. */
function networkError(op: Operation, host: string, err: unknown): ServiceError {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const causeCode = typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : '';
  // A proxy that refuses the tunnel or wants authentication: the request never left for the service.
  if (/^Proxy /.test(message)) {
    return new NetworkError({ operation: op, host, reason: message, delivery: 'not-sent', cause: err });
  }
  if (code === undefined || code === 'UND_ERR_INVALID_ARG') throw err;
  const reason = [code, causeCode].find((c) => c !== undefined && (CONNECT_PHASE.has(c) || TLS_CODE.test(c))) ?? code;
  const tls = reason !== undefined && TLS_CODE.test(reason);
  const delivery = reason !== undefined && (CONNECT_PHASE.has(reason) || tls) ? 'not-sent' : 'unknown';
  return new NetworkError({ operation: op, host, ...(reason === undefined ? {} : { reason }), delivery, tls, cause: err });
}

function noteOf(err: ServiceError): string {
  const detail = err instanceof NetworkError ? err.reason : err.serviceCode;
  return `${err.name}${detail === undefined ? '' : ` ${detail}`} (${err.delivery})`;
}

function safeHost(base: string): string {
  try {
    return new URL(base).host;
  } catch {
    return base;
  }
}

function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
