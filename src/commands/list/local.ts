// The checks `trk list` makes itself, on records already fetched: --tag (the service cannot filter by tag),
// --order, --email and --search (fields of v2.1 records), --sub-status (list records carry only the main status:
// the sub-status is read from each record's tracking details, fetched 40 at a time with gettrackinfo, which costs
// no quota) and --stale (the latest event's time: v2.1 records carry it, other versions' details do).

import type { ApiClient } from '../../api/client.js';
import { wireBody } from '../../api/request-body.js';
import { LIMITS } from '@trk/service/vocabulary.js';
import type { TrackRecord } from '@trk/service/types.js';
import { toDetailsView, toRecordView, type DetailsView } from '@trk/service/records.js';
import { epochOf } from '@trk/service/times.js';
import { FILTER_FIELDS, SEARCHED_FIELDS, recordFieldSpec, type RecordField } from '@trk/service/record-fields.js';
import { tagMatcher, type ListOptions } from './filters.js';
import { recordKey } from './merge.js';
import { clock } from '../../core/clock.js';

export type RecordCheck = (records: TrackRecord[]) => Promise<TrackRecord[]>;

type LocalOptions = Pick<ListOptions, 'tag' | 'subStatus' | 'order' | 'email' | 'search' | 'stale'>;

/**
 * Whether records are checked here (--tag, --sub-status...): the service's counts then say nothing of what is shown.
 */
export function checksLocally(opts: LocalOptions): boolean {
  return Boolean(opts.tag?.length || opts.subStatus?.length || opts.order || opts.email || opts.search || opts.stale);
}

/** The checks the options ask for, or undefined when the service's filters are all there is. */
export function localChecks(
  api: ApiClient,
  opts: LocalOptions,
  signal: AbortSignal,
  now = clock().now(),
): RecordCheck | undefined {
  const tag = opts.tag?.length ? tagMatcher(opts.tag) : undefined;
  const subs = opts.subStatus?.length ? new Set(opts.subStatus) : undefined;
  const fields = recordFieldCheck(opts);
  const stale = opts.stale === undefined ? undefined : staleCheck(api, now - opts.stale, signal);
  if (!tag && !subs && !fields && !stale) return undefined;
  return async (records) => {
    let kept = tag ? records.filter((r) => tag(typeof r.tag === 'string' ? r.tag : null)) : records;
    if (fields) kept = kept.filter(fields);
    if (stale && kept.length > 0) kept = await stale(kept);
    if (subs && kept.length > 0) {
      const subStatus = await subStatuses(api, kept, signal);
      kept = kept.filter((r) => subs.has(subStatus.get(recordKey(r)) ?? ''));
    }
    return kept;
  };
}

/** The latest sub-status of each record, by record key (number and carrier). */
export async function subStatuses(
  api: ApiClient,
  records: readonly TrackRecord[],
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [key, view] of await detailsOf(api, records, signal))
    if (view.sub_status !== null) out.set(key, view.sub_status);
  return out;
}

/** The tracking details of each record, by record key, 40 a request. */
async function detailsOf(
  api: ApiClient,
  records: readonly TrackRecord[],
  signal: AbortSignal,
): Promise<Map<string, DetailsView>> {
  const out = new Map<string, DetailsView>();
  for (let i = 0; i < records.length; i += LIMITS.itemsPerRequest) {
    const items = records.slice(i, i + LIMITS.itemsPerRequest).map((r) => ({
      number: String(r.number),
      ...(typeof r.carrier === 'number' ? { carrier: r.carrier } : {}),
    }));
    const env = await api.call('gettrackinfo', wireBody('gettrackinfo', api.version, items), { signal });
    for (const item of env.data?.accepted ?? []) {
      const view = toDetailsView(item, api.version);
      out.set(recordKey({ number: view.number, carrier: view.carrier } as TrackRecord), view);
    }
  }
  return out;
}

/** A field's name in the v2.1 records these checks read. */
const wireOf = (field: RecordField): string => recordFieldSpec(field).wire.v2;

const lower = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined);

/**
 * --order, --email and --search on the records themselves: v2.1 records carry order number and e-mail. Exact
 * (any case) for the first two; the start of number, tag, order number or e-mail for a search.
 */
function recordFieldCheck(opts: LocalOptions): ((r: TrackRecord) => boolean) | undefined {
  const exact = FILTER_FIELDS.map(({ flag, field }) => ({ name: wireOf(field), value: lower(opts[flag]?.trim()) }));
  const wanted = exact.filter((f) => f.value !== undefined);
  const search = lower(opts.search?.trim());
  if (wanted.length === 0 && search === undefined) return undefined;
  const searched = ['number', ...SEARCHED_FIELDS.map(wireOf)];
  return (r) =>
    wanted.every((f) => lower(r[f.name]) === f.value) &&
    (search === undefined || searched.some((name) => lower(r[name])?.startsWith(search)));
}

/**
 * --stale: still tracked, not delivered, and the latest event (the registration, without events) before `before`.
 * v2.1 records carry the latest event's time; other versions' are read from the details, 40 a request.
 */
function staleCheck(api: ApiClient, before: number, signal: AbortSignal): RecordCheck {
  return async (records) => {
    const open = records.filter(
      (r) =>
        (r.tracking_status === 'Tracking' || r.ts === true || r.ts === 1) &&
        toRecordView(r, api.version).status !== 'Delivered',
    );
    const needDetails = open.filter((r) => !('latest_event_time' in r));
    const latest = needDetails.length ? await detailsOf(api, needDetails, signal) : new Map<string, DetailsView>();
    return open.filter((r) => {
      const view = latest.get(recordKey(r));
      const event =
        'latest_event_time' in r
          ? r.latest_event_time
          : (view?.latest_event?.time_utc ?? view?.latest_event?.time_iso ?? null);
      const at = epochOf(event ?? null) ?? epochOf(toRecordView(r, api.version).registered);
      return at !== null && at < before;
    });
  };
}
