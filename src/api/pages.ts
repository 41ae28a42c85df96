// Every page of a paged read at the service's ceiling. One page at a time, a list runs at one page per round
// trip: with a second of latency, a third of the 3 requests a second the service allows. So once the first page
// says how many there are, the next ones are asked for several at a time (the pacer still starts no more than
// 3 a second) and handed on strictly in order: a page that comes early waits until those before it are handed
// on. At most `window` pages are in flight or waiting at once, so memory stays flat however long the list, and
// however slowly the reader takes them (a pager that is not scrolled).
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
  /** Pages in flight or waiting to be handed on, at most; default 8. */
  window?: number;
}

export const DEFAULT_PAGE_WINDOW = 8;

/**
 * The pages in order (see the top of this file). Leaving the loop early aborts the pages in flight; a failed page
 * ends the read with its error. Either way the generator finishes once nothing is in flight.
 */
export async function* readPages<P>(read: PagedRead<P>): AsyncGenerator<P> {
  const stop = new AbortController();
  const inFlight = new Map<number, Promise<P>>();
  try {
    const first = await read.fetch(read.start, stop.signal);
    yield first;
    const last = read.last(first);
    if (last === undefined) {
      let page = first;
      for (let n = read.start + 1; read.more(page); n++) {
        page = await read.fetch(n, stop.signal);
        yield page;
      }
      return;
    }
    const window = Math.max(1, read.window ?? DEFAULT_PAGE_WINDOW);
    let launched = read.start + 1;
    for (let n = read.start + 1; n <= last; n++) {
      while (launched <= last && launched < n + window) {
        const page = read.fetch(launched, stop.signal);
        // Awaited in its turn below, or dropped when the read ends before it.
        page.catch(() => {});
        inFlight.set(launched++, page);
      }
      const page = await inFlight.get(n)!;
      inFlight.delete(n);
      yield page;
    }
  } finally {
    stop.abort();
    await Promise.allSettled(inFlight.values());
  }
}
