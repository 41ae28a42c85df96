import { describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import type { ApiClient } from '../../src/api/client.js';
import { PagingError, readPages, trackListPages, type PagedRead, type PageFacts } from '../../src/api/pages.js';
import { InterruptedError } from '../../src/core/errors.js';
import type { Envelope } from '@trk/service/types.js';

interface Page {
  n: number;
  total?: number;
  short?: boolean;
}

/** Pages of 40 records, each its own unless `same`; a short one has 10. */
function factsOf(page: Page, extra: Partial<PageFacts> = {}): PageFacts {
  return { records: page.short ? 10 : 40, fingerprint: `page ${page.n}`, pages: page.total, ...extra };
}

/** A paged read of `total` pages whose answers take `latency(n)` ms; records what was asked and what is open. */
function paged(total: number | undefined, latency: (n: number) => number, overrides: Partial<PagedRead<Page>> = {}) {
  const log = { fetched: [] as number[], handed: [] as number[], open: 0, mostOpen: 0, aborted: 0 };
  const read: PagedRead<Page> = {
    start: 1,
    fetch: async (n, signal) => {
      log.fetched.push(n);
      log.open += 1;
      log.mostOpen = Math.max(log.mostOpen, log.open);
      try {
        await clock().sleep(latency(n), signal);
      } catch (err) {
        log.aborted += 1;
        throw err;
      } finally {
        log.open -= 1;
      }
      return { n, ...(total === undefined ? { short: n >= 5 } : { total, short: n === total }) };
    },
    facts: (page) => factsOf(page),
    pageSize: 40,
    window: 4,
    ...overrides,
  };
  const onPage = (page: Page): boolean | void => {
    log.handed.push(page.n);
  };
  return { read, log, onPage };
}

/** Reads every page, handing each to onPage in turn; false from onPage leaves the loop. */
async function drain(read: PagedRead<Page>, onPage: (page: Page) => boolean | void): Promise<void> {
  for await (const page of readPages(read)) if (onPage(page) === false) break;
}

describe('readPages', () => {
  it(
    'asks for several pages at once after the first, and hands them on in order whatever order they ' + 'come in',
    async () => {
      // Later pages answer first: every one of them has to wait in the buffer.
      const { read, log, onPage } = paged(20, (n) => (n === 1 ? 1 : 40 - (n % 4) * 10));
      await drain(read, onPage);
      expect(log.handed).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(log.mostOpen).toBe(4);
      expect(new Set(log.fetched).size).toBe(20);
    },
  );

  it('never holds more than the window of pages in flight or waiting', async () => {
    // Page 2 is slow: the pages after it arrive and wait, and no more than the window is asked for meanwhile.
    let outstanding = 0;
    let most = 0;
    const { read } = paged(30, (n) => (n === 2 ? 80 : 2), {
      fetch: async (n, signal) => {
        outstanding += 1;
        most = Math.max(most, outstanding);
        await clock().sleep(n === 2 ? 80 : 2, signal);
        return { n, total: 30 };
      },
    });
    await drain(read, () => {
      outstanding -= 1;
    });
    // The first page is handed on before any other is asked for.
    expect(most).toBeLessThanOrEqual(4);
  });

  it('stops when the reader leaves the loop: pages in flight are aborted and nothing more is asked for', async () => {
    const { read, log } = paged(50, () => 5);
    await drain(read, (page) => page.n < 6);
    expect(log.aborted).toBeGreaterThan(0);
    expect(Math.max(...log.fetched)).toBeLessThanOrEqual(6 + 4);
    expect(log.open).toBe(0);
  });

  it(
    'a failing page rejects the read with its error once nothing is in flight; nothing after it is ' + 'handed on',
    async () => {
      const handed: number[] = [];
      let open = 0;
      const { read } = paged(12, () => 5, {
        fetch: async (n, signal) => {
          open += 1;
          try {
            await clock().sleep(n === 4 ? 1 : 10, signal);
          } finally {
            open -= 1;
          }
          if (n === 4) throw new Error('page 4 failed');
          return { n, total: 12 } as Page;
        },
      });
      await expect(
        drain(read, (page) => {
          handed.push(page.n);
        }),
      ).rejects.toThrow('page 4 failed');
      expect(handed).toEqual([1, 2, 3]);
      expect(open).toBe(0);
    },
  );

  it('without a page count, reads one page after the other until one says there is no more', async () => {
    const { read, log, onPage } = paged(undefined, () => 1);
    await drain(read, onPage);
    expect(log.handed).toEqual([1, 2, 3, 4, 5]);
    expect(log.mostOpen).toBe(1);
  });

  it('a count of one page, or a read starting at its last page, asks for nothing more', async () => {
    const one = paged(1, () => 1);
    await drain(one.read, one.onPage);
    expect(one.log.fetched).toEqual([1]);
    const atEnd = paged(3, () => 1, { start: 3 });
    await drain(atEnd.read, atEnd.onPage);
    expect(atEnd.log.fetched).toEqual([3]);
  });
});

describe('readPages against counts that cannot be right', () => {
  /** A service that answers every page with `page(n)`; records what was asked. */
  function service(page: (n: number) => PageFacts, most?: number) {
    const fetched: number[] = [];
    const read: PagedRead<PageFacts> = {
      start: 1,
      fetch: async (n) => {
        fetched.push(n);
        // On the tests' clock (no real time): a page answers after the others were asked, as over a network.
        await clock().sleep(1);
        return page(n);
      },
      facts: (p) => p,
      pageSize: 40,
      window: 4,
      ...(most === undefined ? {} : { most }),
    };
    return { read, fetched };
  }

  async function handed(read: PagedRead<PageFacts>): Promise<{ pages: number; error: unknown }> {
    let pages = 0;
    try {
      for await (const _ of readPages(read)) pages += 1;
      return { pages, error: undefined };
    } catch (error) {
      return { pages, error };
    }
  }

  it('a billion pages of the same page: refused at the first repeat, a window of pages asked for at most', async () => {
    const { read, fetched } = service(() => ({ records: 40, fingerprint: 'same', pages: 1e9, total: 4e10 }));
    const { pages, error } = await handed(read);
    expect(error).toBeInstanceOf(PagingError);
    expect((error as Error).message).toBe(
      "the service's pages do not add up: page 2 repeats page 1, but the service announced 1,000,000,000 pages " +
        '(40,000,000,000 records)',
    );
    expect(pages).toBe(1);
    expect(Math.max(...fetched)).toBeLessThanOrEqual(5);
  });

  it('a page count that is not a finite number is no count: pages one at a time until a repeat', async () => {
    const { read, fetched } = service(() => ({ records: 40, fingerprint: 'same', pages: Number.POSITIVE_INFINITY }));
    const { error } = await handed(read);
    expect((error as Error).message).toBe(
      "the service's pages do not add up: page 2 repeats page 1, but the service announced Infinity pages",
    );
    expect(fetched).toEqual([1, 2]);
  });

  it('pages are bounded by what data_total records fill, whatever page_total says', async () => {
    const { read, fetched } = service((n) => ({
      records: n < 3 ? 40 : 20,
      fingerprint: `p${n}`,
      pages: 1e9,
      total: 100,
    }));
    const { pages, error } = await handed(read);
    expect(error).toBeUndefined();
    expect(pages).toBe(3);
    expect(fetched.sort()).toEqual([1, 2, 3]);
  });

  it('a short or empty page before the last one announced fails the read; nothing after it is handed on', async () => {
    const { read } = service((n) => ({ records: n === 2 ? 7 : 40, fingerprint: `p${n}`, pages: 5, total: 200 }));
    const { pages, error } = await handed(read);
    expect((error as Error).message).toBe(
      "the service's pages do not add up: page 2 has 7 records, but the service announced 5 pages (200 records)",
    );
    expect(pages).toBe(1);
    const empty = service((n) => ({ records: n === 3 ? 0 : 40, fingerprint: `p${n}`, pages: 4 }));
    expect(((await handed(empty.read)).error as Error).message).toBe(
      "the service's pages do not add up: page 3 has 0 records, but the service announced 4 pages",
    );
  });

  it('without counts, a short or empty page is the last one, and nothing is asked for beyond it', async () => {
    const { read, fetched } = service((n) => ({ records: n < 3 ? 40 : 0, fingerprint: `p${n}` }));
    const { pages, error } = await handed(read);
    expect(error).toBeUndefined();
    expect(pages).toBe(3);
    expect(fetched).toEqual([1, 2, 3]);
  });

  it('a page that repeats one further back is refused too', async () => {
    const { read } = service((n) => ({ records: 40, fingerprint: `p${n % 2}`, pages: 10 }));
    expect(((await handed(read)).error as Error).message).toMatch(/page 3 repeats page 1/);
  });

  it('--limit bounds the pages asked for', async () => {
    const { read, fetched } = service((n) => ({ records: 40, fingerprint: `p${n}`, pages: 1e9 }), 2);
    const { pages } = await handed(read);
    expect(pages).toBe(2);
    expect(fetched).toEqual([1, 2]);
  });
});

describe('trackListPages: the one reader of the list', () => {
  /** A list of `total` records, 40 a page, each named by its number; records every body asked for. */
  function list(total: number, opts: { version?: 'v1' | 'v2' | 'v2.1'; onCall?: () => void } = {}) {
    const bodies: Record<string, unknown>[] = [];
    const answer = (body: Record<string, unknown>): Envelope<Record<string, unknown>> => {
      const pageNo = Number(body.page_no);
      const first = (pageNo - 1) * 40;
      const count = Math.max(0, Math.min(40, total - first));
      const accepted = Array.from({ length: count }, (_, i) => ({ number: `N${first + i + 1}`, carrier: 1 }));
      const page = { data_total: total, page_total: Math.ceil(total / 40), page_no: pageNo, page_size: 40 };
      return { code: 0, data: { accepted }, page };
    };
    const client = {
      version: opts.version ?? 'v2',
      call: async (_op: string, body: unknown) => {
        bodies.push(body as Record<string, unknown>);
        opts.onCall?.();
        // On the tests' clock (no real time): an answer comes after the requests in flight were sent.
        await clock().sleep(1);
        return answer(body as Record<string, unknown>);
      },
    } as unknown as Pick<ApiClient, 'call' | 'version'>;
    return { client, bodies, answer };
  }

  async function pagesOf<R>(pages: AsyncIterable<R>): Promise<R[]> {
    const out: R[] = [];
    for await (const page of pages) out.push(page);
    return out;
  }

  it('asks for every page of the filter, page_no counting up, and hands them on with the counts', async () => {
    const { client, bodies } = list(100);
    let requests = 0;
    const pages = await pagesOf(
      trackListPages({ client, query: { filter: { package_status: 'Delivered' } }, onRequest: () => requests++ }),
    );
    expect(pages.map((p) => [p.pageNo, p.records.length, p.pageTotal, p.dataTotal, p.sentPageTotal])).toEqual([
      [1, 40, 3, 100, 3],
      [2, 40, 3, 100, 3],
      [3, 20, 3, 100, 3],
    ]);
    expect(bodies.map((b) => [b.package_status, b.page_no]).sort()).toEqual([
      ['Delivered', 1],
      ['Delivered', 2],
      ['Delivered', 3],
    ]);
    expect(requests).toBe(3);
  });

  it("from a page, at most some pages; the total still the whole query's", async () => {
    const { client, bodies } = list(400);
    const pages = await pagesOf(trackListPages({ client, query: {}, from: 3, most: 2 }));
    expect(pages.map((p) => [p.pageNo, p.pageTotal])).toEqual([
      [3, 10],
      [4, 10],
    ]);
    expect(bodies.map((b) => b.page_no).sort()).toEqual([3, 4]);
  });

  it("the engine's rows as the operation writes them: their numbers once each, in the version's names", async () => {
    const { client, bodies } = list(3, { version: 'v1' });
    const items = [{ number: 'A1' }, { number: 'A1', carrier: 3 }, { number: 'B2' }];
    await pagesOf(trackListPages({ client, query: { items, filter: { package_status: 'Delivered' } } }));
    expect(bodies).toHaveLength(1);
    // v1 names a status by its code.
    expect(bodies[0]).toEqual({ number: 'A1,B2', package_status: 40, page_no: 1 });
  });

  it('one page after the other with a window of one', async () => {
    let open = 0;
    let most = 0;
    const { client } = list(200);
    const call = client.call.bind(client);
    const counting = {
      version: client.version,
      call: async (op: 'gettracklist', body: unknown) => {
        most = Math.max(most, ++open);
        try {
          return await call(op, body);
        } finally {
          open -= 1;
        }
      },
    } as unknown as Pick<ApiClient, 'call' | 'version'>;
    expect(await pagesOf(trackListPages({ client: counting, query: {}, window: 1 }))).toHaveLength(5);
    expect(most).toBe(1);
  });

  it("sends through the caller's own sending when given (its retries, its count), never the client's", async () => {
    const { client, bodies, answer } = list(50);
    const sent: unknown[] = [];
    const pages = await pagesOf(
      trackListPages({
        client: { ...client, call: () => Promise.reject(new Error('not the client')) },
        query: {},
        send: async (body) => {
          sent.push(body);
          return answer(body as Record<string, unknown>);
        },
      }),
    );
    expect(pages.map((p) => p.records.length)).toEqual([40, 10]);
    expect(sent).toHaveLength(2);
    expect(bodies).toEqual([]);
  });

  it('a page that comes in spite of Ctrl-C is not handed on', async () => {
    const stop = new AbortController();
    // A client that does not cut reads short.
    const { client } = list(200, { onCall: () => stop.abort() });
    const handed: number[] = [];
    const read = async () => {
      for await (const page of trackListPages({ client, query: {}, signal: stop.signal })) handed.push(page.pageNo);
    };
    await expect(read()).rejects.toBeInstanceOf(InterruptedError);
    expect(handed).toEqual([]);
  });

  it('pages that cannot be right end the read with a PagingError', async () => {
    const { client } = list(200);
    const same = {
      version: client.version,
      call: async () => ({
        code: 0,
        data: { accepted: Array.from({ length: 40 }, () => ({ number: 'SAME', carrier: 1 })) },
        page: { data_total: 200, page_total: 5, page_no: 1, page_size: 40 },
      }),
    } as unknown as Pick<ApiClient, 'call' | 'version'>;
    await expect(pagesOf(trackListPages({ client: same, query: {} }))).rejects.toBeInstanceOf(PagingError);
  });
});
