// A local stand-in for the service's resource address: serves the shared reference lists at
// /asset/carrier/info/... on 127.0.0.1, counts requests, and can be made to fail or to serve other bodies.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { REFERENCE } from '../fixture-files.js';

export interface ReferenceServer {
  url: string;
  /** Requests per list file name. */
  hits: Record<string, number>;
  /** Answer every request with this status instead (e.g. 503), or undefined for normal service. */
  failWith: number | undefined;
  /** Replace what a file serves. */
  bodies: Record<string, string | Buffer>;
  close(): Promise<void>;
}

export async function startReferenceServer(): Promise<ReferenceServer> {
  const state: ReferenceServer = {
    url: '',
    hits: {},
    failWith: undefined,
    bodies: {
      'apicarrier.all.json': readFileSync(path.join(REFERENCE, 'apicarrier.all.json')),
      'country.all.json': readFileSync(path.join(REFERENCE, 'country.all.json')),
    },
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const m = /^\/asset\/carrier\/info\/([\w.]+)$/.exec(req.url ?? '');
    const name = m?.[1];
    if (name) state.hits[name] = (state.hits[name] ?? 0) + 1;
    if (state.failWith !== undefined) return void res.writeHead(state.failWith).end();
    const body = name ? state.bodies[name] : undefined;
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
