// CONTRACT STUB — implemented by the API-core work. Signatures here are the agreement other modules rely on.

import type { Envelope } from './types.js';
import type { ApiVersion, Operation } from './spec.js';
import type { Pacer } from './pacer.js';

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
  /** Per request; default 30 000 ms. */
  timeoutMs?: number;
  /** Default: the process-wide pacer (3 starts in any second, with a margin). */
  pacer?: Pacer;
  /** Retry tuning; tests shrink the delays. */
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  onRequest?: (log: RequestLog) => void;
  /** Called before sleeping for a retry, e.g. to show "rate limited, resuming in Ns". */
  onWait?: (reason: 'rate-limited' | 'unavailable' | 'network', delayMs: number) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** false: one attempt only (the bulk runner decides itself). Default true. */
  retry?: boolean;
}

export interface ApiClient {
  readonly version: ApiVersion;
  /**
   * POST `${baseUrl}/track/${version}/${path}` with the wire body as given. Resolves with the decoded envelope
   * when it is code 0 without data.errors (rejected items are data); throws a ServiceError otherwise.
   */
  call<A = Record<string, unknown>>(op: Operation, body: unknown, opts?: CallOptions): Promise<Envelope<A>>;
  close(): Promise<void>;
}

export function createApiClient(_opts: ApiClientOptions): ApiClient {
  throw new Error('not implemented');
}
