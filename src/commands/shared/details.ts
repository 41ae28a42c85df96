// Printing tracking details (trk info, trk realtime). On a terminal each number reads like a tracking page;
// piped or as CSV one row per number (the details columns) with rejected numbers as rows carrying their error;
// JSON and NDJSON keep the service's items as sent.

import type { ApiVersion } from '../../api/spec.js';
import type { ItemResults, RejectedItem } from '../../api/types.js';
import type { Context } from '../../context.js';
import { detailsColumns, itemColumns } from '../../output/columns.js';
import { toDetailsView, type DetailsView } from '../../output/records.js';
import { printItemResults, resolveFormat } from '../../output/render.js';
import { renderTrackingPage } from '../../output/tracking-page.js';
import { tableNames, viewNames } from './names.js';

export async function printDetails(ctx: Context, results: ItemResults<unknown>, version: ApiVersion): Promise<void> {
  const { io } = ctx;
  const format = ctx.global.output;
  const resolved = resolveFormat(io, format);
  if (resolved === 'json' || resolved === 'ndjson') {
    await printItemResults(io, results, [], format);
    return;
  }
  const names = await tableNames(ctx);
  const viewOpts = await viewNames(ctx, version);
  if (resolved === 'table') {
    const pages = results.accepted.map((item) =>
      renderTrackingPage(toDetailsView(item, version, viewOpts), io.color, { now: ctx.now(), width: io.columns, ...names }),
    );
    if (pages.length > 0) io.out(`${pages.map((p) => p.replace(/\n*$/, '\n')).join('\n')}`);
    if (results.rejected.length > 0) {
      if (pages.length > 0) io.out('\n');
      await printItemResults(io, { accepted: [], rejected: results.rejected }, itemColumns(names), format);
    }
    return;
  }
  // One row per number; rejected numbers get an empty details view so every column can read them.
  const views: ItemResults<DetailsView> = {
    accepted: results.accepted.map((item) => toDetailsView(item, version, viewOpts)),
    rejected: results.rejected.map((r) => ({ ...toDetailsView(r, version, viewOpts), ...r }) as unknown as RejectedItem),
  };
  await printItemResults(io, views, detailsColumns(names), format);
}
