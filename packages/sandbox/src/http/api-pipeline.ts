// The API pipeline: what happens to a request for /track/..., step by step, until the account answers it.
//   1. POST /track/{v1|v2|v2.1|v2.2|v2.3|v2.4}/<operation> (routes.ts: lenient by default, exact casing with
//      strictPaths), else 404
//   2. body read (at most 1 MiB, else 413)
//   3. `svctoken` missing or wrong → 401 -18010002; caller outside the whitelist → 401 -18010001;
//      account disabled → 401 -18010004
//   4. injected 429 burst, then the rate limit (admitted requests only) → 429 with Retry-After
//   5. injected failure → 500 or 503; the account never sees the request
//   6. Content-Type not application/json, or a body that is not JSON → 200 with data.errors -18010013
//      (an empty body goes on to the account as no body)
//   7. account.handle(), list pages overlapping when injected; injected loss: processed, then the socket is
//      destroyed without an answer
// Injected latency delays every answer of steps 1-7. Each step is a method (or a pure function) of its own.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Account } from '../account/account.js';
import { type Envelope, requestError } from '../account/envelope.js';
import type { AccountSettings } from '../account/types.js';
import type { FaultInjector } from './faults.js';
import { ipMatcher } from './ip-allow.js';
import type { RateLimiter } from './rate-limit.js';
import { itemCount, type RequestRecorder } from './request-log.js';
import { type Route, routeOf } from './routes.js';
import type { RequestCounters } from './stats.js';
import { httpError, isJsonContentType, readBody, sendJson } from './wire.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/** The service's code for its own failures. */
export const INTERNAL_ERROR = -18010003;

// Messages in the service's own wording (the 401 -18010002 one is the live service's).
const AUTH_MESSAGES = {
  [-18010002]: 'Access token is invalid.',
  [-18010001]: 'The IP address is not in the whitelist.',
  [-18010004]: 'The account is disabled.',
} as const;

/** An answer decided by a step. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const NOT_FOUND: Answer = { status: 404, body: httpError(404, 404, 'Not found.') };
const TOO_LARGE: Answer = {
  status: 413,
  body: httpError(413, -18010013, `Request body larger than ${MAX_BODY_BYTES} bytes.`),
};
const INTERNAL: Answer = { status: 500, body: httpError(500, INTERNAL_ERROR, 'Internal error, please retry later.') };

/** What the pipeline works with; the sandbox owns each part. */
export interface ApiParts {
  account: Account;
  injector: FaultInjector;
  limiter: RateLimiter;
  counters: RequestCounters;
  recorder: RequestRecorder;
  strictPaths: boolean;
  /** The account may have changed: reads bring due tracking runs up to date too (the state saver listens). */
  changed(): void;
  onError(err: unknown): void;
}

export class ApiPipeline {
  readonly #p: ApiParts;

  constructor(parts: ApiParts) {
    this.#p = parts;
  }

  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    // The service counts a request when it reaches its edge: once its headers are read, before its body, which
    // may come in after the answers of others were worked out.
    const arrived = this.#p.limiter.now();
    this.#p.counters.received();
    const route = req.method === 'POST' ? routeOf(path, this.#p.strictPaths) : undefined;
    this.#name(res, route);
    // Read in full even when the answer is already known, so that the connection can serve the next one.
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!route) return this.#answer(res, NOT_FOUND);
    if (body === undefined) return this.#answer(res, TOO_LARGE);
    const refusal = this.#admission(req, res, arrived);
    if (refusal) return this.#answer(res, refusal);
    // The answer is worked out once the requests that arrived with this one are counted too: the service counts
    // arrivals at its edge, whatever its backends are busy with, and working out an answer first (tens of
    // milliseconds for a page of a large account on a busy machine) would count the next arrival that much late
    // and a later one too early, a 429 the service would not give.
    await nextTurn();
    const parsed = parseApiBody(req.headers['content-type'], body);
    if (!parsed) return this.#answer(res, { status: 200, body: requestError(-18010013) });
    const entry = this.#p.recorder.entryOf(res);
    if (entry) entry.items = itemCount(parsed.value);
    const envelope = this.#dispatch(res, route, parsed.value);
    if (envelope === undefined) return this.#answer(res, INTERNAL);
    if (this.#p.injector.drop()) return this.#drop(req, res, envelope);
    return this.#answer(res, { status: 200, body: envelope });
  }

  /** Version and operation of the log entry, once the path names them. */
  #name(res: ServerResponse, route: Route | undefined): void {
    const entry = this.#p.recorder.entryOf(res);
    if (!entry || !route) return;
    entry.version = route.served;
    entry.operation = route.op;
  }

  /** Steps 3-5: authentication, then 429 (burst, rate limit), then an injected failure. */
  #admission(req: IncomingMessage, res: ServerResponse, arrived: number): Answer | undefined {
    const token = typeof req.headers.svctoken === 'string' ? req.headers.svctoken : undefined;
    const caller = req.socket.remoteAddress ?? '';
    return (
      authRefusal(this.#p.account.settings, token, caller) ??
      this.#throttled(res, arrived) ??
      this.#injectedFailure(res)
    );
  }

  #throttled(res: ServerResponse, arrived: number): Answer | undefined {
    const { injector, limiter, counters, recorder } = this.#p;
    const burst = injector.burst();
    if (burst !== undefined) {
      counters.injected('burst429');
      recorder.fault(res, 'burst 429');
      return this.#tooMany(burst, 'Too many requests.');
    }
    const rate = limiter.take(this.#p.account.settings.key, arrived);
    if (rate.ok) return undefined;
    counters.rateLimited();
    return this.#tooMany(rate.retryAfterMs, `Too many requests: at most ${limiter.perSecond} per second.`);
  }

  #tooMany(retryAfterMs: number, message: string): Answer {
    const headers: Record<string, string> = this.#p.injector.faults.retryAfter
      ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) }
      : {};
    // The service has no error code for this; the HTTP status stands in, as `code` does for 401.
    return { status: 429, body: httpError(429, 429, message), headers };
  }

  #injectedFailure(res: ServerResponse): Answer | undefined {
    const failure = this.#p.injector.failure();
    if (failure === undefined) return undefined;
    this.#p.counters.injected('failures');
    this.#p.recorder.fault(res, `failure ${failure}`);
    const message = failure === 503 ? 'Service temporarily unavailable.' : 'Internal error, please retry later.';
    return { status: failure, body: httpError(failure, INTERNAL_ERROR, message) };
  }

  /** Step 7: the account answers; undefined when it failed (a bug: reported, answered 500). */
  #dispatch(res: ServerResponse, route: Route, body: unknown): Envelope | undefined {
    const { pageOverlap } = this.#p.injector.faults;
    if (pageOverlap > 0 && route.op === 'gettracklist') this.#p.recorder.fault(res, `page overlap ${pageOverlap}`);
    let envelope: Envelope;
    try {
      envelope = this.#p.account.handle(route.served, route.op, body, { pageOverlap });
    } catch (err) {
      this.#p.onError(err);
      return undefined;
    }
    this.#p.counters.handled(route.served, route.op);
    this.#p.changed();
    return envelope;
  }

  /** The work is done and stays done; only the answer is lost, as when a connection breaks. */
  async #drop(req: IncomingMessage, res: ServerResponse, envelope: Envelope): Promise<void> {
    this.#p.counters.injected('drops');
    this.#p.recorder.fault(res, 'drop');
    this.#p.recorder.outcome(res, envelope);
    await this.#latency(res);
    req.socket.destroy();
  }

  /** An API answer: counted and logged, after the injected latency. */
  async #answer(res: ServerResponse, answer: Answer): Promise<void> {
    await this.#latency(res);
    this.#p.counters.answered(answer.status);
    this.#p.recorder.outcome(res, answer.body);
    sendJson(res, answer.status, answer.body, answer.headers);
  }

  /** The injected latency, waited and logged. */
  async #latency(res: ServerResponse): Promise<void> {
    const delay = this.#p.injector.delay();
    if (delay <= 0) return;
    this.#p.recorder.fault(res, `latency ${Math.round(delay)} ms`);
    await sleep(delay);
  }
}

/** Step 3: the 401 a request gets, or undefined when it may go on. */
export function authRefusal(settings: AccountSettings, token: string | undefined, address: string): Answer | undefined {
  let code: keyof typeof AUTH_MESSAGES | undefined;
  if (token !== settings.key) code = -18010002;
  else if (!ipAllowed(settings.ipAllowList, address)) code = -18010001;
  else if (settings.disabled) code = -18010004;
  return code === undefined ? undefined : { status: 401, body: httpError(401, code, AUTH_MESSAGES[code]) };
}

/**
 * Step 6: the body as the account gets it, or undefined when the request is malformed. Spec: "Content-Type must
 * be application/json"; refused like any malformed request (answered, not processed), so that a client that
 * forgets the header finds out against the sandbox. No body at all goes on as such: whether an operation needs one
 * is the account's call (getquota takes none).
 */
export function parseApiBody(contentType: string | undefined, body: Buffer): { value: unknown } | undefined {
  if (!isJsonContentType(contentType)) return undefined;
  const text = body.toString('utf8');
  if (text.trim() === '') return { value: undefined };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

let matcherCache: { joined: string; match: (a: string) => boolean } | undefined;

function ipAllowed(list: readonly string[], address: string): boolean {
  if (list.length === 0) return true;
  const joined = list.join(',');
  if (!matcherCache || matcherCache.joined !== joined) matcherCache = { joined, match: ipMatcher(list) };
  return matcherCache.match(address);
}
