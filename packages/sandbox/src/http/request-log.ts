// What a script did to the emulator, request by request: one entry per request answered (or whose answer was
// dropped), kept in a bounded ring for GET /__sandbox/requests and handed to `onRequest` (`trk sandbox start
// --log` prints it as one line). Control endpoints are not logged: they are the observer, not the script.
// RequestRecorder opens an entry when a request arrives, lets the pipeline's steps fill it in, and logs it when
// the response closes (answered or dropped).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/** Requests kept for GET /__sandbox/requests; older ones fall off. */
export const REQUEST_LOG_SIZE = 500;

export interface SandboxRequestLog {
  /** Sequence number since the emulator started (or was reset): gaps show entries that fell off the ring. */
  seq: number;
  /** Simulated time of arrival, ISO UTC. */
  time: string;
  method: string;
  /** Path as requested, without the query string. */
  path: string;
  /** Version segment as served (`v2.2`), null when the path names no operation. */
  version: string | null;
  operation: string | null;
  /** Items in the body: an array's length, 1 for an object, 0 without a body (or one that is not JSON). */
  items: number;
  /** HTTP status, or 'dropped' when no answer was sent. */
  status: number | 'dropped';
  /** The envelope's `code` (0: the items were processed); null when the answer carries none. */
  code: number | null;
  /** Item counts of a processed request; null otherwise. */
  accepted: number | null;
  rejected: number | null;
  /** Error codes of the rejected items, with how many items got each. */
  rejectedCodes: Record<string, number>;
  /** Faults injected into this request: `burst 429`, `failure 503`, `drop`, `latency 120 ms`. */
  faults: string[];
  /** Real milliseconds from arrival to the end of the answer. */
  ms: number;
}

/** A bounded ring of the latest entries, oldest first. */
export class RequestLog {
  readonly #size: number;
  #entries: SandboxRequestLog[] = [];
  #seq = 0;

  constructor(size = REQUEST_LOG_SIZE) {
    this.#size = size;
  }

  nextSeq(): number {
    this.#seq += 1;
    return this.#seq;
  }

  add(entry: SandboxRequestLog): void {
    this.#entries.push(entry);
    if (this.#entries.length > this.#size) this.#entries.splice(0, this.#entries.length - this.#size);
  }

  /** The kept entries, oldest first (copies). */
  entries(): SandboxRequestLog[] {
    return this.#entries.map((e) => ({ ...e, rejectedCodes: { ...e.rejectedCodes }, faults: [...e.faults] }));
  }

  clear(): void {
    this.#entries = [];
    this.#seq = 0;
  }
}

/** The entries of the requests being answered, and the log they go to once their response closes. */
export class RequestRecorder {
  readonly #log = new RequestLog();
  readonly #open = new WeakMap<ServerResponse, SandboxRequestLog>();
  readonly #now: () => number;
  readonly #onRequest: ((entry: SandboxRequestLog) => void) | undefined;

  /** `now`: simulated time, for the entry's `time`; `onRequest`: each entry once logged (`--log`). */
  constructor(now: () => number, onRequest?: (entry: SandboxRequestLog) => void) {
    this.#now = now;
    this.#onRequest = onRequest;
  }

  /** Open the entry of a request; `path` as requested, without the query string. */
  begin(req: IncomingMessage, res: ServerResponse, path: string): void {
    const started = performance.now();
    const entry: SandboxRequestLog = {
      seq: this.#log.nextSeq(),
      time: new Date(this.#now()).toISOString(),
      method: req.method ?? '',
      path,
      version: null,
      operation: null,
      items: 0,
      status: 'dropped',
      code: null,
      accepted: null,
      rejected: null,
      rejectedCodes: {},
      faults: [],
      ms: 0,
    };
    this.#open.set(res, entry);
    res.once('close', () => {
      entry.status = res.writableFinished ? res.statusCode : 'dropped';
      entry.ms = Math.round(performance.now() - started);
      this.#log.add(entry);
      this.#onRequest?.(entry);
    });
  }

  /** The open entry of a response (undefined for what is not logged). */
  entryOf(res: ServerResponse): SandboxRequestLog | undefined {
    return this.#open.get(res);
  }

  /** An injected fault fired on this request. */
  fault(res: ServerResponse, fault: string): void {
    this.#open.get(res)?.faults.push(fault);
  }

  /** The outcome of the answer (envelope code, items accepted and rejected). */
  outcome(res: ServerResponse, envelope: unknown): void {
    const entry = this.#open.get(res);
    if (entry) readOutcome(entry, envelope);
  }

  entries(): SandboxRequestLog[] {
    return this.#log.entries();
  }

  clear(): void {
    this.#log.clear();
  }
}

/** How many items a request body holds. */
export function itemCount(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  return typeof body === 'object' && body !== null ? 1 : 0;
}

/** Fill code, accepted, rejected and rejectedCodes from an answer's envelope. */
export function readOutcome(entry: SandboxRequestLog, envelope: unknown): void {
  if (typeof envelope !== 'object' || envelope === null) return;
  const e = envelope as { code?: unknown; data?: { accepted?: unknown; rejected?: unknown; errors?: unknown } };
  if (typeof e.code === 'number') entry.code = e.code;
  const data = e.data;
  if (typeof data !== 'object' || data === null) return;
  if (Array.isArray(data.accepted)) entry.accepted = data.accepted.length;
  if (Array.isArray(data.rejected)) {
    entry.rejected = data.rejected.length;
    for (const r of data.rejected as { error?: { code?: unknown } }[]) {
      const code = r?.error?.code;
      if (typeof code === 'number') entry.rejectedCodes[code] = (entry.rejectedCodes[code] ?? 0) + 1;
    }
  }
  if (Array.isArray(data.errors)) {
    // A request refused as a whole: the service code of its first error is the one that says why.
    const first = (data.errors as { code?: unknown }[])[0]?.code;
    if (typeof first === 'number' && e.code !== first) entry.code = first;
  }
}

/**
 * One line for `trk sandbox start --log`:
 * `2026-06-01T08:00:05Z v2 register 3 items → 200 ok: 2 accepted, 1 rejected (-18019901) 4 ms`.
 */
export function formatRequestLine(e: SandboxRequestLog): string {
  const what =
    e.operation === null
      ? `${e.method} ${e.path}`
      : `${e.version} ${e.operation} ${e.items} item${e.items === 1 ? '' : 's'}`;
  let outcome: string;
  if (e.status === 'dropped') outcome = 'answer dropped';
  else if (e.status === 200 && e.code === 0 && e.accepted !== null) {
    const codes = Object.entries(e.rejectedCodes)
      .map(([code, n]) => (n > 1 ? `${code} ×${n}` : code))
      .join(', ');
    outcome = `200 ok: ${e.accepted} accepted, ${e.rejected ?? 0} rejected${codes ? ` (${codes})` : ''}`;
  } else if (e.code !== null && e.code !== 0 && e.code !== e.status) outcome = `${e.status} ${e.code}`;
  else outcome = String(e.status === 200 ? '200 ok' : e.status);
  const faults = e.faults.length > 0 ? ` [injected: ${e.faults.join(', ')}]` : '';
  return `${e.time.replace(/\.\d{3}Z$/, 'Z')} ${what} → ${outcome}${faults} ${e.ms} ms`;
}
