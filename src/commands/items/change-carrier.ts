// trk change-carrier: move numbers to another carrier or last-mile carrier (changecarrier). At most 5 changes
// per number; registration with the new carrier is charged once it succeeds. The flags apply to every row; a
// file may carry carrier_new / final_carrier_new columns of its own instead.

import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';
import { flagDefaults, runItemCommand } from '../../items/command.js';

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
  // The service would refuse every item with -18019804; numbers given as arguments have no columns to say it.
  if (opts.numbers.length > 0 && opts.to === undefined && opts.finalTo === undefined) {
    throw new UsageError('nothing to change', 'give the new carrier with --to <code> or the new last-mile carrier with --final-to <code>');
  }
  return runItemCommand(ctx, {
    operation: 'changecarrier',
    flags: opts,
    defaults: flagDefaults({
      carrier_old: opts.from,
      carrier_new: opts.to,
      final_carrier_old: opts.finalFrom,
      final_carrier_new: opts.finalTo,
    }),
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx),
  });
}
