// trk change-carrier: move numbers to another carrier or last-mile carrier (changecarrier). At most 5 changes
// per number; registration with the new carrier is charged once it succeeds.

import { changeCarrierBody } from '../api/operations.js';
import type { ChangeCarrierRequestItem, ItemResults, NumberCarrierAccepted } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { itemColumns } from '../output/columns.js';
import { printItemResults } from '../output/render.js';
import { tableNames } from './shared/names.js';
import { collectTargets, finishItems, sendItems } from './shared/items.js';

export interface ChangeCarrierOptions {
  numbers: readonly string[];
  file?: string | undefined;
  /** carrier_new */
  to?: number | undefined;
  /** carrier_old; a carrier column in the input overrides it per row. */
  from?: number | undefined;
  finalTo?: number | undefined;
  finalFrom?: number | undefined;
  /** With -f: the bulk path's flags. */
  dryRun?: boolean | undefined;
  restart?: boolean | undefined;
  rejects?: string | undefined;
}

export async function runChangeCarrier(opts: ChangeCarrierOptions, ctx: Context): Promise<number> {
  if (opts.file !== undefined) {
    // A file may carry carrier_new / final_carrier_new columns of its own: rows without either are reported there.
    const { flagDefaults, refuseMixedSources, runFileCommand } = await import('../bulk/command.js');
    refuseMixedSources(opts.numbers, opts.file);
    const columns = itemColumns(await tableNames(ctx));
    return runFileCommand(ctx, {
      operation: 'changecarrier',
      flags: { ...opts, file: opts.file },
      defaults: flagDefaults({
        carrier_old: opts.from,
        carrier_new: opts.to,
        final_carrier_old: opts.finalFrom,
        final_carrier_new: opts.finalTo,
      }),
      print: (results) => printItemResults(ctx.io, results as ItemResults<NumberCarrierAccepted>, columns, ctx.global.output),
    });
  }
  // The service would refuse every item with -18019804; say so before sending anything.
  if (opts.to === undefined && opts.finalTo === undefined) {
    throw new UsageError('nothing to change', 'give the new carrier with --to <code> or the new last-mile carrier with --final-to <code>');
  }
  const { apiVersion } = await ctx.settings();
  const targets = await collectTargets(
    { numbers: opts.numbers, file: opts.file, carrier: opts.from, dryRun: opts.dryRun, restart: opts.restart, rejects: opts.rejects },
    ctx,
    apiVersion,
  );
  const items: ChangeCarrierRequestItem[] = targets.map((t) => {
    const item: ChangeCarrierRequestItem = { number: t.number };
    if (t.carrier !== undefined) item.carrier_old = t.carrier;
    if (opts.to !== undefined) item.carrier_new = opts.to;
    if (opts.finalFrom !== undefined) item.final_carrier_old = opts.finalFrom;
    if (opts.finalTo !== undefined) item.final_carrier_new = opts.finalTo;
    return item;
  });
  if (items.length === 0) {
    ctx.info('no numbers given');
    return 0;
  }
  const api = await ctx.api();
  const run = await sendItems<ChangeCarrierRequestItem, NumberCarrierAccepted>(ctx, api, 'changecarrier', items, (chunk) =>
    changeCarrierBody(api.version, chunk),
  );
  const columns = itemColumns(await tableNames(ctx));
  return finishItems(ctx, run, (results) => printItemResults(ctx.io, results, columns, ctx.global.output), {
    done: 'changed',
  });
}
