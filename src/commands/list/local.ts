// The checks `trk list` makes itself, on records already fetched: --tag (the service cannot filter by tag) and
// --sub-status (list records carry only the main status: the sub-status is read from each record's tracking
// details, fetched 40 at a time with gettrackinfo, which costs no quota).

import type { ApiClient } from '../../api/client.js';
import { numberCarrierBody } from '../../api/bodies.js';
import { LIMITS } from '../../api/spec.js';
import type { TrackRecord } from '../../api/types.js';
import { toDetailsView } from '../../output/records.js';
import { tagMatcher, type ListOptions } from './filters.js';
import { recordKey } from './merge.js';

export type RecordCheck = (records: TrackRecord[]) => Promise<TrackRecord[]>;

/** Whether records are checked here (--tag, --sub-status): the service's counts then say nothing of what is shown. */
export function checksLocally(opts: Pick<ListOptions, 'tag' | 'subStatus'>): boolean {
  return Boolean(opts.tag?.length || opts.subStatus?.length);
}

/** The checks the options ask for, or undefined when the service's filters are all there is. */
export function localChecks(api: ApiClient, opts: Pick<ListOptions, 'tag' | 'subStatus'>, signal: AbortSignal): RecordCheck | undefined {
  const tag = opts.tag?.length ? tagMatcher(opts.tag) : undefined;
  const subs = opts.subStatus?.length ? new Set(opts.subStatus) : undefined;
  if (!tag && !subs) return undefined;
  return async (records) => {
    let kept = tag ? records.filter((r) => tag(typeof r.tag === 'string' ? r.tag : null)) : records;
    if (subs && kept.length > 0) {
      const subStatus = await subStatuses(api, kept, signal);
      kept = kept.filter((r) => subs.has(subStatus.get(recordKey(r)) ?? ''));
    }
    return kept;
  };
}

/** The latest sub-status of each record, by record key (number and carrier). */
export async function subStatuses(api: ApiClient, records: readonly TrackRecord[], signal: AbortSignal): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < records.length; i += LIMITS.itemsPerRequest) {
    const items = records.slice(i, i + LIMITS.itemsPerRequest).map((r) => ({
      number: String(r.number),
      ...(typeof r.carrier === 'number' ? { carrier: r.carrier } : {}),
    }));
    const env = await api.call('gettrackinfo', numberCarrierBody(api.version, 'gettrackinfo', items), { signal });
    for (const item of env.data?.accepted ?? []) {
      const view = toDetailsView(item, api.version);
      if (view.sub_status !== null) out.set(recordKey({ number: view.number, carrier: view.carrier } as TrackRecord), view.sub_status);
    }
  }
  return out;
}
