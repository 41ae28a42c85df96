// A local webhook receiver in the manner of `stripe listen`: it verifies each notification over the raw bytes,
// answers at once (the service gives up after a few seconds and retries 10, 30 and 60 minutes later), then
// prints, saves and forwards. Used by `trk webhook listen` and by tests of the emulator's deliveries.
//
// It may face anything that can reach its port, so what it holds is bounded, whatever arrives:
// - it keeps counters, not notifications: a body lives only while its request is handled (`onEvent` sees it);
// - a body is buffered up to `maxBodyBytes` and no further: a larger one is refused (413) when announced, or
//   as soon as it passes the limit, and the rest is discarded unread;
// - at most `maxConcurrentBodies` bodies are read at once; further requests wait unread (their sockets paused,
//   so the kernel holds back the sender), and past `maxWaiting` they are refused with 503 and Retry-After;
// - headers must arrive within 10 s and the whole request within 30 s (Node's default is 300 s);
// - refusals are logged one line each up to REFUSALS_SHOWN per minute, then counted.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import type { Agent } from 'undici';
import { TrkError, UsageError } from '../errors.js';
import type { IO } from '../io.js';
import { sanitizeTerminalText } from '../terminal-text.js';
import { compactJson } from './raw-json.js';
import { headersText, saveNotification } from './saved.js';
import { summarizeEvent, type EventSummary } from './summary.js';
import { detectVersion, verifyV1, verifyV2, type SignatureVersion } from './verify.js';

export const DEFAULT_LISTEN_HOST = '127.0.0.1';
export const DEFAULT_LISTEN_PATH = '/hook';
/** Port of `trk webhook listen` when none is given (startListener itself defaults to any free port). */
export const DEFAULT_LISTEN_PORT = 4242;
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Refusals logged one line each per minute; the rest are counted and told in one line. */
export const REFUSALS_SHOWN = 20;
/** Refused bodies up to this size are parsed to name their event and number in the log line. */
const SHOWN_REFUSED_BYTES = 64 * 1024;

export interface ListenerOptions {
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
  /** Largest body accepted; default 4 MiB (a full TRACKING_UPDATED with every event stays below 200 KB). */
  maxBodyBytes?: number;
  /** Bodies read at once; default 8. */
  maxConcurrentBodies?: number;
  /** Requests waiting for a turn to be read; default 64. */
  maxWaiting?: number;
  /** For the whole request, headers and body; default 30 s. */
  requestTimeoutMs?: number;
  /** Default 30 s. */
  forwardTimeoutMs?: number;
}

export interface ForwardResult {
  status?: number;
  error?: string;
}

export interface ReceivedEvent {
  receivedAt: number;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  raw: Buffer;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: unknown;
  /** The signature rule applied: header `sign` → v2 (v2 and v2.1), `sign` in the body → v1. */
  version: SignatureVersion | undefined;
  verified: boolean;
  /** Whether it was taken in (printed, saved, forwarded): verified, or verification switched off. */
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
  /** Taken in: verified, or verification switched off. */
  accepted: number;
  /** Refused: bad or missing signature, too large, too many at once, cut off. */
  refused: number;
}

export interface Listener {
  /** Where to send notifications, e.g. http://127.0.0.1:4242/hook */
  readonly url: string;
  readonly port: number;
  readonly counts: Readonly<ListenerCounts>;
  /** Resolves with the counts once at least `count` notifications have been handled; rejects after `timeoutMs` (10 s). */
  waitFor(count: number, timeoutMs?: number): Promise<ListenerCounts>;
  /** Stop listening, abort forwards in flight, wait for saves, close connections. Idempotent. */
  close(): Promise<void>;
}

/** Headers that belong to one connection and are not forwarded (RFC 9110 §7.6.1), plus what the new
 *  connection sets itself: host and content-length (same body, so same length), and expect (undici refuses it). */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/** Request headers to forward, as a flat [name, value, ...] list keeping their case, order and repeats. */
export function forwardHeaders(rawHeaders: readonly string[]): string[] {
  const drop = new Set(NOT_FORWARDED);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'connection') {
      for (const t of rawHeaders[i + 1]!.split(',')) drop.add(t.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!drop.has(rawHeaders[i]!.toLowerCase())) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return out;
}

function normalisePath(p: string): string {
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') : withSlash;
}

/** `20240501T120000.123Z`: sortable and valid in file names everywhere. */
function fileStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '');
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The --save folder, created when missing; a file in its way is refused in words rather than as EEXIST. */
async function makeSaveDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new UsageError(`cannot save into ${dir}: a file is in the way, and notifications are saved in a folder`, 'give a folder (it is created when missing), or move the file');
    }
    throw new TrkError(`cannot create the folder ${dir}: ${code ?? (e as Error).message}`, { hint: 'give a folder you can write to', cause: e });
  }
}

function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h.join(', ') : h;
}

export async function startListener(opts: ListenerOptions): Promise<Listener> {
  const { io } = opts;
  const verify = opts.verify ?? true;
  if (verify && !opts.key) throw new TrkError('no API key to verify signatures with');
  const host = opts.host ?? DEFAULT_LISTEN_HOST;
  const hookPath = normalisePath(opts.path ?? DEFAULT_LISTEN_PATH);
  const now = opts.now ?? Date.now;
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxBodies = opts.maxConcurrentBodies ?? 8;
  const maxWaiting = opts.maxWaiting ?? 64;
  const requestTimeoutMs = opts.requestTimeoutMs ?? 30_000;
  const forwardTimeoutMs = opts.forwardTimeoutMs ?? 30_000;
  if (opts.saveDir !== undefined) await makeSaveDir(opts.saveDir);

  const counts: ListenerCounts = { handled: 0, accepted: 0, refused: 0 };
  const waiters = new Set<() => void>();
  const pending = new Set<Promise<void>>();
  const closing = new AbortController();
  let agent: Agent | undefined;

  const clean = (s: string) => sanitizeTerminalText(s, { singleLine: true });

  /** Count a handled notification (`ev` when it got as far as a body) and wake those waiting for counts. */
  function record(ev: ReceivedEvent | undefined): void {
    counts.handled += 1;
    if (ev?.accepted) counts.accepted += 1;
    else counts.refused += 1;
    if (ev) opts.onEvent?.(ev);
    for (const w of [...waiters]) w();
  }

  // Refusals shown one line each, REFUSALS_SHOWN a minute; a flood is summed up rather than echoed.
  let refusalWindow = 0;
  let refusalsShown = 0;
  let refusalsHidden = 0;
  function tellHidden(): void {
    if (refusalsHidden === 0) return;
    io.err(`${refusalsHidden} more refused notification${refusalsHidden === 1 ? '' : 's'} not shown`);
    refusalsHidden = 0;
  }
  function logRefusal(line: string): void {
    const t = Date.now();
    if (t - refusalWindow >= 60_000) {
      tellHidden();
      refusalWindow = t;
      refusalsShown = 0;
    }
    if (refusalsShown < REFUSALS_SHOWN) {
      refusalsShown += 1;
      io.err(line);
    } else {
      refusalsHidden += 1;
    }
  }

  // Bodies being read, and requests waiting (unread) for a turn.
  let reading = 0;
  const turns: (() => void)[] = [];
  function takeTurn(req: IncomingMessage): Promise<'go' | 'busy' | 'gone'> {
    if (reading < maxBodies) {
      reading += 1;
      return Promise.resolve('go');
    }
    if (turns.length >= maxWaiting) return Promise.resolve('busy');
    return new Promise((resolve) => {
      const go = () => {
        req.off('close', gone);
        reading += 1;
        resolve('go');
      };
      const gone = () => {
        const i = turns.indexOf(go);
        if (i >= 0) turns.splice(i, 1);
        resolve('gone');
      };
      turns.push(go);
      req.once('close', gone);
    });
  }
  function releaseTurn(): void {
    reading -= 1;
    turns.shift()?.();
  }

  function humanLine(ev: ReceivedEvent): string {
    const s = ev.summary;
    const c = io.color;
    const carrier =
      s.carrier === null ? '-' : [String(s.carrier), opts.carrierName?.(s.carrier)].filter(Boolean).join(' ');
    // sub_status names carry their main status (InTransit_PickedUp), so one of the two is enough.
    const status = s.sub_status ?? s.status ?? '-';
    const le = s.latest_event;
    const latest = le
      ? [le.time, [le.location, le.description].filter(Boolean).join(': ')].filter(Boolean).join('  ')
      : '';
    const fields = [isoSeconds(ev.receivedAt), s.event ?? '?', s.number ?? '-', carrier, status, latest]
      .map((f) => clean(f))
      .filter((f, i) => i < 5 || f !== '');
    let line = fields.join('  ');
    if (!ev.verified) line += '  (not verified)';
    if (ev.status !== 200) line += `  (answered ${ev.status})`;
    const chars = [...line];
    if (io.stdoutIsTTY && chars.length > io.columns - 1) line = `${chars.slice(0, Math.max(20, io.columns - 2)).join('')}…`;
    return c.dim(fields[0]!) + line.slice(fields[0]!.length);
  }

  function jsonLine(ev: ReceivedEvent): string {
    const s = ev.summary;
    return JSON.stringify({
      event: s.event,
      number: s.number,
      carrier: s.carrier,
      status: s.status,
      sub_status: s.sub_status,
      latest_event: s.latest_event,
      received_at: new Date(ev.receivedAt).toISOString(),
      verified: ev.verified,
    });
  }

  async function save(ev: ReceivedEvent, dir: string, head: string): Promise<void> {
    const event = (ev.summary.event ?? 'unknown').replace(/[^A-Za-z0-9_]/g, '') || 'unknown';
    const number = (ev.summary.number ?? 'unknown').replace(/[^A-Za-z0-9-]/g, '').slice(0, 60) || 'unknown';
    ev.savedTo = await saveNotification(dir, `${fileStamp(ev.receivedAt)}-${event}-${number}`, ev.raw, head);
  }

  /** The body as one line of JSON: as received when it is on one line already, else compacted; undefined if not JSON. */
  function bodyLine(ev: ReceivedEvent): string | undefined {
    if (ev.body === undefined) return undefined;
    const text = ev.raw.toString('utf8').trim();
    return /[\r\n]/.test(text) ? compactJson(text) : text;
  }

  async function forward(ev: ReceivedEvent, rawHeaders: readonly string[], target: string): Promise<void> {
    const { Agent, request } = await import('undici');
    agent ??= new Agent();
    const started = now();
    const label = `${ev.summary.event ?? '?'} ${clean(ev.summary.number ?? '-')}`;
    try {
      const res = await request(target, {
        method: 'POST',
        headers: forwardHeaders(rawHeaders),
        body: ev.raw,
        dispatcher: agent,
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(forwardTimeoutMs)]),
      });
      await res.body.dump();
      ev.forward = { status: res.statusCode };
      const mark = res.statusCode >= 200 && res.statusCode < 300 ? io.colorErr.green : io.colorErr.red;
      io.err(`  → ${label} forwarded to ${target}: ${mark(String(res.statusCode))} (${now() - started} ms)`);
    } catch (e) {
      const why = closing.signal.aborted ? 'stopped' : (e as Error).message || String(e);
      ev.forward = { error: why };
      io.err(`  → ${label} not forwarded to ${target}: ${io.colorErr.red(why)}`);
    }
  }

  /** Print, save and forward an accepted notification; the answer has already gone out. */
  async function takeIn(ev: ReceivedEvent, req: IncomingMessage): Promise<void> {
    const line = opts.json ? jsonLine(ev) : humanLine(ev);
    if (opts.print) {
      const body = bodyLine(ev);
      if (body === undefined) io.err(`${isoSeconds(ev.receivedAt)} the body is not JSON: not printed`);
      else io.out(`${body}\n`);
      io.err(line);
    } else {
      io.out(`${line}\n`);
    }
    const work: Promise<void>[] = [];
    if (opts.saveDir !== undefined) {
      const dir = opts.saveDir;
      const head = headersText(req.method ?? 'POST', req.url ?? '/', req.httpVersion, req.rawHeaders);
      work.push(
        save(ev, dir, head).catch((e: unknown) => io.err(`could not save ${clean(ev.summary.number ?? 'the body')}: ${(e as Error).message}`)),
      );
    }
    if (opts.forwardTo !== undefined) work.push(forward(ev, req.rawHeaders, opts.forwardTo));
    await Promise.all(work);
  }

  /** The body, up to maxBody; past that the rest is discarded unread. */
  function readBody(req: IncomingMessage): Promise<Buffer | 'too-large' | 'cut-off'> {
    return new Promise((resolve) => {
      let chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const settle = (v: Buffer | 'too-large' | 'cut-off') => {
        if (settled) return;
        settled = true;
        chunks = [];
        resolve(v);
      };
      req.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (size > maxBody) settle('too-large');
        else chunks.push(chunk);
      });
      req.on('end', () => settle(Buffer.concat(chunks)));
      req.on('error', () => settle('cut-off'));
      req.on('close', () => {
        if (!req.complete) settle('cut-off');
      });
    });
  }

  /** Answer a request refused before its body was taken in, and count it. */
  function refuseEarly(req: IncomingMessage, res: ServerResponse, status: 413 | 503, receivedAt: number): void {
    const from = req.socket.remoteAddress;
    if (status === 413) {
      logRefusal(`${isoSeconds(receivedAt)} ${io.colorErr.red('413')} refused a body over ${maxBody} bytes from ${from}`);
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('body too large\n');
    } else {
      logRefusal(`${isoSeconds(receivedAt)} ${io.colorErr.red('503')} too many notifications at once, refused one from ${from}`);
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '5', connection: 'close' }).end('busy\n');
    }
    // The rest of the body is not wanted: the connection is closed once the answer is out, rather than reading
    // (even to discard) what may be megabytes more.
    res.once('finish', () => req.socket.destroy());
    record(undefined);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Split by hand: new URL() would read a target like `//x/hook` as a host name.
    const pathname = (req.url ?? '/').split('?')[0]!;
    if (normalisePath(pathname) !== hookPath) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'POST' }).end('method not allowed\n');
      return;
    }
    const receivedAt = now();
    if (Number(req.headers['content-length']) > maxBody) return refuseEarly(req, res, 413, receivedAt);
    const turn = await takeTurn(req);
    if (turn === 'busy') return refuseEarly(req, res, 503, receivedAt);
    if (turn === 'gone') {
      record(undefined);
      return;
    }
    let raw: Buffer | 'too-large' | 'cut-off';
    try {
      raw = await readBody(req);
    } finally {
      releaseTurn();
    }
    if (raw === 'too-large') return refuseEarly(req, res, 413, receivedAt);
    if (raw === 'cut-off') {
      logRefusal(`${isoSeconds(receivedAt)} a notification from ${req.socket.remoteAddress} was cut off before its body ended`);
      record(undefined);
      return;
    }
    const headerSign = headerValue(req.headers.sign);
    // A `sign` header means v2/v2.1; a JSON body carrying `sign` means v1; anything else is unsigned. Decided on
    // the raw bytes: a body is parsed only when it may be v1, is taken in, or is small enough to be shown.
    const version: SignatureVersion | undefined =
      headerSign !== undefined ? 'v2' : raw.includes('"sign"') && detectVersion(raw) === 'v1' ? 'v1' : undefined;
    let verified = false;
    let problem: string | undefined;
    if (version === undefined) problem = 'no signature';
    else if (!opts.key) problem = 'no key to verify with';
    else {
      verified = version === 'v2' ? verifyV2(raw, headerSign!, opts.key) : verifyV1(raw, opts.key);
      if (!verified) problem = `bad signature (${version === 'v2' ? 'sign header' : 'v1, sign in the body'})`;
    }
    const accepted = verified || !verify;
    // A refused body's event and number are shown when it is small; a large one (a flood) is not worth parsing.
    const body = accepted || raw.length <= SHOWN_REFUSED_BYTES ? parseJson(raw) : undefined;
    if (verified && body === undefined) problem = 'genuine but not JSON';
    const ev: ReceivedEvent = {
      receivedAt,
      path: pathname,
      headers: req.headers,
      raw,
      body,
      version,
      verified,
      accepted,
      status: accepted ? 200 : 401,
      summary: summarizeEvent(body),
      ...(problem === undefined ? {} : { problem }),
    };
    ev.status = opts.respond?.(ev) ?? ev.status;
    // Answer first: the sender waits only a few seconds, and saving or forwarding may take longer.
    res.writeHead(ev.status, { 'content-type': 'text/plain' }).end(ev.status === 401 ? 'bad signature\n' : '');
    if (!accepted) {
      const what = [ev.summary.event, ev.summary.number].filter(Boolean).map((s) => clean(s!)).join(' ');
      logRefusal(
        `${isoSeconds(receivedAt)} ${io.colorErr.red('401')} ${problem}${what ? `: ${what}` : ''} from ${req.socket.remoteAddress}`,
      );
      record(ev);
      return;
    }
    if (problem !== undefined) io.err(`${isoSeconds(receivedAt)} ${problem}`);
    await takeIn(ev, req);
    record(ev);
  }

  // Node waits 300 s for a request by default and checks every 30 s: far too patient with a sender that dribbles.
  const timeouts = { requestTimeout: requestTimeoutMs, headersTimeout: Math.min(10_000, requestTimeoutMs), connectionsCheckingInterval: 1000 };
  const server = createServer(timeouts, (req, res) => {
    const task = handle(req, res).catch((e: unknown) => {
      io.err(`receiver error: ${(e as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
    pending.add(task);
    void task.finally(() => pending.delete(task));
  });
  // Each open connection costs a little memory and a file descriptor, idle or not.
  server.maxConnections = 1024;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const where = `${host}:${opts.port ?? 0}`;
      if (e.code === 'EADDRINUSE') reject(new TrkError(`${where} is already in use`, { hint: 'pick another --port', cause: e }));
      else if (e.code === 'EACCES') reject(new TrkError(`not allowed to listen on ${where}`, { hint: 'use a port above 1024', cause: e }));
      else reject(new TrkError(`cannot listen on ${where}: ${e.message}`, { cause: e }));
    });
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  server.on('error', (e) => io.err(`receiver error: ${e.message}`));

  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${hookPath}`;
  let closed: Promise<void> | undefined;

  return {
    url,
    port,
    counts,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (counts.handled < count) return false;
          done();
          resolve({ ...counts });
          return true;
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${count} notifications (have ${counts.handled})`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        if (!check()) waiters.add(check);
      });
    },
    close() {
      closed ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        closing.abort();
        // Every answer that was due has gone out (answers precede saving and forwarding); a request still
        // sending its body is cut off, and saves in flight are awaited.
        server.closeAllConnections();
        await Promise.allSettled([...pending]);
        await stopped;
        await agent?.close();
        tellHidden();
      })();
      return closed;
    },
  };
}
