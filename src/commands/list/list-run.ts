// trk list: registered numbers matching filters (gettracklist), page by page as they arrive. JSON and CSV are
// written as a stream; a failure part-way leaves them unparseable (see RowWriter.abort). On a terminal, the first
// page shows at once and the rest follow with a page counter on stderr (until the pager starts, with the first
// rows); the list stops at 100 records unless --all or --limit says otherwise, and long output goes through the
// pager. Off a terminal every record is listed.

import type { ApiClient } from '../../api/client.js';
import { trackListPages } from '../../api/pages.js';
import { wireBody } from '../../api/request-body.js';
import { LIMITS } from '@trk/service/vocabulary.js';
import type { TrackListFilter, TrackRecord } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { recordColumns } from '../../output/columns.js';
import { recordForJson, toRecordView } from '@trk/service/records.js';
import { createRowWriter } from '../../output/render.js';
import { statusLine } from '../../output/status-line.js';
import { fmt, plural } from '../../core/text.js';
import { tableNames, viewNames } from '../common/names.js';
import { outputOf, startPagerFor } from '../common/output.js';
import { TERMINAL_LIST_LIMIT } from '../../output/format.js';
import { buildListFilters, distinctNumbers, type ListOptions } from './filters.js';
import { checksLocally, localChecks } from './local.js';
import { mergeQueries, recordKey, type ListProgress } from './merge.js';
import { clock } from '../../core/clock.js';

export { buildListFilters, type ListOptions } from './filters.js';

/** The records to show: --limit, else every one off a terminal or with --all, else the first 100. */
export function listLimit(opts: ListOptions, stdoutIsTTY: boolean): { limit: number; byDefault: boolean } {
  if (opts.limit !== undefined) return { limit: opts.limit, byDefault: false };
  if (opts.all || opts.page !== undefined || !stdoutIsTTY) return { limit: Number.POSITIVE_INFINITY, byDefault: false };
  return { limit: TERMINAL_LIST_LIMIT, byDefault: true };
}

/** Flags that cannot go together, and what the version cannot do: refused before anything is sent. */
function checkOptions(opts: ListOptions, version: string): void {
  if (opts.all && opts.limit !== undefined)
    throw new UsageError('--all and --limit contradict each other', 'give one of them');
  if (opts.all && opts.page !== undefined)
    throw new UsageError('--all and --page contradict each other', 'give one of them');
  if (opts.every !== undefined && !opts.watch)
    throw new UsageError('--every is the pace of --watch', 'add --watch, or drop --every');
  if (opts.watch && opts.page !== undefined)
    throw new UsageError('--watch looks at the whole list, not one page', 'drop --page');
  if (version !== 'v2.1' && (opts.order || opts.email || opts.search)) {
    throw new UsageError(
      '--order, --email and --search read fields of v2.1 records',
      'add --offline to ask the mirror, or use --api-version v2.1',
    );
  }
  if (version === 'v1' && opts.subStatus?.length) {
    throw new UsageError('the v1 API has no sub-statuses', 'filter with --status, or use --api-version v2 or v2.1');
  }
}

/**
 * The records of every query, merged and checked, a batch at a time, for the consumer to write; progress is
 * reported after each page.
 */
export function listRecords(
  api: ApiClient,
  filters: readonly TrackListFilter[],
  opts: ListOptions,
  signal: AbortSignal,
  onProgress: (p: ListProgress) => void,
  /** Records wanted at most: pages beyond them are not asked for. */
  limit = Number.POSITIVE_INFINITY,
  /** The service's time, which --stale counts back from. */
  now = clock().now(),
): AsyncGenerator<TrackRecord[]> {
  // Each query gives at most `limit` records to the merged list, unless records are checked here (--tag).
  const local = checksLocally(opts);
  const most = Number.isFinite(limit) && !local ? Math.ceil(limit / LIMITS.pageSize) : undefined;
  // --page: that page alone.
  const pages = opts.page !== undefined ? 1 : most;
  const queries = filters.map((filter) =>
    trackListPages({ client: api, query: { filter }, from: opts.page, most: pages, signal }),
  );
  const merged = mergeQueries(queries, opts.orderBy, onProgress);
  const check = localChecks(api, opts, signal, now);
  if (!check) return merged;
  return (async function* () {
    // Batches left empty by the checks are passed on too: the consumer counts the pages read.
    for await (const batch of merged) yield await check(batch);
  })();
}

export async function runList(opts: ListOptions & { db?: string | undefined }, ctx: Context): Promise<number> {
  if (opts.db !== undefined)
    throw new UsageError('--db names the mirror, which only --offline reads', 'add --offline, or drop --db');
  const { apiVersion } = await ctx.settings();
  checkOptions(opts, apiVersion);
  const many = opts.numbers !== undefined && distinctNumbers(opts.numbers).length > LIMITS.listNumberFilterMax;
  if (many) return listMany(opts, ctx);
  // What the version cannot filter by, and times that are not times, are refused before anything is sent.
  for (const f of buildListFilters(opts, ctx.now())) wireBody('gettracklist', apiVersion, f);
  const api = await ctx.api();
  // Ages (`--tracked-since 1h`) count back from the service's clock: under --sandbox the emulator's, known once
  // api() has started it.
  const filters = buildListFilters(opts, ctx.now());
  if (opts.watch) {
    const { watchList } = await import('./watch.js');
    return watchList(ctx, api, filters, opts);
  }
  const { limit, byDefault } = listLimit(opts, ctx.io.stdoutIsTTY);
  const viewOpts = await viewNames(ctx, api.version);
  const columns = recordColumns(await tableNames(ctx));
  const output = outputOf(ctx);
  // Built before the pager starts, so that a usage error (an unknown column) is not left behind in it.
  const pager = await startPagerFor(ctx);
  const writer = createRowWriter(pager?.io ?? ctx.io, columns, output);
  // The page counter shares the terminal with the rows. The pager starts with the first rows: until then (--tag
  // reading every page for its matches) the counter is on the terminal; from then on it is not drawn, since it
  // would break the pager's screen (the pager shows the rows as they arrive).
  const counter = statusLine(ctx.io, ctx.global.quiet !== true);
  const local = checksLocally(opts);
  let shown = 0;
  let progress: ListProgress = { pagesDone: 0, pagesTotal: undefined, dataTotal: undefined };
  let cut = false;
  const records = listRecords(
    api,
    filters,
    opts,
    ctx.signal,
    (p) => {
      progress = p;
    },
    limit,
    ctx.now(),
  );
  const count = () => {
    const p = progress;
    if (pager?.started) return;
    if (p.pagesTotal !== undefined && p.pagesDone < p.pagesTotal && opts.page === undefined) {
      counter.show(
        `page ${fmt(p.pagesDone)} of ${fmt(p.pagesTotal)}${local ? ` · ${plural(shown, 'match', 'matches')}` : ''}`,
      );
    }
  };
  try {
    for await (const batch of records) {
      // The reader quit the pager: nothing more is fetched.
      if (pager?.quit.aborted) break;
      const take = batch.slice(0, Math.max(0, limit - shown));
      counter.clear();
      writer.write(
        take.map((r) => toRecordView(r, api.version, viewOpts)),
        take.map((r) => recordForJson(r, api.version)),
      );
      shown += take.length;
      if (shown >= limit) {
        cut =
          take.length < batch.length || progress.pagesTotal === undefined || progress.pagesDone < progress.pagesTotal;
        break;
      }
      count();
    }
  } catch (err) {
    counter.clear();
    // What was written must not pass for the whole list (see RowWriter.abort).
    await writer.abort();
    await pager?.end();
    throw err;
  }
  counter.clear();
  await writer.end();
  await pager?.end();
  if (pager?.quit.aborted) return 0;
  ctx.info(summary(shown, progress, { cut, byDefault, local, single: filters.length === 1 }));
  return 0;
}

/** The status line after a list: how many records, of how many, and how to see the rest when it was cut. */
export function summary(
  shown: number,
  progress: ListProgress,
  how: { cut: boolean; byDefault: boolean; local: boolean; single: boolean },
): string {
  // The service's total is exact for one query without checks of our own; otherwise it is an upper bound.
  const total = how.single && !how.local ? progress.dataTotal : undefined;
  if (how.cut && how.byDefault) {
    return total !== undefined
      ? `showing ${fmt(shown)} of ${fmt(total)}: --all for every record`
      : `showing the first ${plural(shown, 'record')}: --all for every record`;
  }
  const of = total !== undefined && total !== shown ? ` of ${fmt(total)}` : '';
  return `${plural(shown, 'record')}${of}`;
}

/**
 * More numbers than one call takes: the bulk path asks for them 200 at a time (every page of each, exact
 * matches only) and the records are written as each call completes. --page and --limit apply to one call's
 * pages, so they are refused here. Several values of a filter are one pass each, each record printed once.
 */
async function listMany(opts: ListOptions, ctx: Context): Promise<number> {
  if (opts.page !== undefined || opts.limit !== undefined || opts.watch) {
    throw new UsageError(
      `--page, --limit and --watch cannot be used with more than ${LIMITS.listNumberFilterMax} numbers`,
      'drop them',
    );
  }
  const { apiVersion } = await ctx.settings();
  for (const f of buildListFilters({ ...opts, numbers: undefined }, ctx.now())) wireBody('gettracklist', apiVersion, f);
  // As in runList: ages count back from the service's clock, the emulator's under --sandbox.
  const api = await ctx.api();
  const filters = buildListFilters({ ...opts, numbers: undefined }, ctx.now());
  const [{ listManyNumbers }, names, viewOpts] = await Promise.all([
    import('../../items/command.js'),
    tableNames(ctx),
    viewNames(ctx, apiVersion),
  ]);
  const writer = createRowWriter(ctx.io, recordColumns(names), outputOf(ctx));
  const check = localChecks(api, opts, ctx.signal, ctx.now());
  const seen = new Set<string>();
  // Records arrive from the engine synchronously; the checks of --tag and --sub-status are applied in order.
  let pending = Promise.resolve();
  try {
    for (const filter of filters) {
      await listManyNumbers(ctx, opts.numbers ?? [], filter, (records) => {
        const typed = (records as unknown as TrackRecord[]).filter((r) => {
          const key = recordKey(r);
          if (filters.length > 1 && seen.has(key)) return false;
          if (filters.length > 1) seen.add(key);
          return true;
        });
        pending = pending.then(async () => {
          const kept = check ? await check(typed) : typed;
          writer.write(
            kept.map((r) => toRecordView(r, apiVersion, viewOpts)),
            kept.map((r) => recordForJson(r, apiVersion)),
          );
        });
      });
      await pending;
    }
  } catch (err) {
    await pending.catch(() => {});
    await writer.abort();
    throw err;
  }
  await writer.end();
  return 0;
}
