// Printing tracking details (trk info, trk realtime), as they come. On a terminal each number reads like a tracking page;
// piped or as CSV one row per number (the details columns) with rejected numbers as rows carrying their error;
// JSON and NDJSON keep the service's items as sent.

import type { ApiVersion } from '../../api/spec.js';
import type { ItemResults, RejectedItem } from '../../api/types.js';
import type { Context } from '../../context.js';
import { detailsColumns, itemColumns } from '../../output/columns.js';
import { toDetailsView, type DetailsView } from '../../output/records.js';
import { createItemResultsWriter, printItemResults, resolveFormat, type ItemResultsWriter } from '../../output/render.js';
import { tableNames, viewNames } from './names.js';

/** The writer of details as they come (see the top of this file); a terminal shows one tracking page per number. */
export async function detailsWriter(ctx: Context, version: ApiVersion): Promise<ItemResultsWriter> {
  const { io } = ctx;
  const format = ctx.global.output;
  const resolved = resolveFormat(io, format);
  if (resolved === 'json' || resolved === 'ndjson') return createItemResultsWriter(io, [], format);
  const names = await tableNames(ctx);
  const viewOpts = await viewNames(ctx, version);
  if (resolved === 'table') {
    const { renderTrackingPage } = await import('../../output/tracking-page.js');
    // Pages are printed as they come, a blank line apart; rejected numbers follow in a table of their own.
    let pages = 0;
    const rejected: RejectedItem[] = [];
    const finish = async () => {
      if (rejected.length === 0) return;
      if (pages > 0) io.out('\n');
      await printItemResults(io, { accepted: [], rejected }, itemColumns(names), format);
    };
    return {
      write(results) {
        for (const item of results.accepted) {
          const page = renderTrackingPage(toDetailsView(item, version, viewOpts), io.color, { now: ctx.now(), width: io.columns, ...names });
          io.out(`${pages++ === 0 ? '' : '\n'}${page.replace(/\n*$/, '\n')}`);
        }
        rejected.push(...results.rejected);
      },
      end: finish,
      abort: finish,
    };
  }
  // One row per number; rejected numbers get an empty details view so every column can read them.
  return createItemResultsWriter<unknown, DetailsView>(io, detailsColumns(names), format, {
    accepted: (item) => toDetailsView(item, version, viewOpts),
    rejected: (r) => ({ ...toDetailsView(r, version, viewOpts), ...r }) as unknown as DetailsView,
  });
}

/** Details in one go (trk realtime). */
export async function printDetails(ctx: Context, results: ItemResults<unknown>, version: ApiVersion): Promise<void> {
  const writer = await detailsWriter(ctx, version);
  writer.write(results);
  await writer.end();
}
