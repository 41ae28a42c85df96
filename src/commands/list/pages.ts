// The pages of one gettracklist query, in order: what `trk list` consumes, page by page. The pages are fetched one
// request at a time here; whatever fetches them (one at a time or several in flight) yields them in this shape
// and this order.

import type { ApiClient } from '../../api/client.js';
import { LIMITS } from '../../api/spec.js';
import { trackListBody } from '../../api/bodies.js';
import type { TrackListFilter, TrackRecord } from '../../api/types.js';
import { InterruptedError, stopExitCode } from '../../errors.js';

export interface ListPage {
  records: TrackRecord[];
  pageNo: number;
  /** Pages of the whole query, when the service says. */
  pageTotal: number | undefined;
  /** Records of the whole query, when the service says. */
  dataTotal: number | undefined;
}

export interface ListPagesOptions {
  /** The first page to fetch (default 1). */
  from?: number | undefined;
  /** That page alone (--page). */
  only?: boolean | undefined;
  signal: AbortSignal;
}

/**
 * Pages of `filter` from `from` to the last one. Without page information, a short page is the last one. The
 * consumer stops early by leaving its loop (the generator is closed and fetches nothing more).
 */
export async function* listPages(api: ApiClient, filter: TrackListFilter, opts: ListPagesOptions): AsyncGenerator<ListPage> {
  for (let pageNo = opts.from ?? 1; ; pageNo++) {
    if (opts.signal.aborted) throw new InterruptedError('interrupted', stopExitCode(opts.signal));
    // Reading changes nothing on the service, so an interrupt may cut a request short.
    const env = await api.call<TrackRecord>('gettracklist', trackListBody(api.version, { ...filter, page_no: pageNo }), {
      signal: opts.signal,
    });
    const records = env.data?.accepted ?? [];
    const pageTotal = env.page?.page_total;
    yield { records, pageNo, pageTotal, dataTotal: env.page?.data_total };
    if (opts.only || records.length === 0) return;
    if (pageTotal !== undefined ? pageNo >= pageTotal : records.length < LIMITS.pageSize) return;
  }
}
