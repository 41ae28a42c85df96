// A local webhook receiver in the manner of `stripe listen`: it verifies each notification over the raw bytes,
// answers at once (the service gives up after a few seconds and retries 10, 30 and 60 minutes later), then
// prints, saves and forwards. Used by `trk webhook listen` and by tests of the emulator's deliveries.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Agent } from 'undici';
import { TrkError } from '../errors.js';
import type { IO } from '../io.js';
import { sanitizeTerminalText } from '../output/sanitize.js';
import { summarizeEvent, type EventSummary } from './summary.js';
import { detectVersion, verifyV1, verifyV2, type SignatureVersion } from './verify.js';

export const DEFAULT_LISTEN_HOST = '127.0.0.1';
export const DEFAULT_LISTEN_PATH = '/hook';
/** Port of `trk webhook listen` when none is given (startListener itself defaults to any free port). */
export const DEFAULT_LISTEN_PORT = 4242;

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
  /** Write each accepted body, byte for byte, into this directory. */
  saveDir?: string;
  /** One compact JSON line per event on stdout instead of a human line. */
  json?: boolean;
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
  /** Largest body accepted; default 16 MiB (a full TRACKING_UPDATED stays far below). */
  maxBodyBytes?: number;
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

export interface Listener {
  /** Where to send notifications, e.g. http://127.0.0.1:4242/hook */
  readonly url: string;
  readonly port: number;
  /** Every notification to the path so far (accepted and refused), each once it was handled completely. */
  readonly events: readonly ReceivedEvent[];
  /** Resolves with the events once at least `count` have been handled; rejects after `timeoutMs` (10 s). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
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
  const maxBody = opts.maxBodyBytes ?? 16 * 1024 * 1024;
  const forwardTimeoutMs = opts.forwardTimeoutMs ?? 30_000;
  if (opts.saveDir !== undefined) await mkdir(opts.saveDir, { recursive: true });

  const events: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  const pending = new Set<Promise<void>>();
  const closing = new AbortController();
  let agent: Agent | undefined;

  const clean = (s: string) => sanitizeTerminalText(s, { singleLine: true });

  function record(ev: ReceivedEvent): void {
    events.push(ev);
    opts.onEvent?.(ev);
    for (const w of [...waiters]) w();
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

  async function save(ev: ReceivedEvent, dir: string): Promise<void> {
    const event = (ev.summary.event ?? 'unknown').replace(/[^A-Za-z0-9_]/g, '') || 'unknown';
    const number = (ev.summary.number ?? 'unknown').replace(/[^A-Za-z0-9-]/g, '').slice(0, 60) || 'unknown';
    const base = `${fileStamp(ev.receivedAt)}-${event}-${number}`;
    for (let n = 1; ; n++) {
      const file = join(dir, n === 1 ? `${base}.json` : `${base}-${n}.json`);
      try {
        await writeFile(file, ev.raw, { flag: 'wx' });
        ev.savedTo = file;
        return;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 1000) throw e;
      }
    }
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
  async function takeIn(ev: ReceivedEvent, rawHeaders: readonly string[]): Promise<void> {
    io.out(`${opts.json ? jsonLine(ev) : humanLine(ev)}\n`);
    const work: Promise<void>[] = [];
    if (opts.saveDir !== undefined) {
      const dir = opts.saveDir;
      work.push(
        save(ev, dir).catch((e: unknown) => io.err(`could not save ${clean(ev.summary.number ?? 'the body')}: ${(e as Error).message}`)),
      );
    }
    if (opts.forwardTo !== undefined) work.push(forward(ev, rawHeaders, opts.forwardTo));
    await Promise.all(work);
  }

  function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBody) tooLarge = true;
        else chunks.push(chunk);
      });
      req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
      req.on('error', reject);
      req.on('close', () => {
        if (!req.complete) reject(new Error('connection closed before the body ended'));
      });
    });
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
    const raw = await readBody(req);
    if (raw === 'too-large') {
      io.err(`${isoSeconds(receivedAt)} refused a body over ${maxBody} bytes from ${req.socket.remoteAddress}: 413`);
      res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('body too large\n');
      return;
    }
    const body = parseJson(raw);
    const headerSign = headerValue(req.headers.sign);
    // A `sign` header means v2/v2.1; a JSON body carrying `sign` means v1; anything else is unsigned.
    const version: SignatureVersion | undefined =
      headerSign !== undefined ? 'v2' : body !== undefined && detectVersion(raw) === 'v1' ? 'v1' : undefined;
    let verified = false;
    let problem: string | undefined;
    if (version === undefined) problem = 'no signature';
    else if (!opts.key) problem = 'no key to verify with';
    else {
      verified = version === 'v2' ? verifyV2(raw, headerSign!, opts.key) : verifyV1(raw, opts.key);
      if (!verified) problem = `bad signature (${version === 'v2' ? 'sign header' : 'v1, sign in the body'})`;
      else if (body === undefined) problem = 'genuine but not JSON';
    }
    const accepted = verified || !verify;
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
      io.err(
        `${isoSeconds(receivedAt)} ${io.colorErr.red('401')} ${problem}${what ? `: ${what}` : ''} from ${req.socket.remoteAddress}`,
      );
      record(ev);
      return;
    }
    if (problem !== undefined) io.err(`${isoSeconds(receivedAt)} ${problem}`);
    await takeIn(ev, req.rawHeaders);
    record(ev);
  }

  const server = createServer((req, res) => {
    const task = handle(req, res).catch((e: unknown) => {
      io.err(`receiver error: ${(e as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
    pending.add(task);
    void task.finally(() => pending.delete(task));
  });

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
    events,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < count) return false;
          done();
          resolve([...events]);
          return true;
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${count} events (have ${events.length})`));
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
      })();
      return closed;
    },
  };
}
