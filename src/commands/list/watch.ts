// trk list --watch: the list looked at again every --every and redrawn when it changed, until every record it
// has shown is delivered or returned. A record that leaves the filters (`--status OutForDelivery` once it is
// delivered) is still watched: it is looked up by its number (gettracklist, no quota) until it is final, so the
// watch ends rather than showing an empty list forever. List records carry only the main status: for those in
// Exception, whether the shipment was returned is read from their tracking details (gettrackinfo, no quota).

import type { ApiClient } from '../../api/client.js';
import type { TrackListFilter, TrackRecord } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import { recordColumns } from '../../output/columns.js';
import { recordForJson, toRecordView } from '@trk/service/records.js';
import { printRows } from '../../output/render.js';
import { fmt } from '../../core/text.js';
import { tableNames, viewNames } from '../common/names.js';
import { outputOf } from '../common/output.js';
import { captureIO, DEFAULT_EVERY_MS, watch } from '../common/watch.js';
import type { ListOptions } from './filters.js';
import { listLimit, listRecords } from './list-run.js';
import { subStatuses } from './local.js';
import { recordKey } from './merge.js';
import { recordsOfNumbers } from './numbers.js';

export async function watchList(
  ctx: Context,
  api: ApiClient,
  filters: readonly TrackListFilter[],
  opts: ListOptions,
): Promise<number> {
  const { limit } = listLimit(opts, ctx.io.stdoutIsTTY);
  const columns = recordColumns(await tableNames(ctx));
  const viewOpts = await viewNames(ctx, api.version);
  const watched = new Watched(api, ctx.signal);
  return watch(ctx, opts.every ?? DEFAULT_EVERY_MS, async () => {
    const records: TrackRecord[] = [];
    for await (const batch of listRecords(api, filters, opts, ctx.signal, () => {})) {
      records.push(...batch);
      if (records.length >= limit) break;
    }
    const shown = records.slice(0, limit);
    const out = captureIO(ctx.io);
    await printRows(
      out.io,
      shown.map((r) => toRecordView(r, api.version, viewOpts)),
      columns,
      outputOf(ctx),
      shown.map((r) => recordForJson(r, api.version)),
    );
    const seen = await watched.update(shown);
    return {
      text: out.text(),
      finished: seen.size > 0 && seen.delivered + seen.returned === seen.size,
      note: noteOf(seen),
    };
  });
}

/** What the records watched so far have come to. */
interface Seen {
  size: number;
  delivered: number;
  returned: number;
  /** Watched records the filters no longer match. */
  left: number;
}

function noteOf(seen: Seen): string {
  if (seen.size === 0) return 'no records yet';
  const returned = seen.returned > 0 ? `, ${fmt(seen.returned)} returned` : '';
  const left = seen.left > 0 ? ` (${fmt(seen.left)} no longer match${seen.left === 1 ? 'es' : ''} the filters)` : '';
  return `${fmt(seen.delivered)} of ${fmt(seen.size)} delivered${returned}${left}`;
}

/** Every record the watch has shown, by record key, with what it was last seen as. */
class Watched {
  readonly #records = new Map<string, TrackRecord>();
  /** Records in Exception found returned (a final state list records do not show). */
  readonly #returned = new Set<string>();

  readonly #api: ApiClient;
  readonly #signal: AbortSignal;

  constructor(api: ApiClient, signal: AbortSignal) {
    this.#api = api;
    this.#signal = signal;
  }

  /** Takes in one look's records, looks up those that left the filters and are not final yet, and counts. */
  async update(shown: readonly TrackRecord[]): Promise<Seen> {
    const inFilter = new Set(shown.map(recordKey));
    for (const r of shown) this.#records.set(recordKey(r), r);
    const left = [...this.#records.entries()].filter(([key]) => !inFilter.has(key));
    await this.#refresh(left.filter(([key, r]) => !this.#final(key, r)).map(([, r]) => r));
    await this.#checkReturned();
    const all = [...this.#records.entries()];
    return {
      size: all.length,
      delivered: all.filter(([, r]) => r.package_status === 'Delivered').length,
      returned: all.filter(([key]) => this.#returned.has(key)).length,
      left: all.filter(([key]) => !inFilter.has(key)).length,
    };
  }

  #final(key: string, r: TrackRecord): boolean {
    return r.package_status === 'Delivered' || this.#returned.has(key);
  }

  /** The records as they are now; one no longer in the account stops being watched. */
  async #refresh(stale: readonly TrackRecord[]): Promise<void> {
    if (stale.length === 0) return;
    const now = new Map(
      (
        await recordsOfNumbers(
          this.#api,
          stale.map((r) => String(r.number)),
          this.#signal,
        )
      ).map((r) => [recordKey(r), r]),
    );
    for (const r of stale) {
      const key = recordKey(r);
      const current = now.get(key);
      if (current) this.#records.set(key, current);
      else this.#records.delete(key);
    }
  }

  async #checkReturned(): Promise<void> {
    const exceptions = [...this.#records.entries()].filter(
      ([key, r]) => r.package_status === 'Exception' && !this.#returned.has(key),
    );
    if (exceptions.length === 0) return;
    const subs = await subStatuses(
      this.#api,
      exceptions.map(([, r]) => r),
      this.#signal,
    );
    for (const [key] of exceptions) if (subs.get(key) === 'Exception_Returned') this.#returned.add(key);
  }
}
