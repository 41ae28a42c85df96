import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readPages, type PagedRead } from '../../src/api/pages.js';

interface Page {
  n: number;
  total?: number;
  short?: boolean;
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
        await delay(latency(n), undefined, { signal });
      } catch (err) {
        log.aborted += 1;
        throw err;
      } finally {
        log.open -= 1;
      }
      return { n, ...(total === undefined ? { short: n >= 5 } : { total }) };
    },
    last: (first) => first.total,
    more: (page) => !page.short,
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
  it('asks for several pages at once after the first, and hands them on in order whatever order they come in', async () => {
    // Later pages answer first: every one of them has to wait in the buffer.
    const { read, log, onPage } = paged(20, (n) => (n === 1 ? 1 : 40 - (n % 4) * 10));
    await drain(read, onPage);
    expect(log.handed).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(log.mostOpen).toBe(4);
    expect(new Set(log.fetched).size).toBe(20);
  });

  it('never holds more than the window of pages in flight or waiting', async () => {
    // Page 2 is slow: the pages after it arrive and wait, and no more than the window is asked for meanwhile.
    let outstanding = 0;
    let most = 0;
    const { read } = paged(30, (n) => (n === 2 ? 80 : 2), {
      fetch: async (n, signal) => {
        outstanding += 1;
        most = Math.max(most, outstanding);
        await delay(n === 2 ? 80 : 2, undefined, { signal });
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

  it('a failing page rejects the read with its error once nothing is in flight; nothing after it is handed on', async () => {
    const handed: number[] = [];
    let open = 0;
    const { read } = paged(12, () => 5, {
      fetch: async (n, signal) => {
        open += 1;
        try {
          await delay(n === 4 ? 1 : 10, undefined, { signal });
        } finally {
          open -= 1;
        }
        if (n === 4) throw new Error('page 4 failed');
        return { n, total: 12 };
      },
    });
    await expect(
      drain(read, (page) => {
        handed.push(page.n);
      }),
    ).rejects.toThrow('page 4 failed');
    expect(handed).toEqual([1, 2, 3]);
    expect(open).toBe(0);
  });

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
