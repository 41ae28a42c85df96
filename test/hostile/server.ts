// A hostile service for tests: an HTTP server on 127.0.0.1 (port 0) that answers the way broken servers, proxies
// and attackers do, so that every trk command can be driven against it end to end.
//
// Modes (`HostileMode`), each applied to the answer of every request it matches:
//   ok               a well-formed answer (the upstream's, or a canned one of the operation's shape)
//   html-502         HTTP 502 with an HTML error page, as a proxy in front of a dead service sends
//   truncated        HTTP 200 with the JSON answer cut off in the middle
//   data-null        HTTP 200, {"code":0,"data":null}
//   accepted-string  HTTP 200, data.accepted is the string "x"
//   accepted-number  HTTP 200, data.accepted is the number 5
//   rejected-null    HTTP 200, data.rejected is [null]
//   reset            the connection is destroyed once the request has been read, without an answer
//   hang             the request is read and never answered (the socket stays open)
//   endless          HTTP 200 and a body that never ends (chunked, written as fast as the client reads)
//   huge             HTTP 200 and a complete body of `hugeBytes` (default 200 MB), its Content-Length announced
//   retry-day        HTTP 429 with Retry-After: 86400
//   echo-key         HTTP 200, an envelope error whose message quotes the key the request carried (svctoken)
//   echo-key-data    HTTP 200, the answer with the key added to data (`data.echo`), as a body that quotes it
//   redirect-key     HTTP 302 with a Location whose query carries the key
//
// Two ways to answer:
// - standalone (no `upstream`): answers are made up here from canned envelopes of each operation's shape;
// - proxy (`upstream`, e.g. the URL of a running emulator from src/sandbox startSandbox): every request is sent
//   on to the upstream first, which processes it (a register registers, a delete deletes), and only then is the
//   answer replaced by the mode's. This is what makes outcomes ambiguous for the client: the work was done, the
//   answer lost or spoiled.
//
// `corrupt` chooses which requests get the mode: all (default), the first N (`{ first: N }`, then `ok`), all but
// the first N (`{ after: N }`: a list whose later pages fail), or those whose path matches a pattern
// (`{ path: /register$/ }`). Requests are counted from the last `setMode`, which switches at any time. The server
// counts the
// requests it received (`requests`), and how many reached the upstream (`forwarded`).
//
// Paging (`paging`, or `setPaging` at any time), for gettracklist answers the mode leaves alone (standalone):
//   repeat     page_total 1e9, data_total 4e10, and the same 40 records on every page
//   infinite   page_total 1e999 (Infinity once parsed), no data_total, the same 40 records on every page
//   short      page_total 5, data_total 200, distinct pages, but page 2 holds 7 records
//   overcount  page_total 1e9 but data_total 100: pages 1-2 of 40 records, page 3 of 20 (and full pages after it,
//              for a client that asks for them)
//
// Paths: `/track/<version>/<operation>` for the API, `/asset/carrier/info/<list>.json` for the reference lists
// (canned lists standalone). Other paths answer 404.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export const HOSTILE_MODES = [
  'ok',
  'html-502',
  'truncated',
  'data-null',
  'accepted-string',
  'accepted-number',
  'rejected-null',
  'reset',
  'hang',
  'endless',
  'huge',
  'retry-day',
  'echo-key',
  'echo-key-data',
  'redirect-key',
] as const;
export type HostileMode = (typeof HOSTILE_MODES)[number];
/** Modes that send the key back (test/hostile/secrets.e2e.test.ts); the others spoil the answer. */
export type LeakMode = 'echo-key' | 'echo-key-data' | 'redirect-key';

export type Corrupt = 'all' | { first: number } | { after: number } | { path: RegExp };

export const PAGINGS = ['repeat', 'infinite', 'short', 'overcount'] as const;
export type Paging = (typeof PAGINGS)[number];

export interface HostileOptions {
  mode: HostileMode;
  /** Base URL of a real emulator to forward to before corrupting its answer (proxy mode). */
  upstream?: string;
  corrupt?: Corrupt;
  /** Size of the `huge` body; default 200 MB. */
  hugeBytes?: number;
  /** gettracklist pages whose counts cannot be right (standalone; see the top of this file). */
  paging?: Paging;
}

export interface HostileServer {
  readonly url: string;
  /** Requests received so far. */
  readonly requests: number;
  /** Requests passed on to the upstream (proxy mode). */
  readonly forwarded: number;
  setMode(mode: HostileMode, corrupt?: Corrupt): void;
  setPaging(paging: Paging | undefined): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const QUOTA = {
  quota_total: 1000,
  quota_used: 10,
  quota_remain: 990,
  today_used: 10,
  max_track_daily: 0,
  free_email_quota: 0,
  free_email_quotaused: 0,
};
const CARRIERS = [
  {
    key: 3011,
    _name: 'China Post',
    _country_iso: 'CN',
    _url: 'http://www.chinapost.com.cn',
    _tel: '',
    _email: '',
    _group: '',
  },
];
const COUNTRIES = [{ key: 301, _name: 'China' }];

/** 40 records of page `n` (`n` 0: the same records whatever the page). */
function records(n: number, count = 40): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    number: `RR${String(n * 100 + i).padStart(9, '0')}CN`,
    carrier: 3011,
    tag: null,
  }));
}

/** A gettracklist page of `paging` (see the top of this file), as JSON text: `1e999` cannot be written otherwise. */
function pagedList(paging: Paging, pageNo: number): string {
  const page = (accepted: unknown[], counts: string) =>
    `{"page":{${counts},"page_no":${pageNo},"page_size":40},"code":0,"data":{"accepted":${JSON.stringify(accepted)}}}`;
  switch (paging) {
    case 'repeat':
      return page(records(0), '"data_total":40000000000,"page_total":1000000000');
    case 'infinite':
      return page(records(0), '"page_total":1e999');
    case 'short':
      return page(records(pageNo, pageNo === 2 ? 7 : 40), '"data_total":200,"page_total":5');
    case 'overcount':
      return page(records(pageNo, pageNo === 3 ? 20 : 40), '"data_total":100,"page_total":1000000000');
  }
}

/** The page asked for by a gettracklist body (1 when it does not say). */
function pageNoOf(requestBody: string): number {
  try {
    const n = (JSON.parse(requestBody) as { page_no?: unknown }).page_no;
    return typeof n === 'number' && n >= 1 ? n : 1;
  } catch {
    return 1;
  }
}

/** A well-formed answer of the operation's shape, echoing the numbers asked for as accepted. */
function cannedAnswer(pathname: string, requestBody: string, paging?: Paging): Answer {
  const json = (value: unknown): Answer => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(value)),
  });
  if (pathname.endsWith('apicarrier.all.json')) return json(CARRIERS);
  if (pathname.endsWith('country.all.json')) return json(COUNTRIES);
  const op = pathname.split('/').pop()?.toLowerCase() ?? '';
  if (op === 'getquota') return json({ code: 0, data: QUOTA });
  if (op === 'gettracklist' && paging !== undefined) {
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(pagedList(paging, pageNoOf(requestBody))),
    };
  }
  if (op === 'gettracklist') {
    return json({ page: { data_total: 0, page_total: 0, page_no: 1, page_size: 40 }, code: 0, data: { accepted: [] } });
  }
  let items: { number?: unknown }[] = [];
  try {
    const parsed = JSON.parse(requestBody) as unknown;
    items = (Array.isArray(parsed) ? parsed : [parsed]) as { number?: unknown }[];
  } catch {
    // not JSON: nothing to echo
  }
  const accepted = items
    .filter((i) => typeof i?.number === 'string')
    .map((i) => ({ origin: 2, number: i.number, carrier: 3011, tag: null, param: null, track_info: null }));
  return json({ code: 0, data: { accepted, rejected: [] } });
}

/** The envelope of `answer` with `data` changed by `change`; a made-up envelope when it is not JSON. */
function withData(answer: Answer, change: (data: Record<string, unknown>) => unknown): Answer {
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    envelope = { code: 0, data: {} };
  }
  const data =
    envelope.data !== null && typeof envelope.data === 'object' ? (envelope.data as Record<string, unknown>) : {};
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ ...envelope, code: 0, data: change(data) })),
  };
}

/** The key a request carried. */
function keyOf(req: IncomingMessage): string {
  const key = req.headers.svctoken;
  return typeof key === 'string' ? key : '';
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Send the request on to the upstream as it came (method, path, headers, body) and take its answer whole. */
async function forward(upstream: string, req: IncomingMessage, body: Buffer): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name))
      headers[name] = value;
  }
  const res = await fetch(`${upstream.replace(/\/+$/, '')}${req.url ?? '/'}`, {
    method: req.method ?? 'POST',
    headers,
    ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
    redirect: 'manual',
  });
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)) out[name] = value;
  });
  return { status: res.status, headers: out, body: Buffer.from(await res.arrayBuffer()) };
}

/** Write `total` bytes (or forever) of JSON-ish padding, as fast as the client takes them. */
function stream(res: ServerResponse, total: number | undefined): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  res.write('{"code":0,"data":{"accepted":[],"rejected":[]},"pad":"');
  const pump = () => {
    while (!res.destroyed) {
      if (total !== undefined && sent + chunk.length >= total) {
        res.end(Buffer.concat([chunk.subarray(0, Math.max(0, total - sent)), Buffer.from('"}')]));
        return;
      }
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

export async function startHostileServer(opts: HostileOptions): Promise<HostileServer> {
  let mode = opts.mode;
  let corrupt: Corrupt = opts.corrupt ?? 'all';
  let paging = opts.paging;
  let requests = 0;
  let forwarded = 0;
  /** Requests since the last setMode: what `first` and `after` count. */
  let sinceMode = 0;
  const hugeBytes = opts.hugeBytes ?? 200 * 1024 * 1024;
  const sockets = new Set<Socket>();

  const modeFor = (n: number, pathname: string): HostileMode => {
    if (corrupt === 'all') return mode;
    if ('first' in corrupt) return n <= corrupt.first ? mode : 'ok';
    if ('after' in corrupt) return n > corrupt.after ? mode : 'ok';
    return corrupt.path.test(pathname) ? mode : 'ok';
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requests += 1;
    sinceMode += 1;
    const n = sinceMode;
    const body = await readAll(req);
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    if (!/^\/track\/[^/]+\/[A-Za-z]+$/.test(pathname) && !/^\/asset\/carrier\/info\/[a-z.]+\.json$/.test(pathname)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    // The upstream does the work first, whatever becomes of its answer.
    let answer: Answer;
    if (opts.upstream) {
      answer = await forward(opts.upstream, req, body);
      forwarded += 1;
    } else {
      answer = cannedAnswer(pathname, body.toString('utf8'), paging);
    }
    const send = (a: Answer) =>
      res.writeHead(a.status, { ...a.headers, 'content-length': String(a.body.length) }).end(a.body);
    switch (modeFor(n, pathname)) {
      case 'ok':
        return void send(answer);
      case 'html-502':
        return void send({
          status: 502,
          headers: { 'content-type': 'text/html' },
          body: Buffer.from(
            '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n',
          ),
        });
      case 'truncated':
        return void send({
          ...answer,
          status: 200,
          body: answer.body.subarray(0, Math.max(1, Math.floor(answer.body.length / 2))),
        });
      case 'data-null':
        return void send({
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from('{"code":0,"data":null}'),
        });
      case 'accepted-string':
        return void send(withData(answer, (d) => ({ ...d, accepted: 'x', rejected: d.rejected ?? [] })));
      case 'accepted-number':
        return void send(withData(answer, (d) => ({ ...d, accepted: 5, rejected: d.rejected ?? [] })));
      case 'rejected-null':
        return void send(withData(answer, (d) => ({ ...d, accepted: d.accepted ?? [], rejected: [null] })));
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        // No timer here: what ends the request is trk's own time limit, a real one (src/core/clock.ts).
        return;
      case 'endless':
        res.writeHead(200, { 'content-type': 'application/json' });
        return stream(res, undefined);
      case 'huge':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(hugeBytes) });
        return stream(res, hugeBytes);
      case 'echo-key':
        return void send({
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(
            JSON.stringify({
              code: -18099999,
              data: { errors: [{ code: -18099999, message: `key ${keyOf(req)} may not do this` }] },
            }),
          ),
        });
      case 'echo-key-data':
        return void send(withData(answer, (d) => ({ ...d, echo: `you sent ${keyOf(req)}` })));
      case 'redirect-key':
        return void send({
          status: 302,
          headers: { location: `https://elsewhere.invalid/track?key=${keyOf(req)}` },
          body: Buffer.alloc(0),
        });
      case 'retry-day':
        return void send({
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '86400' },
          body: Buffer.from('{"code":429,"data":{"errors":[{"code":429,"message":"Too many requests"}]}}'),
        });
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    get requests() {
      return requests;
    },
    get forwarded() {
      return forwarded;
    },
    setMode(next, nextCorrupt = 'all') {
      mode = next;
      corrupt = nextCorrupt;
      sinceMode = 0;
    },
    setPaging(next) {
      paging = next;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A standalone hostile server (mode `ok`) for the tests of one file, started before them and closed after:
 * `server()` is it.
 */
export function hostileServerForTests(): () => HostileServer {
  let server: HostileServer | undefined;
  beforeAll(async () => {
    server = await startHostileServer({ mode: 'ok' });
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => server!;
}
