// trk list: registered numbers matching filters (gettracklist). Every page by default, several at a time
// through the pacer once the first tells how many there are, each page handed to the row writer in order, so a list of 100 000 records is never
// held in memory for JSON, CSV, NDJSON or tab-separated output (a terminal table is printed when complete).

import { trackListBody } from '../api/bodies.js';
import { readPages } from '../api/pages.js';
import { LIMITS } from '../api/spec.js';
import type { Envelope, TrackListFilter, TrackRecord } from '../api/types.js';
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import { recordColumns } from '../output/columns.js';
import { toRecordView } from '../output/records.js';
import { createRowWriter } from '../output/render.js';
import { tableNames, viewNames } from './shared/names.js';
import { parseTimeArg } from './shared/time.js';

export interface ListOptions {
  status?: string | undefined;
  carrier?: number | undefined;
  tracking?: string | undefined;
  origin?: string | undefined;
  registeredSince?: string | undefined;
  registeredUntil?: string | undefined;
  trackedSince?: string | undefined;
  trackedUntil?: string | undefined;
  pushedSince?: string | undefined;
  pushedUntil?: string | undefined;
  pushStatus?: string | undefined;
  pushCode?: number | undefined;
  stoppedSince?: string | undefined;
  stoppedUntil?: string | undefined;
  numbers?: readonly string[] | undefined;
  orderBy?: string | undefined;
  /** Stop after this many records. */
  limit?: number | undefined;
  /** Only this page. */
  page?: number | undefined;
}

type TimeRange = readonly [
  sinceKey: keyof ListOptions,
  untilKey: keyof ListOptions,
  from: keyof TrackListFilter,
  to: keyof TrackListFilter,
  flag: string,
];

const TIME_RANGES: readonly TimeRange[] = [
  ['registeredSince', 'registeredUntil', 'register_time_from', 'register_time_to', 'registered'],
  ['trackedSince', 'trackedUntil', 'track_time_from', 'track_time_to', 'tracked'],
  ['pushedSince', 'pushedUntil', 'push_time_from', 'push_time_to', 'pushed'],
  ['stoppedSince', 'stoppedUntil', 'stop_track_time_from', 'stop_track_time_to', 'stopped'],
];

function time(value: unknown, flag: string, now: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const iso = parseTimeArg(value, now);
  if (iso === undefined) {
    throw new UsageError(`${flag} "${value}" is not a time`, 'give an ISO time (2024-05-01, 2024-05-01T12:00Z) or an age such as 30m, 12h, 7d, 2w');
  }
  return iso;
}

/** The --number values without blanks and repeats. */
function distinctNumbers(numbers: readonly string[]): string[] {
  return [...new Set(numbers.map((n) => n.trim()).filter(Boolean))];
}

/** The gettracklist filter for the options (v2 names; without page_no). Pure; throws UsageError. */
export function buildListFilter(opts: ListOptions, now: number): TrackListFilter {
  const filter: TrackListFilter = {};
  if (opts.numbers !== undefined) {
    const numbers = distinctNumbers(opts.numbers);
    if (numbers.length > LIMITS.listNumberFilterMax) {
      throw new UsageError(
        `--number takes at most ${LIMITS.listNumberFilterMax} numbers, got ${numbers.length}`,
        'split the list, or use "trk info -f FILE" for details of many numbers',
      );
    }
    if (numbers.length > 0) filter.number = numbers.join(',');
  }
  if (opts.carrier !== undefined) filter.carrier = opts.carrier;
  if (opts.origin !== undefined) filter.data_origin = opts.origin;
  if (opts.status !== undefined) filter.package_status = opts.status;
  if (opts.tracking !== undefined) filter.tracking_status = opts.tracking;
  if (opts.pushStatus !== undefined) filter.push_status = opts.pushStatus;
  if (opts.pushCode !== undefined) filter.push_status_code = opts.pushCode;
  if (opts.orderBy !== undefined) filter.order_by = opts.orderBy;
  for (const [sinceKey, untilKey, from, to, name] of TIME_RANGES) {
    const since = time(opts[sinceKey], `--${name}-since`, now);
    const until = time(opts[untilKey], `--${name}-until`, now);
    if (since !== undefined && until !== undefined && Date.parse(since) > Date.parse(until)) {
      throw new UsageError(`--${name}-since (${since}) is after --${name}-until (${until})`, 'swap them, or widen the range');
    }
    if (since !== undefined) (filter as Record<string, unknown>)[from] = since;
    if (until !== undefined) (filter as Record<string, unknown>)[to] = until;
  }
  return filter;
}

export async function runList(opts: ListOptions, ctx: Context): Promise<number> {
  const { apiVersion } = await ctx.settings();
  const many = opts.numbers !== undefined && distinctNumbers(opts.numbers).length > LIMITS.listNumberFilterMax;
  if (many) return listMany(opts, ctx);
  // What the version cannot filter by, and times that are not times, are refused before anything is sent.
  trackListBody(apiVersion, buildListFilter(opts, ctx.now()));
  const api = await ctx.api();
  // Ages (`--tracked-since 1h`) count back from the service's clock: under --sandbox the emulator's, known once
  // api() has started it.
  const filter = buildListFilter(opts, ctx.now());
  const writer = createRowWriter(ctx.io, recordColumns(await tableNames(ctx)), ctx.global.output);
  const viewOpts = await viewNames(ctx, api.version);
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  let shown = 0;
  let total: number | undefined;
  try {
    // Several pages in flight once the first tells how many there are, written in order (src/api/pages.ts).
    await readPages<Envelope<TrackRecord>>({
      start: opts.page ?? 1,
      // Reading changes nothing on the service, so an interrupt may cut a request short.
      fetch: (n, signal) =>
        api.call<TrackRecord>('gettracklist', trackListBody(api.version, { ...filter, page_no: n }), { signal: AbortSignal.any([ctx.signal, signal]) }),
      // No further than --page, or than the pages --limit needs.
      last: (first) => {
        const pageTotal = first.page?.page_total;
        if (opts.page !== undefined || pageTotal === undefined) return opts.page;
        return Math.min(pageTotal, (opts.page ?? 1) - 1 + Math.ceil(limit / LIMITS.pageSize));
      },
      // Without page information, a short page is the last one.
      more: (env) => (env.data?.accepted ?? []).length >= LIMITS.pageSize,
      onPage: (env) => {
        if (ctx.signal.aborted) throw new InterruptedError();
        const records = env.data?.accepted ?? [];
        const take = records.slice(0, Math.max(0, limit - shown));
        writer.write(
          take.map((r) => toRecordView(r, api.version, viewOpts)),
          take,
        );
        shown += take.length;
        total = env.page?.data_total ?? total;
        return shown < limit && records.length > 0;
      },
    });
  } catch (err) {
    // What was written must not pass for the whole list (see RowWriter.abort).
    await writer.abort();
    throw err;
  }
  await writer.end();
  const of = total !== undefined && total !== shown ? ` of ${total}` : '';
  ctx.info(`${shown} record${shown === 1 ? '' : 's'}${of}`);
  return 0;
}

/**
 * More numbers than one call takes: the bulk path asks for them 200 at a time (every page of each, exact
 * matches only) and the records are written as each call completes. --page and --limit apply to one call's
 * pages, so they are refused here.
 */
async function listMany(opts: ListOptions, ctx: Context): Promise<number> {
  if (opts.page !== undefined || opts.limit !== undefined) {
    throw new UsageError(`--page and --limit cannot be used with more than ${LIMITS.listNumberFilterMax} numbers`, 'drop them');
  }
  const { apiVersion } = await ctx.settings();
  trackListBody(apiVersion, buildListFilter({ ...opts, numbers: undefined }, ctx.now()));
  // As in runList: ages count back from the service's clock, the emulator's under --sandbox.
  await ctx.api();
  const filter = buildListFilter({ ...opts, numbers: undefined }, ctx.now());
  const [{ listManyNumbers }, names, viewOpts] = await Promise.all([
    import('../items/command.js'),
    tableNames(ctx),
    viewNames(ctx, apiVersion),
  ]);
  const writer = createRowWriter(ctx.io, recordColumns(names), ctx.global.output);
  try {
    await listManyNumbers(ctx, opts.numbers ?? [], filter, (records) => {
      const typed = records as unknown as TrackRecord[];
      writer.write(
        typed.map((r) => toRecordView(r, apiVersion, viewOpts)),
        typed,
      );
    });
  } catch (err) {
    await writer.abort();
    throw err;
  }
  await writer.end();
  return 0;
}
