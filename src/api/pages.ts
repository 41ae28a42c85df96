// Every page of a paged read at the service's ceiling. One page at a time, a list runs at one page per round
// trip: with a second of latency, a third of the 3 requests a second the service allows. So once the first page
// says how many there are, the next ones are asked for several at a time (the pacer still starts no more than
// 3 a second) and handed on strictly in order: a page that comes early waits until those before it are handed
// on. At most `window` pages are in flight or waiting at once, so memory stays flat however long the list, and
// however slowly the reader takes them (a pager that is not scrolled).
// Without a page count (an answer without page information), pages are read one after the other until one is
// short.
//
// The service's counts are not trusted blindly: a `page_total` of a billion (or one that does not parse as a
// finite number) with the same page served again and again would otherwise be read for ever. The pages read
// are bounded by what `data_total` records fill, a short or empty page is the last one, and a page that repeats
// an earlier one, or a short page before the last page the service announced, ends the read with a PagingError
// naming the inconsistency: what was read cannot be the whole list. The item engine's paged lookups
// (src/items/runner.ts) check their pages with the same PageCheck.

import { TrkError } from '../errors.js';
import { fmt, plural } from '../text.js';
import type { Envelope } from '../service/types.js';

/** What one page says: its records (how many, and a fingerprint of which), and the counts of the whole read. */
export interface PageFacts {
  /** Records on the page. */
  records: number;
  /** Names the page's records (their numbers and carriers, in order): equal for a page served twice. */
  fingerprint: string;
  /** `page_total`, as sent. */
  pages?: number | undefined;
  /** `data_total`, as sent. */
  total?: number | undefined;
}

export interface PagedRead<P> {
  /** The first page to read (1-based). */
  start: number;
  /** Reads page `n`; `signal` aborts it when the read stops early. */
  fetch(n: number, signal: AbortSignal): Promise<P>;
  /** What a page says (see PageFacts). */
  facts(page: P): PageFacts;
  /** Records of a full page: a page with fewer is the last one. */
  pageSize: number;
  /** Pages wanted at most from `start` (--limit, --page); default every one. */
  most?: number | undefined;
  /** Pages in flight or waiting to be handed on, at most; default 8. */
  window?: number;
}

export const DEFAULT_PAGE_WINDOW = 8;

/** The service's pages contradict each other or their counts: what was read is not the whole list. */
export class PagingError extends TrkError {
  constructor(detail: string) {
    super(`the service's pages do not add up: ${detail}`, {
      hint: 'what was read is incomplete; run the command again later, and report it to the service if it persists',
    });
  }
}

/** A count the service sent, when it is one (a whole number, not negative, finite). */
function count(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The last page of a read from `start`, from what its first page says: `page_total`, bounded by the pages
 * `data_total` records fill and by `most`; undefined when none of them says.
 */
export function lastPage(first: PageFacts, start: number, pageSize: number, most?: number): number | undefined {
  const total = count(first.total);
  const bounds = [count(first.pages), total === undefined ? undefined : Math.ceil(total / pageSize)];
  if (most !== undefined) bounds.push(start - 1 + most);
  const known = bounds.filter((b): b is number => b !== undefined);
  return known.length === 0 ? undefined : Math.max(start, Math.min(...known));
}

/** A short string naming a page's records: numbers and carriers hashed (53 bits, cyrb53). */
export function fingerprintOf(keys: readonly string[]): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (const key of keys) {
    for (let i = 0; i <= key.length; i++) {
      // The separator (i === length) keeps ["ab", "c"] apart from ["a", "bc"].
      const c = i < key.length ? key.charCodeAt(i) : 0;
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${keys.length}:${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}

/**
 * What a gettracklist answer says of itself, for PageCheck: its records (by number and carrier, `w1` in v1) and
 * the counts of the whole read.
 */
export function trackListFacts(envelope: Envelope<unknown>): PageFacts {
  const records = (envelope.data?.accepted ?? []) as Record<string, unknown>[];
  const keys = records.map((r) => `${String(r?.number)}\u0000${String(r?.carrier ?? r?.w1 ?? '')}`);
  const pages = envelope.page?.page_total;
  return { records: records.length, fingerprint: fingerprintOf(keys), pages, total: envelope.page?.data_total };
}

/**
 * The pages of one read checked in order, from its first: whether each is the last, and a PagingError when one
 * repeats an earlier page or ends the read before the last page the service announced.
 */
export class PageCheck {
  readonly #start: number;
  readonly #pageSize: number;
  readonly #most: number | undefined;
  readonly #seen = new Map<string, number>();
  #announced: PageFacts | undefined;
  /** The last page to read, once the first page has said (undefined: until a short page). */
  last: number | undefined;

  constructor(start: number, pageSize: number, most?: number) {
    this.#start = start;
    this.#pageSize = pageSize;
    this.#most = most;
  }

  /** Page `n` in its turn: true when it is the last one. Throws a PagingError when it cannot be right. */
  isLast(n: number, page: PageFacts): boolean {
    if (n === this.#start) {
      this.#announced = page;
      this.last = lastPage(page, this.#start, this.#pageSize, this.#most);
    }
    if (page.records > 0) {
      const earlier = this.#seen.get(page.fingerprint);
      if (earlier !== undefined) throw new PagingError(`page ${fmt(n)} repeats page ${fmt(earlier)}${this.#claim()}`);
      this.#seen.set(page.fingerprint, n);
    }
    const short = page.records < this.#pageSize;
    if (short && this.last !== undefined && n < this.last) {
      throw new PagingError(`page ${fmt(n)} has ${plural(page.records, 'record')}${this.#claim()}`);
    }
    return short || n === this.last;
  }

  /** What the service announced: `, but the service announced 5 pages (200 records)`. */
  #claim(): string {
    const pages = this.#announced?.pages;
    const total = this.#announced?.total;
    const parts: string[] = [];
    if (pages !== undefined) parts.push(plural(pages, 'page'));
    if (total !== undefined) parts.push(plural(total, 'record'));
    if (parts.length === 0) return '';
    return `, but the service announced ${parts.length === 2 ? `${parts[0]} (${parts[1]})` : parts[0]}`;
  }
}

/**
 * The pages in order (see the top of this file). Leaving the loop early aborts the pages in flight; a failed page
 * ends the read with its error, and so does a page that cannot be right (PagingError). Either way the generator
 * finishes once nothing is in flight.
 */
export async function* readPages<P>(read: PagedRead<P>): AsyncGenerator<P> {
  const stop = new AbortController();
  const inFlight = new Map<number, Promise<P>>();
  const check = new PageCheck(read.start, read.pageSize, read.most);
  try {
    const first = await read.fetch(read.start, stop.signal);
    const firstIsLast = check.isLast(read.start, read.facts(first));
    yield first;
    if (firstIsLast) return;
    const last = check.last;
    const window = Math.max(1, read.window ?? DEFAULT_PAGE_WINDOW);
    // Without a page count, one page at a time: a short one ends the read, and nothing is asked for beyond it.
    const ahead = last === undefined ? 1 : window;
    let launched = read.start + 1;
    for (let n = read.start + 1; ; n++) {
      while ((last === undefined || launched <= last) && launched < n + ahead) {
        const page = read.fetch(launched, stop.signal);
        // Awaited in its turn below, or dropped when the read ends before it.
        page.catch(() => {});
        inFlight.set(launched++, page);
      }
      const page = await inFlight.get(n)!;
      inFlight.delete(n);
      const isLast = check.isLast(n, read.facts(page));
      yield page;
      if (isLast) return;
    }
  } finally {
    stop.abort();
    await Promise.allSettled(inFlight.values());
  }
}
