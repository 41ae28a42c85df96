// trk list --offline: the records from the mirror (`trk sync`) instead of the service. The same filters, the
// same output (each record as the service sent it to the sync), no request; the mirror's age on stderr. Chosen at
// the command's boundary (list.ts), so the online list keeps no trace of it.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { recordColumns } from '../../output/columns.js';
import { recordForJson, toRecordView } from '@trk/service/records.js';
import { createRowWriter } from '../../output/render.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import { mirrorAgeLine } from '../../mirror/age.js';
import { openMirrorToRead } from '../../mirror/open.js';
import { canonicalTime } from '../../store/rows.js';
import type { RecordQuery, TimeColumn } from '../../store/types.js';
import { plural } from '../../core/text.js';
import { tableNames, viewNames } from '../common/names.js';
import { outputOf, startPagerFor } from '../common/output.js';
import { buildListFilters, distinctNumbers, statusesToAsk, type ListOptions } from './filters.js';
import { listLimit } from './list-run.js';
import { LIMITS } from '@trk/service/vocabulary.js';

const RANGES: readonly [TimeColumn, 'register_time' | 'track_time' | 'push_time' | 'stop_track_time'][] = [
  ['register_time', 'register_time'],
  ['track_time', 'track_time'],
  ['push_time', 'push_time'],
  ['stop_track_time', 'stop_track_time'],
];

/** The mirror's query for the list's options; times and choices checked as the online list checks them. */
export function recordQuery(opts: ListOptions, now: number): RecordQuery {
  // The service's filters as the online list would send them: one combination carries every time range.
  const [first] = buildListFilters({ ...opts, numbers: undefined, orderBy: undefined }, now);
  const f = (first ?? {}) as Record<string, string | undefined>;
  const ranges = RANGES.map(([column, field]) => ({
    column,
    from: canonicalTime(f[`${field}_from`]) ?? undefined,
    to: canonicalTime(f[`${field}_to`]) ?? undefined,
  })).filter((r) => r.from !== undefined || r.to !== undefined);
  const numbers = opts.numbers === undefined ? undefined : distinctNumbers(opts.numbers);
  return {
    anyOf: {
      package_status: statusesToAsk(opts),
      carrier: opts.carrier,
      tracking_status: opts.tracking,
      data_origin: opts.origin,
      push_status: opts.pushStatus,
      push_status_code: opts.pushCode,
    },
    ranges,
    numbers: numbers?.length ? numbers : undefined,
    tags: opts.tag,
    subStatus: opts.subStatus,
    order: opts.order,
    email: opts.email,
    search: opts.search,
    staleBefore: opts.stale === undefined ? undefined : new Date(now - opts.stale).toISOString(),
    orderBy: opts.orderBy,
  };
}

export async function runOfflineList(opts: ListOptions & { db?: string | undefined }, ctx: Context): Promise<number> {
  if (opts.watch)
    throw new UsageError('--watch asks the service again and again, not the mirror', 'drop --offline, or --watch');
  if (opts.all && opts.limit !== undefined)
    throw new UsageError('--all and --limit contradict each other', 'give one of them');
  const query = recordQuery(opts, ctx.now());
  const { limit } = listLimit(opts, ctx.io.stdoutIsTTY);
  if (opts.page !== undefined)
    Object.assign(query, { limit: LIMITS.pageSize, offset: (opts.page - 1) * LIMITS.pageSize });
  else if (Number.isFinite(limit)) query.limit = limit;
  const store = await openMirrorToRead(ctx, { db: opts.db });
  try {
    const viewOpts = await viewNames(ctx, 'v2.1');
    const columns = recordColumns(await tableNames(ctx));
    const pager = await startPagerFor(ctx);
    const writer = createRowWriter(pager?.io ?? ctx.io, columns, outputOf(ctx));
    let shown = 0;
    // In batches, so that a list of the whole mirror takes flat memory.
    for await (const batch of store.records(query)) {
      if (pager?.quit.aborted) break;
      const items = batch.map((r) => ({ item: JSON.parse(r.raw) as unknown, version: r.api_version as ApiVersion }));
      writer.write(
        items.map(({ item, version }) => toRecordView(item, version, viewOpts)),
        items.map(({ item, version }) => recordForJson(item, version)),
      );
      shown += batch.length;
    }
    await writer.end();
    await pager?.end();
    ctx.info(`${plural(shown, 'record')} · ${await mirrorAgeLine(store, ctx.now())}`);
    return 0;
  } finally {
    await store.close();
  }
}
