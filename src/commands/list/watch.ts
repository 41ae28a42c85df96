// trk list --watch: the list looked at again every --every and redrawn when it changed, until every record in it
// is delivered or returned. List records carry only the main status: for those in Exception, whether the
// shipment was returned is read from their tracking details (gettrackinfo, no quota).

import type { ApiClient } from '../../api/client.js';
import type { TrackListFilter, TrackRecord } from '../../api/types.js';
import type { Context } from '../../context.js';
import { recordColumns } from '../../output/columns.js';
import { recordForJson, toRecordView } from '../../output/records.js';
import { printRows } from '../../output/render.js';
import { fmt } from '../../text.js';
import { tableNames, viewNames } from '../common/names.js';
import { outputOf } from '../common/output.js';
import { captureIO, DEFAULT_EVERY_MS, watch } from '../common/watch.js';
import type { ListOptions } from './filters.js';
import { listLimit, listRecords } from './list.js';
import { subStatuses } from './local.js';
import { recordKey } from './merge.js';

export async function watchList(ctx: Context, api: ApiClient, filters: readonly TrackListFilter[], opts: ListOptions): Promise<number> {
  const { limit } = listLimit(opts, ctx.io.stdoutIsTTY);
  const columns = recordColumns(await tableNames(ctx));
  const viewOpts = await viewNames(ctx, api.version);
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
    const delivered = shown.filter((r) => r.package_status === 'Delivered').length;
    const exceptions = shown.filter((r) => r.package_status === 'Exception');
    const subs = exceptions.length > 0 ? await subStatuses(api, exceptions, ctx.signal) : new Map<string, string>();
    const returned = exceptions.filter((r) => subs.get(recordKey(r)) === 'Exception_Returned').length;
    const note =
      shown.length === 0
        ? 'no records yet'
        : `${fmt(delivered)} of ${fmt(shown.length)} delivered${returned > 0 ? `, ${fmt(returned)} returned` : ''}`;
    return { text: out.text(), finished: shown.length > 0 && delivered + returned === shown.length, note };
  });
}
