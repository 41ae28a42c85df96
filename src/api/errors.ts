// Errors of talking to the service. One class per HTTP status or failure kind, each knowing the operation,
// the HTTP status, the service's code, what the user should do, and — for the bulk layer — whether the
// request can have been processed (`delivery`). Messages for service codes come from the one table in
// codes.ts. No message ever contains the API key: none of these classes is given it.
//
// This module is light on purpose (no undici): commands import it for `instanceof` checks.

import { EXIT, type ExitCode } from '../core/exit-codes.js';
import { TrkError } from '../core/errors.js';
import { sanitizeTerminalText } from '../io/terminal-text.js';
import { codeInfo, formatCodeMessage, LOGIN_HINT } from '@trk/service/codes.js';
import { formatBytes } from './read-bounded.js';
import { operationClass } from '@trk/service/operations/index.js';
import type { Operation } from '@trk/service/vocabulary.js';

/**
 * What is known about the request's effect on the account:
 * - `not-sent`: certainly not processed (never reached the service, or refused before processing: 401, 429, 503);
 * - `unknown`: may have been processed (connection dropped after sending, timeout, 500, unreadable answer);
 * - `processed`: the service answered with an envelope, so its outcome is known.
 */
export type Delivery = 'not-sent' | 'unknown' | 'processed';

export interface ServiceErrorOptions {
  operation: Operation;
  delivery: Delivery;
  httpStatus?: number;
  serviceCode?: number;
  retryAfterMs?: number;
  hint?: string;
  exitCode?: ExitCode;
  cause?: unknown;
}

export class ServiceError extends TrkError {
  readonly operation: Operation;
  /** Widened to 'unknown' by the client when an earlier attempt of the same call may have been processed. */
  delivery: Delivery;
  readonly httpStatus: number | undefined;
  readonly serviceCode: number | undefined;
  readonly retryAfterMs: number | undefined;
  /** How many attempts were made before giving up; set by the client. */
  attempts = 1;
  /** Why no further attempt was made although one was allowed (the --timeout deadline); set by the client. */
  gaveUp: string | undefined;

  constructor(message: string, opts: ServiceErrorOptions) {
    super(message, {
      exitCode: opts.exitCode ?? EXIT.failure,
      ...(opts.hint ? { hint: opts.hint } : {}),
      ...(opts.cause === undefined ? {} : { cause: opts.cause }),
    });
    this.operation = opts.operation;
    this.delivery = opts.delivery;
    this.httpStatus = opts.httpStatus;
    this.serviceCode = opts.serviceCode;
    this.retryAfterMs = opts.retryAfterMs;
  }

  override toLine(): string {
    const notes = [this.attempts > 1 ? `after ${this.attempts} attempts` : '', this.gaveUp ?? '']
      .filter(Boolean)
      .join('; ');
    const text = notes ? `${this.message} (${notes})` : this.message;
    return this.hint ? `${text}: ${this.hint}` : text;
  }
}

type Common = Omit<ServiceErrorOptions, 'delivery' | 'exitCode' | 'hint'>;

/** 401, or an authentication code (-18010001/2/4/5, -18019912) in the envelope. Exit 4, never retried. */
export class AuthenticationError extends ServiceError {
  constructor(opts: Common & { serviceMessage?: string; delivery?: Delivery }) {
    const code = opts.serviceCode;
    const message =
      code === undefined
        ? `authentication failed (HTTP ${opts.httpStatus ?? 401})`
        : describeCode(code, opts.serviceMessage);
    super(message, {
      ...opts,
      // 401 is refused before any processing.
      delivery: opts.delivery ?? 'not-sent',
      exitCode: EXIT.auth,
      hint: (code === undefined ? undefined : codeInfo(code)?.hint) || LOGIN_HINT,
    });
  }
}

/**
 * 429: more than 3 requests in a second reached the service. trk processes on the key take turns through the
 * shared budget (a file in the state folder, or Redis with TRK_BUDGET_URL), so 429s that outlast the retries come
 * from what the budget does not see: another program on the key, trk on another host without a shared budget, or
 * the service limiting harder for a while.
 */
export class RateLimitError extends ServiceError {
  constructor(opts: Common) {
    super('rate limit of the service exceeded (HTTP 429)', {
      ...opts,
      httpStatus: 429,
      delivery: 'not-sent',
      hint:
        "trk processes on this machine share the key's budget and wait their turn, so check for another program " +
        'or host ' +
        'using the key (share the budget between hosts with TRK_BUDGET_URL), then try again in a moment',
    });
  }
}

/**
 * 5xx. 503 means the service refused the request before processing it (overloaded or in maintenance), so it
 * counts as not sent; 500 and gateway errors (502, 504) may come after the work was done.
 */
export class ServerError extends ServiceError {
  constructor(opts: Common & { httpStatus: number }) {
    const unavailable = opts.httpStatus === 503;
    super(
      unavailable
        ? 'service temporarily unavailable (HTTP 503)'
        : `server error of the service (HTTP ${opts.httpStatus})`,
      {
        ...opts,
        delivery: unavailable ? 'not-sent' : 'unknown',
        hint: 'retry later',
      },
    );
  }
}

/** 404: the address does not exist — a wrong base URL or an API version the service does not serve. */
export class EndpointNotFoundError extends ServiceError {
  readonly url: string;

  constructor(opts: Common & { url: string; version: string }) {
    super(`no such endpoint: POST ${opts.url} (HTTP 404)`, {
      ...opts,
      httpStatus: 404,
      delivery: 'not-sent',
      hint: `check the base URL ("trk config get base-url") and the API version (${opts.version}; --api-version)`,
    });
    this.url = opts.url;
  }
}

/** The envelope carries a code other than 0, or data.errors: the request as a whole was refused. */
export class EnvelopeError extends ServiceError {
  /** The service's own text, for --verbose; may be absent. */
  readonly serviceMessage: string | undefined;

  constructor(opts: Common & { serviceCode: number; serviceMessage?: string }) {
    super(describeCode(opts.serviceCode, opts.serviceMessage), {
      ...opts,
      delivery: 'processed',
      hint: codeInfo(opts.serviceCode)?.hint ?? '',
    });
    this.serviceMessage = opts.serviceMessage;
  }
}

/** Error codes of a refused TLS handshake (Node's and OpenSSL's): the certificate, not the network, is at fault. */
export const TLS_CODE = /^(ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_SSL_)/;

/** The service could not be reached, or the connection broke. */
export class NetworkError extends ServiceError {
  /** The system or undici error code, e.g. ECONNREFUSED, UND_ERR_SOCKET. */
  readonly reason: string | undefined;

  constructor(opts: Common & { host: string; reason?: string; delivery: 'not-sent' | 'unknown'; tls?: boolean }) {
    const what =
      opts.delivery === 'not-sent' ? `cannot reach ${opts.host}` : `connection to ${opts.host} broke before the answer`;
    super(opts.reason ? `${what} (${opts.reason})` : what, {
      ...opts,
      hint: opts.tls
        ? "the server's certificate was refused: check the base URL (NODE_EXTRA_CA_CERTS for a private CA)"
        : 'check the network, the base URL and HTTPS_PROXY / NO_PROXY',
    });
    this.reason = opts.reason;
  }
}

/** What to do about a hung or slow service; names the flag and the variable that set the limit. */
export const TIMEOUT_HINT = 'retry later, or allow more time with --timeout (or TRK_TIMEOUT)';

/**
 * No complete answer in time: within the per-request limit (`timeoutMs`), or before the deadline of the whole
 * call, retries and waits included (`totalMs`). The request may have been processed.
 */
export class TimeoutError extends ServiceError {
  constructor(opts: Common & { timeoutMs: number; totalMs?: number }) {
    super(
      opts.totalMs === undefined
        ? `no answer from the service within ${formatSeconds(opts.timeoutMs)}`
        : `no answer from the service in ${formatSeconds(opts.totalMs)}, retries included`,
      { ...opts, delivery: 'unknown', hint: TIMEOUT_HINT },
    );
  }
}

/**
 * What to do after an answer trk could not use. A read can simply be repeated; a write may have been done, so it
 * is checked before it is sent again.
 */
function unreadableHint(op: Operation): string {
  return operationClass(op) === 'read'
    ? 'check the base URL; if it is right, retry later'
    : 'the request may have been processed: check with "trk info" or "trk list" before sending it again';
}

/**
 * The answer is not what the operation returns: not JSON (a proxy's error page, a truncated body, the wrong
 * server), or JSON of the wrong shape (see @trk/service/operations/shapes.ts). The request may have been processed.
 */
export class InvalidResponseError extends ServiceError {
  constructor(opts: Common & { detail: string }) {
    super(`the service sent an answer trk cannot read: ${opts.detail}`, {
      ...opts,
      delivery: 'unknown',
      hint: unreadableHint(opts.operation),
    });
  }
}

/**
 * The answer was larger than any answer of the operation can be (an endless or runaway body): reading stopped
 * at `limitBytes`. The request may have been processed.
 */
export class AnswerTooLargeError extends ServiceError {
  constructor(opts: Common & { limitBytes: number }) {
    super(`the service's answer is larger than ${formatBytes(opts.limitBytes)}; trk stopped reading it`, {
      ...opts,
      delivery: 'unknown',
      hint: unreadableHint(opts.operation),
    });
  }
}

/** A status the specification does not list (400, 403, 405, ...): refused, nothing processed. */
export class UnexpectedStatusError extends ServiceError {
  constructor(opts: Common & { httpStatus: number; hint?: string }) {
    super(`unexpected answer from the service (HTTP ${opts.httpStatus})`, {
      ...opts,
      delivery: 'not-sent',
      hint: opts.hint ?? 'check the base URL and the API version',
    });
  }
}

/** The caller aborted (Ctrl-C) while the request waited or was in flight. */
export class RequestAbortedError extends ServiceError {
  constructor(opts: Common & { delivery: 'not-sent' | 'unknown' }) {
    super('interrupted', { ...opts, exitCode: EXIT.interrupted });
  }
}

/**
 * `<table message> (<code>)`. When the table's message has placeholders the service filled in, its own
 * text says more than the bare template, so it is added; unknown codes show what the service said.
 */
export function describeCode(code: number, serviceMessage?: string): string {
  const info = codeInfo(code);
  const said = serviceMessage ? sanitizeTerminalText(serviceMessage, { singleLine: true }).trim().slice(0, 200) : '';
  if (!info) return `${said || 'service error'} (${code})`;
  if (/\{\d\}/.test(info.message)) {
    const bare = formatCodeMessage(code)
      .replace(/\s{2,}/g, ' ')
      .trim();
    return said ? `${bare} (${code}: ${said})` : `${bare} (${code})`;
  }
  return `${info.message} (${code})`;
}

/** True for codes that mean the key or account is refused. */
export function isAuthCode(code: number | undefined): boolean {
  return code !== undefined && codeInfo(code)?.auth === true;
}

/** `30 s`, `1.5 s`, `250 ms`. */
export function formatSeconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
