// The lean transport (see transport.ts): node:http and node:https with keep-alive, for requests made one at a
// time. The modules are taken from src/core/node.ts rather than imported: an ES module's `import` of node:http builds
// a namespace that loads the undici bundled with Node 22 and 24 (some 25 ms), which is what this transport is
// here to avoid. node:https (and with it TLS) is loaded only for an https:// address.

import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { utf8, type Transport, type TransportAnswer, type TransportRequest } from './transport.js';
import { nodeHttp, nodeHttps } from '../core/node.js';

/** As undici: a connection not made within 10 s is given up, and the request was certainly not sent. */
const CONNECT_TIMEOUT_MS = 10_000;

/** An error with a code, as Node's and undici's are (client.ts reads the code). */
function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

export function createHttpTransport(): Transport {
  const http = nodeHttp();
  const agent = new http.Agent({ keepAlive: true });
  let secure: { https: typeof Https; agent: Https.Agent } | undefined;
  const tls = () => {
    if (!secure) {
      const https = nodeHttps();
      secure = { https, agent: new https.Agent({ keepAlive: true }) };
    }
    return secure;
  };

  function send(req: TransportRequest): Promise<TransportAnswer> {
    return new Promise<TransportAnswer>((resolve, reject) => {
      const url = new URL(req.url);
      const isHttps = url.protocol === 'https:';
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        req.signal.removeEventListener('abort', onAbort);
        fn();
      };
      const fail = (err: unknown) => settle(() => reject(err));
      const answer = (a: TransportAnswer) => settle(() => resolve(a));

      const options: Http.RequestOptions = {
        method: 'POST',
        agent: isHttps ? tls().agent : agent,
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
      };
      const request = isHttps ? tls().https.request(url, options) : http.request(url, options);
      // Listened for first: a request destroyed at once (a signal aborted already) reports its hang-up as an error.
      request.on('error', fail);
      const onAbort = () => {
        fail(req.signal.reason);
        request.destroy();
      };
      if (req.signal.aborted) {
        onAbort();
        return;
      }
      req.signal.addEventListener('abort', onAbort, { once: true });

      request.on('socket', (socket) => {
        // A kept-alive connection is connected already.
        if (!socket.connecting) return;
        connectTimer = setTimeout(
          () => request.destroy(codedError('connect timeout', 'UND_ERR_CONNECT_TIMEOUT')),
          CONNECT_TIMEOUT_MS,
        );
        socket.once(isHttps ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      // The whole request is handed to the connection.
      request.on('finish', () => req.onSent?.());
      request.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const headers = res.headers;
        const tooLarge = () => {
          answer({ status, headers, text: undefined });
          // Reading stops here and the connection is dropped, not kept for another request.
          res.destroy();
          request.destroy();
        };
        const announced = Number(headers['content-length']);
        if (Number.isFinite(announced) && announced > req.maxAnswerBytes) {
          tooLarge();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          size += chunk.length;
          if (size > req.maxAnswerBytes) tooLarge();
          else chunks.push(chunk);
        });
        res.on('end', () => answer({ status, headers, text: utf8(Buffer.concat(chunks, size)) }));
        res.on('error', fail);
        res.on('close', () => {
          if (!res.complete) fail(codedError('the connection closed before the answer ended', 'ECONNRESET'));
        });
      });
      request.end(req.body);
    });
  }

  return {
    send,
    async close() {
      agent.destroy();
      secure?.agent.destroy();
    },
  };
}
