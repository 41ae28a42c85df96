// Reading an HTTP answer with a ceiling: an endless or runaway body costs no more memory than the ceiling. Used for
// the service's answers (client.ts) and its reference lists (carriers/lists.ts).

import type { Dispatcher } from 'undici';

/**
 * The body as text (UTF-8, a BOM removed as undici's own text() does), or undefined once it passes `limit` bytes,
 * announced or counted: reading stops there and the connection is dropped.
 */
export async function readBounded(res: Dispatcher.ResponseData, limit: number): Promise<string | undefined> {
  const announced = Number(res.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) {
    res.body.destroy();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      res.body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}

/** `8 MB`, `512 KB`. */
export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : `${Math.round(n / 1024)} KB`;
}
