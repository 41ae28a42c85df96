// What the listener's forward tests share: an app to forward to, a URL where none listens, signed notifications,
// temporary folders, all closed or removed after each test, and a wait for what the listener says.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

/** Run `close` after the test (in the reverse order of registration). */
export function afterTest(close: () => Promise<unknown>): void {
  closers.push(close);
}

export async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'trk-forward-'));
  afterTest(() => rm(d, { recursive: true, force: true }));
  return d;
}

/** The `sign` header of `body` under `key` (v2). */
export function signed(body: Buffer, key: string): { sign: string } {
  return {
    sign: createHash('sha256')
      .update(Buffer.concat([body, Buffer.from(`/${key}`)]))
      .digest('hex'),
  };
}

export const stopped = (number: string): Buffer =>
  Buffer.from(JSON.stringify({ event: 'TRACKING_STOPPED', data: { number, carrier: 2151 } }));

export interface Received {
  body: Buffer;
  headers: IncomingHttpHeaders;
  raw: string[];
}

export interface App {
  url: string;
  got: Received[];
  close: () => Promise<unknown>;
}

/** The app: answers each delivery with the next of `statuses` (then 200), and keeps what it got. */
export async function app(statuses: number[] = []): Promise<App> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks), headers: req.headers, raw: req.rawHeaders });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () => new Promise((r) => server.close(r));
  afterTest(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/app`, got, close };
}

/**
 * A URL nothing listens on: an app that is down. Port 1, where no test can listen (a port closed after listening
 * could be taken by another test's server on a busy machine).
 */
export async function deadUrl(): Promise<string> {
  return 'http://127.0.0.1:1/app';
}

/** Resolves once `check()` holds, polled until the test's time limit. */
export async function until(check: () => boolean): Promise<void> {
  // Real time: what is waited for comes from sockets and files.
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}
