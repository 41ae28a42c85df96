// The records of given numbers, whatever their status: what `delete` shows before asking, and what `list --watch`
// looks up for records that left its filters. One gettracklist query per 200 numbers (the service's most), every
// page of each; reads cost no quota.

import type { ApiClient } from '../../api/client.js';
import { trackListPages } from '../../api/pages.js';
import { LIMITS } from '@trk/service/vocabulary.js';
import type { TrackRecord } from '@trk/service/types.js';

/**
 * Every record of `numbers` (several carriers may hold one number). The service matches one number partially
 * and several exactly, so records of other numbers are dropped here.
 */
export async function recordsOfNumbers(
  api: ApiClient,
  numbers: readonly string[],
  signal: AbortSignal,
): Promise<TrackRecord[]> {
  const distinct = [...new Set(numbers.map((n) => n.trim().toUpperCase()).filter(Boolean))];
  const wanted = new Set(distinct);
  const out: TrackRecord[] = [];
  for (let i = 0; i < distinct.length; i += LIMITS.listNumberFilterMax) {
    const number = distinct.slice(i, i + LIMITS.listNumberFilterMax).join(',');
    for await (const page of trackListPages({ client: api, query: { filter: { number } }, signal })) {
      out.push(...page.records.filter((r) => wanted.has(String(r.number).toUpperCase())));
    }
  }
  return out;
}
