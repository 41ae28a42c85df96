// Every page of a list, and THE reader of the service's list (trackListPages): what `trk list`, `trk sync`, the
// item engine's lookups and the registered-number lookup all page through; no other module asks for a page of
// gettracklist (test/architecture.test.ts holds it).
//
// One page at a time, a list runs at one page per round trip: with a second of latency, a third of the
// 3 requests a second the service allows. So once the first page says how many there are, the next ones are
// asked for several at a time (the pacer still starts no more than 3 a second) and handed on strictly in order:
// a page that comes early waits until those before it are handed on. At most `window` pages are in flight or
// waiting at once, so memory stays flat however long the list, and however slowly the reader takes them (a pager
// that is not scrolled). Without a page count (an answer without page information), pages are read one after
// the other until one is short.
//
// The service's counts are not trusted blindly: a `page_total` of a billion (or one that does not parse as a
// finite number) with the same page served again and again would otherwise be read for ever. The pages read
// are bounded by what `data_total` records fill, a short or empty page is the last one, and a page that repeats
// an earlier one, or a short page before the last page the service announced, ends the read with a PagingError
// naming the inconsistency: what was read cannot be the whole list.

import { InterruptedError, TrkError, stopExitCode } from '../core/errors.js';
import { fmt, plural } from '../core/text.js';
import type { Item } from '@trk/service/operations/index.js';
import type { Envelope, TrackListFilter, TrackRecord } from '@trk/service/types.js';
import { LIMITS, type ApiVersion } from '@trk/service/vocabulary.js';
import type { ApiClient } from './client.js';
import { requestBody, wireBody } from './request-body.js';

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
  /** Pages in flight or waiting to be handed on, at most (1: one after the other); default 8. */
  window?: number | undefined;
}

const DEFAULT_PAGE_WINDOW = 8;

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
function lastPage(first: PageFacts, start: number, pageSize: number, most?: number): number | undefined {
  const total = count(first.total);
  const bounds = [count(first.pages), total === undefined ? undefined : Math.ceil(total / pageSize)];
  if (most !== undefined) bounds.push(start - 1 + most);
  const known = bounds.filter((b): b is number => b !== undefined);
  return known.length === 0 ? undefined : Math.max(start, Math.min(...known));
}

/** A short string naming a page's records: numbers and carriers hashed (53 bits, cyrb53). */
function fingerprintOf(keys: readonly string[]): string {
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
function trackListFacts(envelope: Envelope<unknown>): PageFacts {
  const records = (envelope.data?.accepted ?? []) as Record<string, unknown>[];
  const keys = records.map((r) => `${String(r?.number)}\u0000${String(r?.carrier ?? r?.w1 ?? '')}`);
  const pages = envelope.page?.page_total;
  return { records: records.length, fingerprint: fingerprintOf(keys), pages, total: envelope.page?.data_total };
}

/**
 * The pages of one read checked in order, from its first: whether each is the last, and a PagingError when one
 * repeats an earlier page or ends the read before the last page the service announced.
 */
class PageCheck {
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
 * The pages of any paged read in order (see the top of this file): what trackListPages reads the list with.
 * Leaving the loop early aborts the pages in flight; a failed page ends the read with its error, and so does a page
 * that cannot be right (PagingError). Either way the generator finishes once nothing is in flight.
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

/** What a gettracklist query matches: a filter, the numbers of the item engine's rows, or both. */
export interface TrackListQuery {
  /** v2 names, without page_no. */
  filter?: TrackListFilter | undefined;
  /** Rows whose numbers are looked up (200 at most): added to the filter as its number. */
  items?: readonly Item[] | undefined;
}

/** A page's request as a caller sends it; `stop` is aborted when the read ends before its answer is needed. */
export type SendPage<R> = (body: unknown, stop: AbortSignal) => Promise<Envelope<R>>;

export interface TrackListRead<R> {
  client: Pick<ApiClient, 'call' | 'version'>;
  /** The version the bodies are written in; default the client's. */
  version?: ApiVersion | undefined;
  query: TrackListQuery;
  /** The first page to read (--page); default 1. */
  from?: number | undefined;
  /** Pages wanted at most (--limit, --page): no page beyond them is asked for. */
  most?: number | undefined;
  /** Pages in flight or waiting at once (1: one after the other); default DEFAULT_PAGE_WINDOW. */
  window?: number | undefined;
  /**
   * Ctrl-C: cuts the requests short, and a page that comes in spite of it (a client that does not cut reads
   * short) is not handed on (InterruptedError).
   */
  signal?: AbortSignal | undefined;
  /** Each request the client's call makes, as it is made (a summary's count of requests). */
  onRequest?: (() => void) | undefined;
  /**
   * Sends a page's request through the caller's own retries and pacing (the item engine's, which counts its own
   * requests) rather than the client's call with its retries.
   */
  send?: SendPage<R> | undefined;
}

export interface TrackListPage<R> {
  pageNo: number;
  /** The page's records, as sent. */
  records: R[];
  /** The query's last page, as far as the service's counts agree (page_total bounded by data_total), once known. */
  pageTotal: number | undefined;
  /** The counts as this page sent them, unchecked. */
  dataTotal: number | undefined;
  sentPageTotal: number | undefined;
}

/**
 * The pages of one gettracklist query, in order, from `from` to the last one (see the top of this file). The
 * consumer stops early by leaving its loop: the pages in flight are aborted and nothing more is asked for.
 */
export async function* trackListPages<R = TrackRecord>(read: TrackListRead<R>): AsyncGenerator<TrackListPage<R>> {
  const from = read.from ?? 1;
  const version = read.version ?? read.client.version;
  const send = read.send ?? clientSend(read);
  const envelopes = readPages<Envelope<R>>({
    start: from,
    fetch: (pageNo, stop) => send(pageBody(version, read.query, pageNo), stop),
    facts: trackListFacts,
    pageSize: LIMITS.pageSize,
    most: read.most,
    window: read.window,
  });
  let pageNo = from;
  let pageTotal: number | undefined;
  for await (const envelope of envelopes) {
    if (read.signal?.aborted) throw new InterruptedError('interrupted', stopExitCode(read.signal));
    // The whole query's, not bounded by `most`: what a progress counter counts up to.
    if (pageNo === from) pageTotal = lastPage(trackListFacts(envelope), from, LIMITS.pageSize);
    yield {
      pageNo: pageNo++,
      records: envelope.data?.accepted ?? [],
      pageTotal,
      dataTotal: envelope.page?.data_total,
      sentPageTotal: envelope.page?.page_total,
    };
  }
}

/** The client's call, with its retries; reading changes nothing on the service, so Ctrl-C may cut it short. */
function clientSend<R>(read: TrackListRead<R>): SendPage<R> {
  return (body, stop) => {
    read.onRequest?.();
    const signal = read.signal ? AbortSignal.any([read.signal, stop]) : stop;
    return read.client.call<R>('gettracklist', body, { signal });
  };
}

/** Page `pageNo` of the query in `version`: the engine's rows as the operation writes items, else the filter. */
function pageBody(version: ApiVersion, query: TrackListQuery, pageNo: number): unknown {
  if (query.items) return requestBody('gettracklist', version, query.items, { filter: query.filter, page: pageNo });
  return wireBody('gettracklist', version, { ...query.filter, page_no: pageNo });
}
