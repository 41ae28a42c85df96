// trk change-carrier: move numbers to another carrier or last-mile carrier (changecarrier). At most 5 changes
// per number; registration with the new carrier is charged once it succeeds.

import { changeCarrierBody } from '../api/operations.js';
import type { ChangeCarrierRequestItem, NumberCarrierAccepted } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { collectTargets, finishItems, itemResultsPrinter, sendItems, type ItemSourceOptions } from './shared/items.js';

/** The current carrier is `from`, not `carrier`. */
export interface ChangeCarrierOptions extends Omit<ItemSourceOptions, 'carrier'> {
  /** carrier_new */
  to?: number | undefined;
  /** carrier_old; a carrier column in the input overrides it per row. */
  from?: number | undefined;
  finalTo?: number | undefined;
  finalFrom?: number | undefined;
}

export async function runChangeCarrier(opts: ChangeCarrierOptions, ctx: Context): Promise<number> {
  if (opts.file !== undefined) {
    // A file may carry carrier_new / final_carrier_new columns of its own: rows without either are reported there.
    const { flagDefaults, refuseMixedSources, runFileCommand } = await import('../items/command.js');
    refuseMixedSources(opts.numbers, opts.file);
    const print = await itemResultsPrinter(ctx);
    return runFileCommand(ctx, {
      operation: 'changecarrier',
      flags: { ...opts, file: opts.file },
      defaults: flagDefaults({
        carrier_old: opts.from,
        carrier_new: opts.to,
        final_carrier_old: opts.finalFrom,
        final_carrier_new: opts.finalTo,
      }),
      print,
    });
  }
  // The service would refuse every item with -18019804; say so before sending anything.
  if (opts.to === undefined && opts.finalTo === undefined) {
    throw new UsageError('nothing to change', 'give the new carrier with --to <code> or the new last-mile carrier with --final-to <code>');
  }
  const { apiVersion } = await ctx.settings();
  const targets = await collectTargets({ ...opts, carrier: opts.from }, ctx, apiVersion);
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
  return finishItems(ctx, run, await itemResultsPrinter(ctx), { done: 'changed' });
}
