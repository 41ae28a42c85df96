// The pages of one gettracklist query, in order: what `trk list` consumes, page by page. Once the first page
// tells how many there are, the next ones are asked for several at a time through the pacer and handed on in
// order (src/api/pages.ts).

import type { ApiClient } from '../../api/client.js';
import { lastPage, readPages, trackListFacts } from '../../api/pages.js';
import { LIMITS } from '../../service/vocabulary.js';
import { wireBody } from '../../api/request-body.js';
import type { Envelope, TrackListFilter, TrackRecord } from '../../service/types.js';
import { InterruptedError, stopExitCode } from '../../errors.js';

export interface ListPage {
  records: TrackRecord[];
  pageNo: number;
  /** Pages of the whole query, as far as the service's counts agree (page_total bounded by data_total). */
  pageTotal: number | undefined;
  /** Records of the whole query, when the service says. */
  dataTotal: number | undefined;
}

export interface ListPagesOptions {
  /** The first page to fetch (default 1). */
  from?: number | undefined;
  /** That page alone (--page). */
  only?: boolean | undefined;
  /** Pages wanted at most (--limit): no page beyond them is asked for. */
  most?: number | undefined;
  signal: AbortSignal;
}

/**
 * Pages of `filter` from `from` to the last one: the last the service's counts agree on, or a short page (a page
 * that cannot be right fails the read, see src/api/pages.ts). The consumer stops early by leaving its loop (the
 * pages in flight are aborted and nothing more is fetched).
 */
export async function* listPages(
  api: ApiClient,
  filter: TrackListFilter,
  opts: ListPagesOptions,
): AsyncGenerator<ListPage> {
  const from = opts.from ?? 1;
  const most = opts.only ? 1 : opts.most;
  const pages = readPages<Envelope<TrackRecord>>({
    start: from,
    fetch: async (pageNo, stop) => {
      // Reading changes nothing on the service, so an interrupt may cut a request short.
      return api.call<TrackRecord>(
        'gettracklist',
        wireBody('gettracklist', api.version, { ...filter, page_no: pageNo }),
        {
          signal: AbortSignal.any([opts.signal, stop]),
        },
      );
    },
    facts: trackListFacts,
    pageSize: LIMITS.pageSize,
    most,
  });
  let pageNo = from;
  let pageTotal: number | undefined;
  for await (const env of pages) {
    // A page that came in spite of Ctrl-C (a client that does not cut reads short) is not handed on.
    if (opts.signal.aborted) throw new InterruptedError('interrupted', stopExitCode(opts.signal));
    if (pageNo === from) pageTotal = lastPage(trackListFacts(env), from, LIMITS.pageSize);
    yield { records: env.data?.accepted ?? [], pageNo: pageNo++, pageTotal, dataTotal: env.page?.data_total };
  }
}
