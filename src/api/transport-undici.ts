// undici, for requests that overlap and for proxies (see transport.ts). Without a proxy, its Agent is required
// from its own file, not from the package index, which loads every dispatcher, the mock agents, fetch and the
// cache as well (twice the time). Behind a proxy the index is needed: the proxy agent opens its tunnels with the
// request methods the index adds to every dispatcher. Requests go straight to the agent's dispatch with a handler of
// undici's interface:
// the answer is gathered into a bounded buffer as it arrives, and onRequestStart, which undici calls as it
// writes the request to its connection, marks the request's start for the pacer.
//
// undici parses answers with llhttp compiled to WebAssembly. V8 compiles it quickly (Liftoff), then again,
// optimised, on a background thread that Node 20 waits for at exit (some 90 ms), and the optimised code takes
// memory; parsing a few answers a second needs no optimised code, so it is turned off before the first compilation.

import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type { Dispatcher } from 'undici';
import { utf8, type ProxySettings, type Transport, type TransportAnswer, type TransportRequest } from './transport.js';
import { nodeV8 } from '../core/node.js';

/** `proxies` undefined: no proxy applies. */
export function createUndiciTransport(proxies: ProxySettings | undefined): Transport {
  const require = createRequire(import.meta.url);
  // The flags --liftoff-only implies are set too: implications are worked out when V8 starts, not at run time,
  // and without them V8 on Node 24 still optimises the parser (some 10 MB more of a long run's peak memory).
  nodeV8().setFlagsFromString('--liftoff-only --no-wasm-tier-up --no-wasm-dynamic-tiering');
  const dispatcher: Dispatcher = proxies
    ? new (require('undici') as typeof Undici).EnvHttpProxyAgent(proxies)
    : new (require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent)();

  function send(req: TransportRequest): Promise<TransportAnswer> {
    return new Promise<TransportAnswer>((resolve, reject) => {
      const url = new URL(req.url);
      let settled = false;
      let controller: Dispatcher.DispatchController | undefined;
      let status = 0;
      let headers: Record<string, string | string[] | undefined> = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        req.signal.removeEventListener('abort', onAbort);
        fn();
      };
      const tooLarge = (c: Dispatcher.DispatchController) => {
        settle(() => resolve({ status, headers, text: undefined }));
        // Reading stops here and the connection is dropped.
        c.abort(new Error('answer too large'));
      };
      const onAbort = () => {
        settle(() => reject(req.signal.reason));
        controller?.abort(req.signal.reason);
      };
      if (req.signal.aborted) {
        onAbort();
        return;
      }
      req.signal.addEventListener('abort', onAbort, { once: true });

      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          // Aborted while waiting for a connection: never written.
          if (settled) c.abort(req.signal.reason);
          else req.onSent?.();
        },
        onResponseStart(c, statusCode, responseHeaders) {
          status = statusCode;
          headers = responseHeaders as Record<string, string | string[] | undefined>;
          const announced = Number(headers['content-length']);
          if (Number.isFinite(announced) && announced > req.maxAnswerBytes) tooLarge(c);
        },
        onResponseData(c, chunk) {
          if (settled) return;
          size += chunk.length;
          if (size > req.maxAnswerBytes) tooLarge(c);
          else chunks.push(chunk);
        },
        onResponseEnd() {
          settle(() => resolve({ status, headers, text: utf8(Buffer.concat(chunks, size)) }));
        },
        onResponseError(_c, err) {
          settle(() => reject(err));
        },
      };
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...req.headers },
          body: req.body,
        },
        handler,
      );
    });
  }

  return {
    send,
    async close() {
      await dispatcher.close();
    },
  };
}
