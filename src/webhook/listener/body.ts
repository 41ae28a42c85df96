// Reading one request's body: up to a size (past that the rest is discarded unread), and at a pace. A sender
// that trickles its body holds a turn that genuine notifications need, so once the first seconds have passed
// (`graceMs`) the body must have come at `minBytesPerSecond` on average since its turn began, or it is cut off.
// The service sends a notification in one go: a few KB arrive within milliseconds.

import type { IncomingMessage } from 'node:http';

/** `too-large` past the limit; `too-slow` below the pace; `cut-off` when the request ended before its body. */
export type BodyOutcome = Buffer | 'too-large' | 'too-slow' | 'cut-off';

export interface BodyLimits {
  maxBytes: number;
  minBytesPerSecond: number;
  graceMs: number;
}

export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    const settle = (v: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      chunks = [];
      resolve(v);
    };
    // Checked when the body is due to have reached the pace: at the grace, then whenever what has come so far
    // would fall behind it.
    const checkPace = () => {
      const elapsed = performance.now() - started;
      const dueBy = (size / limits.minBytesPerSecond) * 1000;
      if (dueBy < elapsed) settle('too-slow');
      else timer = setTimeout(checkPace, dueBy - elapsed + 1);
    };
    timer = setTimeout(checkPace, limits.graceMs);
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limits.maxBytes) settle('too-large');
      else chunks.push(chunk);
    });
    req.on('end', () => settle(Buffer.concat(chunks)));
    req.on('error', () => settle('cut-off'));
    req.on('close', () => {
      if (!req.complete) settle('cut-off');
    });
  });
}
