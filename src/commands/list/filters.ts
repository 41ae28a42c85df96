// What `trk list` asks the service for, and what it checks itself. Several values of one filter mean OR: the
// service takes one value per field, so each combination is one query (`--status Exception --status
// DeliveryFailure` is two), and their records are merged, each once. `--tag` and `--sub-status` are not filters
// of the service: every page is fetched and the records are checked here (a sub-status needs the tracking
// details of each record, one gettrackinfo request per page, which costs no quota).

import { LIMITS, mainStatusOf, type PackageStatus } from '@trk/service/vocabulary.js';
import type { TrackListFilter } from '@trk/service/types.js';
import { UsageError } from '../../core/errors.js';
import { parseTimeArg } from './time.js';

export interface ListOptions {
  /** Each a value of the filter; several are OR. */
  status?: readonly string[] | undefined;
  carrier?: readonly number[] | undefined;
  tracking?: readonly string[] | undefined;
  origin?: readonly string[] | undefined;
  pushStatus?: readonly string[] | undefined;
  pushCode?: readonly number[] | undefined;
  registeredSince?: string | undefined;
  registeredUntil?: string | undefined;
  trackedSince?: string | undefined;
  trackedUntil?: string | undefined;
  pushedSince?: string | undefined;
  pushedUntil?: string | undefined;
  stoppedSince?: string | undefined;
  stoppedUntil?: string | undefined;
  numbers?: readonly string[] | undefined;
  orderBy?: string | undefined;
  /** Checked here after fetching: tags matching any of these (case-insensitive, `*` for any text). */
  tag?: readonly string[] | undefined;
  /** Checked here after fetching, with the records' tracking details: any of these sub-statuses. */
  subStatus?: readonly string[] | undefined;
  /** Checked here (v2.1 records) or in the mirror: this order number, any case. */
  order?: string | undefined;
  /** Checked here (v2.1 records) or in the mirror: this customer e-mail, any case. */
  email?: string | undefined;
  /**
   * Checked here (v2.1 records) or in the mirror: number, tag, order number or e-mail equal to or starting with this.
   */
  search?: string | undefined;
  /** Still tracked, not delivered, and no event for this long (ms). */
  stale?: number | undefined;
  /** Stop after this many records (after the checks made here). */
  limit?: number | undefined;
  /** Every record, even on a terminal (where the default is the first 100). */
  all?: boolean | undefined;
  /** Only this page. */
  page?: number | undefined;
  /** Redraw the list when it changes, until every record is delivered or returned. */
  watch?: boolean | undefined;
  /** Between two looks of --watch, in ms. */
  every?: number | undefined;
}

/** Queries one list may take: each is at least one request. */
export const MAX_QUERIES = 50;

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
    throw new UsageError(
      `${flag} "${value}" is not a time`,
      'give an ISO time (2024-05-01, 2024-05-01T12:00Z) or an age such as 30m, 12h, 7d, 2w',
    );
  }
  return iso;
}

/** The --number values without blanks and repeats. */
export function distinctNumbers(numbers: readonly string[]): string[] {
  return [...new Set(numbers.map((n) => n.trim()).filter(Boolean))];
}

/**
 * The statuses to ask the service for: --status, narrowed to the main statuses of --sub-status (a sub-status
 * belongs to one main status, so only those records can match). Undefined: any status.
 */
export function statusesToAsk(opts: Pick<ListOptions, 'status' | 'subStatus'>): readonly string[] | undefined {
  const status = opts.status?.length ? opts.status : undefined;
  if (!opts.subStatus?.length) return status;
  const mains = [
    ...new Set(opts.subStatus.map((s) => mainStatusOf(s)).filter((m): m is PackageStatus => m !== undefined)),
  ];
  if (status === undefined) return mains;
  const both = mains.filter((m) => status.includes(m));
  if (both.length === 0) {
    throw new UsageError(
      `no record can be ${status.join(' or ')} with sub-status ${opts.subStatus.join(' or ')}`,
      `a sub-status belongs to one status ` +
        `(${opts.subStatus.map((s) => `${s}: ${mainStatusOf(s)}`).join(', ')}); drop --status`,
    );
  }
  return both;
}

/**
 * The gettracklist filters for the options (v2 names; without page_no): one per combination of the values of
 * the filters given more than once. Pure; throws UsageError.
 */
export function buildListFilters(opts: ListOptions, now: number): TrackListFilter[] {
  const base: TrackListFilter = {};
  if (opts.numbers !== undefined) {
    const numbers = distinctNumbers(opts.numbers);
    if (numbers.length > LIMITS.listNumberFilterMax) {
      throw new UsageError(
        `--number takes at most ${LIMITS.listNumberFilterMax} numbers, got ${numbers.length}`,
        'split the list, or use "trk info -f FILE" for details of many numbers',
      );
    }
    if (numbers.length > 0) base.number = numbers.join(',');
  }
  if (opts.orderBy !== undefined) base.order_by = opts.orderBy;
  for (const [sinceKey, untilKey, from, to, name] of TIME_RANGES) {
    const since = time(opts[sinceKey], `--${name}-since`, now);
    const until = time(opts[untilKey], `--${name}-until`, now);
    if (since !== undefined && until !== undefined && Date.parse(since) > Date.parse(until)) {
      throw new UsageError(
        `--${name}-since (${since}) is after --${name}-until (${until})`,
        'swap them, or widen the range',
      );
    }
    if (since !== undefined) (base as Record<string, unknown>)[from] = since;
    if (until !== undefined) (base as Record<string, unknown>)[to] = until;
  }
  const choices: [keyof TrackListFilter, readonly (string | number)[] | undefined][] = [
    ['package_status', statusesToAsk(opts)],
    ['carrier', opts.carrier],
    ['tracking_status', opts.tracking],
    ['data_origin', opts.origin],
    ['push_status', opts.pushStatus],
    ['push_status_code', opts.pushCode],
  ];
  let filters: TrackListFilter[] = [base];
  for (const [field, values] of choices) {
    if (values === undefined || values.length === 0) continue;
    filters = filters.flatMap((f) => values.map((v) => ({ ...f, [field]: v })));
  }
  if (filters.length > MAX_QUERIES) {
    throw new UsageError(
      `these filters make ${filters.length} queries (one per combination of values), at most ${MAX_QUERIES}`,
      'give fewer values, or filter the output (--json | jq)',
    );
  }
  return filters;
}

/**
 * Whether a tag matches any of the patterns: the whole tag, whatever the case; `*` stands for any text
 * (`order-*`). A record without a tag matches nothing.
 */
export function tagMatcher(patterns: readonly string[]): (tag: string | null) => boolean {
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'is',
      ),
  );
  return (tag) => tag !== null && regexes.some((r) => r.test(tag));
}
