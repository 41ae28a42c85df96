// HTTP plumbing shared by the emulator's API, res URL and control endpoints: reading a body within a cap, JSON
// answers, the body of HTTP-level refusals, and the URL a listening address is reached at.

import type { IncomingMessage, ServerResponse } from 'node:http';

/** Body of HTTP-level refusals, in the shape the live service uses for 401: `code` is the HTTP status. */
export function httpError(status: number, code: number, message: string): Record<string, unknown> {
  return { code: status, data: { errors: [{ code, message }] } };
}

/** A JSON answer with a Content-Length (keep-alive connections need it). */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  return value.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * The whole body, or undefined when it exceeds `max` bytes. An oversized body is still read to the end
 * (and thrown away), so that the client gets its 413 rather than a reset while it is still sending; past
 * DISCARD_LIMIT the connection is cut.
 */
export function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
      else if (size > DISCARD_LIMIT) req.socket.destroy();
    });
    req.once('end', () => resolve(size <= max ? Buffer.concat(chunks) : undefined));
    // A client that goes away mid-body leaves nobody to answer: not an error of the sandbox.
    req.once('error', () => reject(new ClientGone()));
    req.once('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

const DISCARD_LIMIT = 64 * 1024 * 1024;

export class ClientGone extends Error {}

export function urlHost(host: string): string {
  // A sandbox listening on every interface is still reached locally through loopback.
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
