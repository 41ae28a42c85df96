// What the listener is given and what it hands back: its options, one received notification, its counts.

import type { IncomingHttpHeaders } from 'node:http';
import type { IO } from '../../io/io.js';
import type { EventSummary } from '../summary.js';
import type { SignatureVersion } from '../verify.js';
import type { ForwardResult } from '../forward.js';
import type { Sink } from './sinks/sink.js';

export type { ForwardResult };

export interface ListenerOptions extends Partial<Limits> {
  io: IO;
  /** The account's API key; required unless `verify` is false. Never printed. */
  key: string | undefined;
  /** Default 0: any free port (see `url`). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The one path that takes notifications; default /hook. */
  path?: string;
  /** Forward each accepted notification (body and end-to-end headers unchanged) to this URL. */
  forwardTo?: string;
  /**
   * Where forwards wait on disk until the app has taken them: a folder of the listener's own is made in it when
   * the first notification comes, and removed at the stop when empty. Default `trk-webhook-queue` in the system's
   * temporary folder; `trk webhook listen` gives the state folder's `webhook-queue`.
   */
  queueRoot?: string;
  /** The forward queue's bounds and pace of retries (defaults and why in limits.ts). */
  queue?: Partial<QueueLimits>;
  /**
   * Write each accepted notification into this directory: its body byte for byte (`.json`) and its request line
   * and headers as received (`.headers`), so that `trk webhook verify` can check it later (src/webhook/saved.ts).
   */
  saveDir?: string;
  /** One compact JSON line per event instead of a human line. */
  json?: boolean;
  /**
   * Each accepted body on stdout, whole, as one line of JSON (NDJSON, for jq); the per-event lines then go to
   * stderr.
   */
  print?: boolean;
  /**
   * false: accept (200) notifications whatever their signature, still reporting in `verified` whether it held.
   * Default true: a bad or missing signature gets 401.
   */
  verify?: boolean;
  /** Carrier code → name for the human line (a cached lookup; never a network call). */
  carrierName?: (code: number) => string | undefined;
  /** Milliseconds since the epoch; default Date.now. */
  now?: () => number;
  /** Override the answer to a notification, e.g. 500 to the first delivery to make the sender retry. */
  respond?: (ev: ReceivedEvent) => number | undefined;
  /** Called once an event is handled completely (printed, saved, forwarded). */
  onEvent?: (ev: ReceivedEvent) => void;
  /**
   * Sinks written before the built-in ones (save, forward, print), e.g. a database: each write is awaited before
   * the answer, and one that fails makes the answer 503 (src/webhook/listener/sinks/sink.ts).
   */
  sinks?: readonly Sink[];
}

/**
 * How much the listener takes on at once and how long it waits: anything that can reach its port may send it
 * anything, so every one is bounded. The defaults, and why, are in limits.ts.
 */
export interface Limits {
  /** Largest body accepted (a full TRACKING_UPDATED with every event stays below 200 KB). */
  maxBodyBytes: number;
  /** Large bodies (or bodies of unknown size) read at once. */
  maxConcurrentBodies: number;
  /** Bodies announced at up to this size are read in a lane of their own, so that large ones cannot crowd them out. */
  smallBodyBytes: number;
  /** Small bodies read at once. */
  maxConcurrentSmallBodies: number;
  /** Requests waiting (unread) for a turn in each lane; past that they get 503. */
  maxWaiting: number;
  /** Bytes a second a body must average once `bodyGraceMs` has passed. */
  minBodyBytesPerSecond: number;
  bodyGraceMs: number;
  /** For the whole request, headers and body. */
  requestTimeoutMs: number;
  /** A connection's time to send a request's line and headers (from its opening, or from its previous answer). */
  headersTimeoutMs: number;
  /** Connections held at once; at the limit the one idle longest is closed to make room for a new one. */
  maxConnections: number;
  /** Connections held at once from one address. */
  maxConnectionsPerAddress: number;
  /** One forward to the app. */
  forwardTimeoutMs: number;
  /** Longest wait for the disk (--save, the forward queue) before the answer goes out all the same. */
  writeDeadlineMs: number;
}

/** The forward queue's bounds and its pace of retries. */
export interface QueueLimits {
  /** Notifications waiting on disk to be forwarded, at most. */
  maxCount: number;
  /** Their bytes (bodies and headers), at most. */
  maxBytes: number;
  /** The first retry's delay; each failed attempt doubles it, up to `maxDelayMs`. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Attempts of one notification before it is left in the queue for `trk webhook replay`. */
  maxAttempts: number;
}

export interface ReceivedEvent {
  receivedAt: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The request as received: what `--save` writes and the forward sends on. */
  request: { method: string; url: string; httpVersion: string; rawHeaders: readonly string[] };
  /** The body exactly as received. */
  raw: Buffer;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: unknown;
  /** The signature rule applied: header `sign` → v2 (v2 and v2.1), `sign` in the body → v1. */
  version: SignatureVersion | undefined;
  verified: boolean;
  /**
   * Whether it was taken in (printed, saved, forwarded): verified, or verification switched off, and of the
   * documented shape (@trk/service/webhook-body.ts).
   */
  accepted: boolean;
  /** Why it was refused or what was odd about it. */
  problem?: string;
  /** The HTTP status answered. */
  status: number;
  summary: EventSummary;
  savedTo?: string;

  forward?: ForwardResult;
}

/** What the listener has handled so far: numbers only, so that a flood costs no memory. */
export interface ListenerCounts {
  /** Notifications to the path, handled completely (accepted and refused). */
  handled: number;
  /** Taken in: verified (or verification switched off), and of the documented shape. */
  accepted: number;
  /** Refused: bad or missing signature, not of the documented shape, too large, too slow, too many at once, cut off. */
  refused: number;
}

export interface Listener {
  /** Where to send notifications, e.g. http://127.0.0.1:4242/hook */
  readonly url: string;
  readonly port: number;
  readonly counts: Readonly<ListenerCounts>;
  /** Resolves with the counts once `count` notifications have been handled; rejects after `timeoutMs` (10 s). */
  waitFor(count: number, timeoutMs?: number): Promise<ListenerCounts>;
  /** Stop listening, abort forwards in flight (they stay queued), wait for saves, close connections. Idempotent. */
  close(): Promise<void>;
  /** The run summed up: notifications, refusals and forwards, then what needs doing (forwards that failed). */
  summary(): { head: string; notes: string[] };
}
