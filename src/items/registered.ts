// Which rows of a register run are registered already. A repeated registration of the same number with the same
// carrier costs nothing more: the spec's "consumes one quota unit" (What the service does, 8) is the one unit paid
// when it was first registered ("no repeat charge during automatic tracking", Limits), and the emulator agrees
// (@trk/sandbox/ops/register.ts rejects the repeat with -18019901 before charging). So the quota check counts
// only the other rows, and a dry run says how many are new.
//
// The lookup is gettracklist with the exact number filter (200 numbers a request, every page of each), free, sent
// through the client it is given: the context's, paced by the budget shared by every trk on the key. A row
// without a carrier counts as registered when its number is, under any carrier (the carrier the service would
// detect is the one it detected before), as the runner's lookups after a lost answer count it.
//
// `RegistrationLookup` is the seam for the local mirror: when there is one, it answers for the numbers it holds
// and the service is asked for the rest.

import type { ApiClient } from '../api/client.js';
import { unitCost } from '@trk/service/operations/index.js';
import { trackListPages } from '../api/pages.js';
import { LIMITS, type ApiVersion } from '@trk/service/vocabulary.js';
import type { Chunk } from './chunker.js';
import type { Item, ItemOperation } from './fields.js';

/** Numbers (upper case) → carriers they are registered under. */
export type Registrations = Map<string, Set<number | undefined>>;

export interface RegistrationLookup {
  /** The registrations of the numbers of `items` (at most 200 numbers). */
  registered(items: readonly Item[]): Promise<Registrations>;
}

export function serviceLookup(client: ApiClient, version: ApiVersion, signal: AbortSignal): RegistrationLookup {
  return {
    async registered(items) {
      const found: Registrations = new Map();
      // Every page, one after the other, checked as a list's are: pages that cannot be right end the lookup.
      const pages = trackListPages<Record<string, unknown>>({ client, version, query: { items }, window: 1, signal });
      for await (const page of pages) {
        for (const record of page.records) {
          const key = typeof record.number === 'string' ? record.number.trim().toUpperCase() : undefined;
          if (key === undefined) continue;
          const carriers = found.get(key) ?? new Set();
          carriers.add(carrierOf(record));
          found.set(key, carriers);
        }
      }
      return found;
    },
  };
}

function carrierOf(record: Record<string, unknown>): number | undefined {
  const c = record.carrier ?? record.w1;
  return typeof c === 'number' ? c : typeof c === 'string' && /^\d+$/.test(c) ? Number(c) : undefined;
}

export interface AlreadyPaid {
  /** Rows looked up. */
  looked: number;
  /** Rows registered already, and the quota units they would have cost. */
  items: number;
  units: number;
}

/**
 * How much of what `chunks` would be charged is paid already: their rows looked up 200 numbers at a time.
 * `onProgress` hears the rows looked up so far.
 */
export async function alreadyPaid(
  op: ItemOperation,
  chunks: AsyncIterable<Chunk>,
  lookup: RegistrationLookup,
  onProgress?: (looked: number) => void,
): Promise<AlreadyPaid> {
  const out: AlreadyPaid = { looked: 0, items: 0, units: 0 };
  let batch: Item[] = [];
  let numbers = new Set<string>();
  const flush = async () => {
    if (batch.length === 0) return;
    const found = await lookup.registered(batch);
    for (const item of batch) {
      const carriers = found.get(item.number.toUpperCase());
      if (carriers && (item.carrier === undefined || carriers.has(item.carrier))) {
        out.items += 1;
        out.units += unitCost(op, item);
      }
    }
    out.looked += batch.length;
    onProgress?.(out.looked);
    batch = [];
    numbers = new Set();
  };
  for await (const chunk of chunks) {
    for (const row of chunk.rows) {
      const key = row.item.number.toUpperCase();
      if (!numbers.has(key) && numbers.size === LIMITS.listNumberFilterMax) await flush();
      numbers.add(key);
      batch.push(row.item);
    }
  }
  await flush();
  return out;
}
