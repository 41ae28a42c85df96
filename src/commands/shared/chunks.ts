// Sending many items in requests of the size the service allows: split, run a few chunks at a time (the client's
// pacer keeps starts within the service's rate), and merge the accepted/rejected lists in input order.

import type { ItemResults, RejectedItem } from '../../api/types.js';

export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!(size >= 1)) throw new RangeError(`chunk size must be at least 1, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function mergeResults<A>(parts: readonly (ItemResults<A> | undefined)[]): ItemResults<A> {
  const accepted: A[] = [];
  const rejected: RejectedItem[] = [];
  for (const part of parts) {
    if (!part) continue;
    accepted.push(...part.accepted);
    rejected.push(...part.rejected);
  }
  return { accepted, rejected };
}

export interface ChunkRun<A> {
  /** Merged over the chunks that completed, in input order. */
  results: ItemResults<A>;
  /** The first failure; chunks not yet started when it happened were not sent. */
  error?: unknown;
  /** Items with no answer: in chunks never sent (after a failure or an interrupt) or in the chunk that failed. */
  unanswered: number;
}

export interface ChunkRunOptions {
  /** Requests in flight at once; default 4. */
  concurrency?: number;
  /**
   * Stops starting new chunks. Chunks already sent are left to finish: an aborted register could have charged
   * quota without telling us what was accepted.
   */
  signal?: AbortSignal;
}

/** Never rejects: a failure stops new starts and is returned with what did complete. */
export async function runChunks<T, A>(
  chunks: readonly (readonly T[])[],
  send: (chunk: readonly T[], index: number) => Promise<ItemResults<A>>,
  opts: ChunkRunOptions = {},
): Promise<ChunkRun<A>> {
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const done: (ItemResults<A> | undefined)[] = new Array(chunks.length);
  let next = 0;
  let error: unknown;
  let failed = false;

  const worker = async (): Promise<void> => {
    while (!failed && !opts.signal?.aborted && next < chunks.length) {
      const index = next++;
      try {
        done[index] = await send(chunks[index]!, index);
      } catch (err) {
        if (!failed) {
          failed = true;
          error = err;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));

  let unanswered = 0;
  chunks.forEach((c, i) => {
    if (done[i] === undefined) unanswered += c.length;
  });
  const run: ChunkRun<A> = { results: mergeResults(done), unanswered };
  if (failed) run.error = error;
  return run;
}
