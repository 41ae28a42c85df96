// How the client's POSTs reach the service: one contract, two ways.
//
// - node:http(s) (transport-http.ts) carries requests made one at a time, which is all a one-shot command makes
//   (`trk quota`, `trk info N`, `trk stop N`, a list of one page). Node loads it with itself, so it costs next to
//   nothing, where importing undici takes 25 to 50 ms and its WebAssembly parser more: half of such a command's
//   time, called in shell loops and cron.
// - undici (transport-undici.ts) from the first time requests overlap (bulk runs, lists fetched several pages at
//   a time) and for the rest of the process, and from the start when a proxy applies (HTTP(S)_PROXY, NO_PROXY):
//   its connection pools and proxy agent are what long runs and corporate networks need.
//
// Both report failures with the codes the client knows (src/api/client.ts networkError): the system's
// (ECONNREFUSED, ECONNRESET, ...) and undici's (UND_ERR_CONNECT_TIMEOUT, ...); an answer longer than the limit
// is cut off and reported as such, never read whole.

import { keepHeapSmall } from '../core/heap.js';

export interface TransportRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** Aborts the request wherever it is (waiting for a connection, on the wire, reading the answer). */
  signal: AbortSignal;
  /** Longest answer read, in bytes. */
  maxAnswerBytes: number;
  /**
   * Called once, when the request is handed to the connection (written to the socket): the moment the rate
   * budget counts as its start (src/pacing/pacer.ts).
   */
  onSent?: (() => void) | undefined;
}

export interface TransportAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as UTF-8 text (a BOM removed); undefined when it was longer than `maxAnswerBytes`. */
  text: string | undefined;
}

export interface Transport {
  send(req: TransportRequest): Promise<TransportAnswer>;
  close(): Promise<void>;
}

/** Where HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read from, as undici's EnvHttpProxyAgent reads them. */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * Proxy settings from the environment. Loopback addresses are never proxied (as curl and Go do for localhost),
 * so a local emulator works behind a corporate HTTPS_PROXY.
 */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? '';
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: noProxy.trim() === '*' ? '*' : [noProxy, 'localhost', '127.0.0.1', '[::1]'].filter(Boolean).join(','),
  };
}

/**
 * Whether a proxy may apply to requests to `baseUrl`: one is set for its scheme (HTTPS falls back on the HTTP
 * proxy, as undici does) and NO_PROXY is not `*`. Which hosts NO_PROXY exempts is undici's to decide; a base URL
 * it exempts merely goes through undici without a proxy.
 */
export function proxyMayApply(baseUrl: string, proxies: ProxySettings): boolean {
  if (proxies.noProxy === '*') return false;
  const https = /^https:/i.test(baseUrl);
  return (https ? proxies.httpsProxy || proxies.httpProxy : proxies.httpProxy) !== '';
}

/**
 * The client's transport: node:http for requests one at a time, undici once they overlap or when a proxy may
 * apply (see the top of this file). undici is imported on the first overlapping request, which waits for it.
 */
export function createTransport(baseUrl: string, env: NodeJS.ProcessEnv): Transport {
  const proxies = proxySettings(env);
  const proxied = proxyMayApply(baseUrl, proxies);
  let lean: Promise<Transport> | undefined;
  let pooled: Promise<Transport> | undefined;
  let inFlight = 0;
  let sent = 0;
  const loadLean = () =>
    (lean ??= import('./transport-http.js').then(({ createHttpTransport }) => createHttpTransport()));
  // Loaded now rather than at the first request: Node 20's module loader reads files asynchronously, and the read
  // then overlaps with what comes before the request (the pacer's file, the checks of the input). A failure to
  // load is reported by the request that needs it.
  if (!proxied) loadLean().catch(() => {});
  return {
    async send(req) {
      inFlight += 1;
      if (++sent === 2) keepHeapSmall();
      try {
        if (proxied || inFlight > 1) pooled ??= loadUndici(proxied ? proxies : undefined);
        const transport = await (pooled ?? loadLean());
        return await transport.send(req);
      } finally {
        inFlight -= 1;
      }
    },
    async close() {
      const open = await Promise.allSettled([lean, pooled].filter((t): t is Promise<Transport> => t !== undefined));
      await Promise.all(open.map((t) => (t.status === 'fulfilled' ? t.value.close() : undefined)));
    },
  };
}

function loadUndici(proxies: ProxySettings | undefined): Promise<Transport> {
  return import('./transport-undici.js').then(({ createUndiciTransport }) => createUndiciTransport(proxies));
}

/** UTF-8 text of an answer, a byte order mark removed (as undici's text() does). */
export function utf8(body: Buffer): string {
  const text = body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
