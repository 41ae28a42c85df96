// Every page of a paged read at the service's ceiling. One page at a time, a list runs at one page per round
// trip: with a second of latency, a third of the 3 requests a second the service allows. So once the first page
// says how many there are, the next ones are asked for several at a time (the pacer still starts no more than
// 3 a second) and handed on strictly in order: a page that comes early waits in a small reorder buffer. At most
// `window` pages are in flight or waiting at once, so memory stays flat however long the list.
// Without a page count (an answer without page information), pages are read one after the other until one is
// short.

export interface PagedRead<P> {
  /** The first page to read (1-based). */
  start: number;
  /** Reads page `n`; `signal` aborts it when the read stops early. */
  fetch(n: number, signal: AbortSignal): Promise<P>;
  /** The last page to read, from the first page's answer; undefined when the answer does not tell. */
  last(first: P): number | undefined;
  /** Without a page count: whether another page follows this one. */
  more(page: P): boolean;
  /** Each page, in order; false stops the read (pages in flight are aborted and dropped). */
  onPage(page: P, n: number): boolean | void;
  /** Pages in flight or waiting to be handed on, at most; default 8. */
  window?: number;
}

export const DEFAULT_PAGE_WINDOW = 8;

/** Reads the pages (see the top of this file). Rejects with the first failure, once nothing is in flight. */
export async function readPages<P>(read: PagedRead<P>): Promise<void> {
  const stop = new AbortController();
  try {
    const first = await read.fetch(read.start, stop.signal);
    if (read.onPage(first, read.start) === false) return;
    const last = read.last(first);
    if (last === undefined) {
      let page = first;
      for (let n = read.start + 1; read.more(page); n++) {
        page = await read.fetch(n, stop.signal);
        if (read.onPage(page, n) === false) return;
      }
      return;
    }
    await inOrder(read, read.start + 1, last, stop);
  } finally {
    stop.abort();
  }
}

/**
 * Pages `from`..`last`, up to `window` at once, handed on in order. After a failure, or when onPage stops the
 * read, the pages in flight are aborted, and the promise settles once none is left.
 */
function inOrder<P>(read: PagedRead<P>, from: number, last: number, stop: AbortController): Promise<void> {
  const window = Math.max(1, read.window ?? DEFAULT_PAGE_WINDOW);
  return new Promise<void>((resolve, reject) => {
    const arrived = new Map<number, P>();
    let next = from;
    let launched = from;
    let inFlight = 0;
    let failed: { err: unknown } | undefined;
    let ended = false;
    const end = (failure?: { err: unknown }) => {
      if (!ended) {
        ended = true;
        failed = failure;
        arrived.clear();
        stop.abort();
      }
      if (inFlight > 0) return;
      if (failed) reject(failed.err);
      else resolve();
    };
    const pump = () => {
      if (ended) return end(failed);
      try {
        // Hand on what is next in order.
        while (arrived.has(next)) {
          const page = arrived.get(next) as P;
          arrived.delete(next);
          if (read.onPage(page, next) === false) return end();
          next += 1;
        }
      } catch (err) {
        return end({ err });
      }
      if (next > last) return end();
      while (launched <= last && launched < next + window) {
        const n = launched++;
        inFlight += 1;
        read.fetch(n, stop.signal).then(
          (page) => {
            inFlight -= 1;
            if (!ended) arrived.set(n, page);
            pump();
          },
          (err: unknown) => {
            inFlight -= 1;
            // Pages aborted because the read ended are no failure of their own.
            if (ended) end(failed);
            else end({ err });
          },
        );
      }
    };
    pump();
  });
}
