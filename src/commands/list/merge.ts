// Records of several queries (one per combination of OR'ed filter values) as one list: merged in the order asked
// for (--order-by; registration time, oldest first, otherwise, the emulator's and the usual default), each record
// once (a number under two carriers is two records). Each query's own order is kept whatever the service does, so
// an order the service applies differently still gives every record once. One query is passed through as is.

import type { OrderBy } from '@trk/service/vocabulary.js';
import type { TrackRecord } from '@trk/service/types.js';
import { epochOf } from '@trk/service/times.js';
import type { TrackListPage } from '../../api/pages.js';

/** How far the fetching has got, over every query. */
/** A page of one query, as the list's reader hands it on. */
type ListPage = TrackListPage<TrackRecord>;

export interface ListProgress {
  pagesDone: number;
  /** Every page of every query, once each query's first page said. */
  pagesTotal: number | undefined;
  /** Records of every query (a record matching two queries is counted twice), once known. */
  dataTotal: number | undefined;
}

const ORDER_FIELD: Readonly<Record<string, keyof TrackRecord>> = {
  RegisterTime: 'register_time',
  PushTime: 'push_time',
  TrackTime: 'track_time',
};

/** `a` before `b`? By the order's time; a record without that time goes first, as soon as it is at the head. */
function comesFirst(order: string, a: TrackRecord, b: TrackRecord): boolean {
  const m = /^(RegisterTime|PushTime|TrackTime)(Asc|Desc)$/.exec(order);
  const field = ORDER_FIELD[m?.[1] ?? 'RegisterTime']!;
  const ta = epochOf(typeof a[field] === 'string' ? (a[field] as string) : null);
  const tb = epochOf(typeof b[field] === 'string' ? (b[field] as string) : null);
  if (ta === null) return true;
  if (tb === null) return false;
  return m?.[2] === 'Desc' ? ta > tb : ta < tb;
}

export function recordKey(r: TrackRecord): string {
  return `${String(r.number)}\u0000${String(r.carrier ?? '')}`;
}

interface Queue {
  pages: AsyncIterator<ListPage>;
  records: TrackRecord[];
  done: boolean;
  pagesDone: number;
  pageTotal: number | undefined;
  dataTotal: number | undefined;
}

/**
 * The records of every query, a batch at a time: one batch per page for one query; for several, what can be
 * placed in order once each query has records at hand (the first page of each is fetched first).
 */
export async function* mergeQueries(
  queries: readonly AsyncIterator<ListPage>[],
  order: OrderBy | string | undefined,
  onProgress: (p: ListProgress) => void,
): AsyncGenerator<TrackRecord[]> {
  const queues: Queue[] = queries.map((pages) => ({
    pages,
    records: [],
    done: false,
    pagesDone: 0,
    pageTotal: undefined,
    dataTotal: undefined,
  }));
  const report = () => {
    const started = queues.every((q) => q.pagesDone > 0 || q.done);
    const sum = (k: 'pageTotal' | 'dataTotal') =>
      started && queues.every((q) => q[k] !== undefined || q.done)
        ? queues.reduce((s, q) => s + (q[k] ?? 0), 0)
        : undefined;
    onProgress({
      pagesDone: queues.reduce((s, q) => s + q.pagesDone, 0),
      pagesTotal: sum('pageTotal'),
      dataTotal: sum('dataTotal'),
    });
  };
  const fill = async (q: Queue) => {
    while (!q.done && q.records.length === 0) {
      const next = await q.pages.next();
      if (next.done) {
        q.done = true;
        break;
      }
      q.pagesDone += 1;
      q.pageTotal = next.value.pageTotal ?? q.pageTotal;
      q.dataTotal = next.value.dataTotal ?? q.dataTotal;
      q.records.push(...next.value.records);
      report();
    }
  };
  try {
    if (queues.length === 1) {
      const q = queues[0]!;
      for (;;) {
        await fill(q);
        if (q.records.length === 0) return;
        yield q.records.splice(0);
      }
    }
    const seen = new Set<string>();
    const by = order ?? 'RegisterTimeAsc';
    for (;;) {
      for (const q of queues) await fill(q);
      if (queues.every((q) => q.records.length === 0)) return;
      const batch: TrackRecord[] = [];
      // Place records while every query that may still send some has one at hand to compare with.
      while (queues.every((q) => q.records.length > 0 || q.done)) {
        let pick: Queue | undefined;
        for (const q of queues) {
          if (q.records.length === 0) continue;
          if (!pick || comesFirst(by, q.records[0]!, pick.records[0]!)) pick = q;
        }
        if (!pick) break;
        const record = pick.records.shift()!;
        const key = recordKey(record);
        if (seen.has(key)) continue;
        seen.add(key);
        batch.push(record);
      }
      if (batch.length > 0) yield batch;
    }
  } finally {
    // Leaving early (a limit reached, the pager quit): nothing more is fetched.
    await Promise.all(queues.map((q) => q.pages.return?.()));
  }
}
