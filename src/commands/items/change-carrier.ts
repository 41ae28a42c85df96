// trk change-carrier: move numbers to another carrier or last-mile carrier (changecarrier). At most 5 changes
// per number; registration with the new carrier is charged once it succeeds. The flags apply to every row; a
// file may carry carrier_new / final_carrier_new columns of its own instead.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';
import { runItemCommand } from '../../items/command.js';

export type ChangeCarrierOptions = ItemSourceOptions;

export async function runChangeCarrier(opts: ChangeCarrierOptions, ctx: Context): Promise<number> {
  // The service would refuse every item with -18019804; numbers given as arguments have no columns to say it.
  if (
    opts.numbers.length > 0 &&
    opts.fields?.carrier_new === undefined &&
    opts.fields?.final_carrier_new === undefined
  ) {
    throw new UsageError(
      'nothing to change',
      'give the new carrier with --to <code> or the new last-mile carrier with --final-to <code>',
    );
  }
  return runItemCommand(ctx, {
    operation: 'changecarrier',
    flags: opts,
    fields: opts.fields,
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx),
  });
}
