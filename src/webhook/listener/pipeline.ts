// One request, from its arrival to its answer and after: the path and method, a turn to read the body, the body,
// the signature, the sinks' writes, the answer, then the sinks' work that the sender need not wait for.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IO } from '../../io/io.js';
import { notificationProblem } from '@trk/service/webhook-body.js';
import { parseJsonBody } from '../raw-json.js';
import { summarizeEvent } from '../summary.js';
import type { Admission } from './admission.js';
import { type BodyOutcome, readBody } from './body.js';
import { clean, isoSeconds } from './lines.js';
import type { RefusalLog } from './refusals.js';
import type { Sink } from './sinks/sink.js';
import type { Limits, ReceivedEvent } from './types.js';
import { verifyNotification } from './verification.js';

/** What a refused notification is answered, by status. */
const REFUSAL_TEXT: Readonly<Record<number, string>> = { 401: 'bad signature\n', 400: 'not a notification\n' };

/** Refused bodies up to this size are parsed to name their event and number in the log line. */
const SHOWN_REFUSED_BYTES = 64 * 1024;

export interface PipelineParts {
  io: IO;
  key: string | undefined;
  /** false: every notification is taken in, verified or not. */
  verify: boolean;
  hookPath: string;
  limits: Limits;
  now: () => number;
  respond: ((ev: ReceivedEvent) => number | undefined) | undefined;
  admission: Admission;
  refusals: RefusalLog;
  /** In the order they are written. */
  sinks: readonly Sink[];
  /** Counts a handled notification (`ev` when it got as far as a body). */
  record: (ev: ReceivedEvent | undefined) => void;
}

export function normalisePath(p: string): string {
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') : withSlash;
}

/** `TRACKING_UPDATED RR123456789CN`, as far as the body says. */
function named(ev: ReceivedEvent): string {
  return [ev.summary.event, ev.summary.number]
    .filter(Boolean)
    .map((s) => clean(s!))
    .join(' ');
}

export class Pipeline {
  constructor(private readonly p: PipelineParts) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.routed(req, res)) return;
    const receivedAt = this.p.now();
    const raw = await this.admitAndRead(req, res, receivedAt);
    if (raw === undefined) return;
    const ev = this.received(req, raw, receivedAt);
    if (!ev.accepted) return this.refuse(ev, req, res);
    await this.takeIn(ev, res);
  }

  /** Only POST to the hook's path is a notification; anything else is answered here and not counted. */
  private routed(req: IncomingMessage, res: ServerResponse): boolean {
    // Split by hand: new URL() would read a target like `//x/hook` as a host name.
    const pathname = (req.url ?? '/').split('?')[0]!;
    if (normalisePath(pathname) !== this.p.hookPath) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return false;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'POST' }).end('method not allowed\n');
      return false;
    }
    return true;
  }

  /** The body, once admitted and read whole; undefined when the request was refused or cut off (and counted). */
  private async admitAndRead(
    req: IncomingMessage,
    res: ServerResponse,
    receivedAt: number,
  ): Promise<Buffer | undefined> {
    const { admission, limits } = this.p;
    const announced = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    if (announced !== undefined && announced > limits.maxBodyBytes) return this.refuseEarly(req, res, 413, receivedAt);
    const lane = await admission.take(req, announced);
    if (lane === 'busy') return this.refuseEarly(req, res, 503, receivedAt);
    if (lane === 'gone') return this.countRefused();
    const started = performance.now();
    let raw: BodyOutcome;
    try {
      const pace = { minBytesPerSecond: limits.minBodyBytesPerSecond, graceMs: limits.bodyGraceMs };
      raw = await readBody(req, { maxBytes: limits.maxBodyBytes, ...pace });
    } finally {
      lane.release();
    }
    if (raw === 'too-large') return this.refuseEarly(req, res, 413, receivedAt);
    if (raw === 'too-slow') return this.refuseEarly(req, res, 408, receivedAt, performance.now() - started);
    if (raw === 'cut-off') {
      this.p.refusals.log(
        `${isoSeconds(receivedAt)} a notification from ${req.socket.remoteAddress} was cut off before its body ended`,
      );
      return this.countRefused();
    }
    return raw;
  }

  /** Count a request that ended without a body taken in (refused, or gone). */
  private countRefused(): undefined {
    this.p.record(undefined);
    return undefined;
  }

  /** Answer a request refused before its body was taken in (`readMs` spent reading it), and count it. */
  private refuseEarly(
    req: IncomingMessage,
    res: ServerResponse,
    status: 408 | 413 | 503,
    receivedAt: number,
    readMs = 0,
  ): undefined {
    const from = req.socket.remoteAddress;
    const { limits } = this.p;
    const red = this.p.io.colorErr.red;
    const at = isoSeconds(receivedAt);
    if (status === 413) {
      this.p.refusals.log(`${at} ${red('413')} refused a body over ${limits.maxBodyBytes} bytes from ${from}`);
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('body too large\n');
    } else if (status === 408) {
      const pace = `${limits.minBodyBytesPerSecond} bytes a second after ${Math.round(readMs / 1000)} s`;
      this.p.refusals.log(`${at} ${red('408')} cut off a body sent slower than ${pace}, from ${from}`);
      res.writeHead(408, { 'content-type': 'text/plain', connection: 'close' }).end('body too slow\n');
    } else {
      this.p.refusals.log(`${at} ${red('503')} too many notifications at once, refused one from ${from}`);
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '5', connection: 'close' }).end('busy\n');
    }
    // The rest of the body is not wanted: the connection is closed once the answer is out, rather than reading
    // (even to discard) what may be megabytes more.
    res.once('finish', () => req.socket.destroy());
    return this.countRefused();
  }

  /**
   * The notification as received and judged: signature, then shape, whether it is taken in, the status to answer.
   * The shape is judged only once the signature holds (or is not asked for): a forger learns nothing of it.
   */
  private received(req: IncomingMessage, raw: Buffer, receivedAt: number): ReceivedEvent {
    const verdict = verifyNotification(raw, req.headers.sign, this.p.key);
    const trusted = verdict.verified || !this.p.verify;
    // A refused body's event and number are shown when it is small; a large one (a flood) is not worth parsing.
    const body = trusted || raw.length <= SHOWN_REFUSED_BYTES ? parseJsonBody(raw) : undefined;
    const misshapen = trusted ? notificationProblem(body, verdict.version ?? 'v2') : undefined;
    const accepted = trusted && misshapen === undefined;
    const problem = misshapen === undefined ? verdict.problem : `body not of the documented shape (${misshapen})`;
    const ev: ReceivedEvent = {
      receivedAt,
      path: (req.url ?? '/').split('?')[0]!,
      headers: req.headers,
      request: {
        method: req.method ?? 'POST',
        url: req.url ?? '/',
        httpVersion: req.httpVersion,
        rawHeaders: req.rawHeaders,
      },
      raw,
      body,
      version: verdict.version,
      verified: verdict.verified,
      accepted,
      status: accepted ? 200 : trusted ? 400 : 401,
      summary: summarizeEvent(body),
      ...(problem === undefined ? {} : { problem }),
    };
    ev.status = this.p.respond?.(ev) ?? ev.status;
    return ev;
  }

  /** A notification whose signature (401) or shape (400) is refused: answered, logged, counted, nothing kept. */
  private refuse(ev: ReceivedEvent, req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(ev.status, { 'content-type': 'text/plain' }).end(REFUSAL_TEXT[ev.status] ?? '');
    const what = named(ev);
    const red = this.p.io.colorErr.red;
    const from = req.socket.remoteAddress;
    const about = `${ev.problem}${what ? `: ${what}` : ''}`;
    this.p.refusals.log(`${isoSeconds(ev.receivedAt)} ${red(String(ev.status))} ${about} from ${from}`);
    this.p.record(ev);
  }

  /** Write to every sink, answer, then let each sink finish its work on it. */
  private async takeIn(ev: ReceivedEvent, res: ServerResponse): Promise<void> {
    const failure = await this.written(ev);
    if (failure !== undefined) return this.notKept(ev, res, failure);
    res.writeHead(ev.status, { 'content-type': 'text/plain' }).end('');
    if (ev.problem !== undefined) this.p.io.err(`${isoSeconds(ev.receivedAt)} ${ev.problem}`);
    await Promise.all(this.p.sinks.map((sink) => sink.afterAnswer?.(ev)));
    this.p.record(ev);
  }

  /** Each sink written in turn; the first failure stops there (what comes after is not written). */
  private async written(ev: ReceivedEvent): Promise<Error | undefined> {
    for (const sink of this.p.sinks) {
      try {
        await sink.write?.(ev);
      } catch (e) {
        return e instanceof Error ? e : new Error(String(e));
      }
    }
    return undefined;
  }

  /** A sink could not keep it: 503, so that the service sends it again later (10, 30 and 60 minutes). */
  private notKept(ev: ReceivedEvent, res: ServerResponse, failure: Error): void {
    Object.assign(ev, { status: 503, accepted: false, problem: `not kept: ${failure.message}` });
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '60' }).end('not kept\n');
    const what = named(ev) || 'a notification';
    const red = this.p.io.colorErr.red;
    const why = `${failure.message}; the service will send it again`;
    this.p.refusals.log(`${isoSeconds(ev.receivedAt)} ${red('503')} could not keep ${what}: ${why}`);
    this.p.record(ev);
  }
}
