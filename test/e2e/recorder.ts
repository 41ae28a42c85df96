// A recording pass-through between trk and the emulator, both on 127.0.0.1: every request is forwarded as it
// came and kept (path, headers, body) with the status it got, so tests can check exactly what trk put on the
// wire (paths and their casing, request shapes per API version) as well as what the emulator made of it. An answer
// may be rewritten on its way back (`answer`), to give trk what the service can send and the emulator does not.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** e.g. /track/v1/Retrack */
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  body: unknown;
  /** The emulator's HTTP status. */
  status: number;
}

export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  /** Requests since `mark()` (or all of them): what one command sent. */
  since(mark: number): RecordedRequest[];
  mark(): number;
  close(): Promise<void>;
}

export interface RecorderOptions {
  /** The answer's body as trk gets it, from the emulator's and the request's path. */
  answer?: (body: string, path: string) => string;
  /** A status to answer in the emulator's stead (the request not forwarded), e.g. 404 for a version refused. */
  refuse?: (path: string) => number | undefined;
}

export async function startRecorder(target: string, opts: RecorderOptions = {}): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (
          v !== undefined &&
          !['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'].includes(k)
        ) {
          headers[k] = Array.isArray(v) ? v.join(', ') : v;
        }
      }
      const path = req.url ?? '/';
      const refused = opts.refuse?.(path);
      if (refused !== undefined) {
        requests.push({ method: req.method ?? '', path, headers: req.headers, raw, body, status: refused });
        res.writeHead(refused, { 'content-type': 'text/plain' }).end('Not Found');
        return;
      }
      void fetch(`${target}${path}`, { method: req.method ?? 'POST', headers, ...(raw === '' ? {} : { body: raw }) })
        .then(async (answer) => {
          const text = (opts.answer ?? ((body) => body))(await answer.text(), path);
          requests.push({ method: req.method ?? '', path, headers: req.headers, raw, body, status: answer.status });
          const out: Record<string, string> = {
            'content-type': answer.headers.get('content-type') ?? 'application/json',
          };
          const retryAfter = answer.headers.get('retry-after');
          if (retryAfter !== null) out['retry-after'] = retryAfter;
          res.writeHead(answer.status, out).end(text);
        })
        .catch((err: unknown) => {
          requests.push({ method: req.method ?? '', path, headers: req.headers, raw, body, status: 0 });
          res.destroy(err as Error);
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    mark: () => requests.length,
    since: (mark) => requests.slice(mark),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
