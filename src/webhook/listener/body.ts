// Reading one request's body, up to a size; past that the rest is discarded unread.

import type { IncomingMessage } from 'node:http';

/** The body; `too-large` past the limit; `cut-off` when the request ended before its body did. */
export type BodyOutcome = Buffer | 'too-large' | 'cut-off';

export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (v: BodyOutcome) => {
      if (settled) return;
      settled = true;
      chunks = [];
      resolve(v);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) settle('too-large');
      else chunks.push(chunk);
    });
    req.on('end', () => settle(Buffer.concat(chunks)));
    req.on('error', () => settle('cut-off'));
    req.on('close', () => {
      if (!req.complete) settle('cut-off');
    });
  });
}
