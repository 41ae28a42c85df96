// The HTTP client of the service. One POST per attempt to `${baseUrl}/track/<version>/<path>`,
// started when its pacer admits it (the process-wide one unless another is given), retried by the policy in
// retry.ts; the attempts of one call are call.ts's. A caller gets either an envelope with code 0 of the shape
// its operation returns (its module's `answer` in @trk/service/operations/; rejected items are data) or a typed
// ServiceError (answers.ts).
// The API key goes into the `svctoken` header and nowhere else: not into logs, messages or errors.
//
// Every answer is bounded: in time (`timeoutMs` per attempt, `deadlineMs` for a call with its retries and
// waits) and in size (`maxAnswerBytes`; nothing the service returns comes near it, so more is a runaway or
// endless body, and reading it whole would take the memory of the machine). The POSTs go through transport.ts:
// node:http for requests one at a time, undici once they overlap or behind a proxy.

import { CredentialsError, noApiKeyError } from '../core/errors.js';
import { processPacer, type Pacer, type WaitReason } from '../pacing/pacer.js';
import { addSecret } from '../io/secrets.js';
import { unsupported } from './request-body.js';
import { Call, type CallSettings } from './call.js';
import { operationPath } from '@trk/service/operations/index.js';
import { callDeadlineMs, DEFAULT_RETRY } from './retry.js';
import { LIMITS, type ApiVersion, type Operation } from '@trk/service/vocabulary.js';
import { createTransport, type Transport } from './transport.js';
import type { Envelope } from '@trk/service/types.js';
import { packageVersion } from '../core/version.js';

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
  /** The service's clock: the Date header of each answer (ms since the epoch), when it has a valid one. */
  onServiceTime?: (ms: number) => void;
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

/** The client of the service at `opts.baseUrl`, with `opts.apiKey`; throws when the key cannot be sent. */
export function createApiClient(opts: ApiClientOptions): ApiClient {
  return new ServiceClient(opts);
}

class ServiceClient implements ApiClient {
  readonly version: ApiVersion;
  readonly #base: string;
  readonly #settings: CallSettings;

  constructor(opts: ApiClientOptions) {
    checkApiKey(opts.apiKey);
    // Whatever the service sends back, the key it was sent is never printed (src/io/secrets.ts).
    addSecret(opts.apiKey);
    this.version = opts.version;
    this.#base = opts.baseUrl.replace(/\/+$/, '');
    const timeoutMs = opts.timeoutMs ?? LIMITS.requestTimeoutMs;
    this.#settings = {
      version: opts.version,
      host: safeHost(this.#base),
      headers: {
        'content-type': 'application/json',
        svctoken: opts.apiKey,
        'user-agent': opts.userAgent ?? defaultUserAgent(),
      },
      transport: opts.transport ?? createTransport(this.#base, opts.env ?? process.env),
      pacer: opts.pacer ?? processPacer(),
      policy: { ...DEFAULT_RETRY, ...definedOnly(opts.retry ?? {}) },
      timeoutMs,
      deadlineMs: opts.deadlineMs ?? callDeadlineMs(timeoutMs),
      maxAnswerBytes: opts.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
      onRequest: opts.onRequest,
      onServiceTime: opts.onServiceTime,
      onWait: opts.onWait,
    };
  }

  async call<A = Record<string, unknown>>(op: Operation, body: unknown, opts: CallOptions = {}): Promise<Envelope<A>> {
    unsupported(this.version, op);
    const url = `${this.#base}/track/${this.version}/${operationPath(this.version, op) as string}`;
    const call = new Call(this.#settings, { op, url, body, signal: opts.signal, retry: opts.retry !== false });
    return (await call.run()) as Envelope<A>;
  }

  async close(): Promise<void> {
    await this.#settings.transport.close();
  }
}

/** A header cannot carry line breaks or non-ASCII; say so without echoing the key. */
function checkApiKey(apiKey: string): void {
  if (!apiKey) throw noApiKeyError();
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new CredentialsError(
      'the API key contains characters that cannot be sent (spaces, line breaks or non-ASCII)',
      'check TRK_API_KEY, TRK_API_KEY_FILE or the profile ("trk auth login")',
    );
  }
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
