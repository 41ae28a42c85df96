// trk change-carrier: move numbers to another carrier or last-mile carrier (changecarrier). At most 5 changes
// per number; registration with the new carrier is charged once it succeeds. The flags apply to every row; a
// file may carry carrier_new / final_carrier_new columns of its own instead.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { ITEM_COLUMN_NAMES } from '../../output/column-names.js';
import { examples, runs, withColumns, type Declare } from '../define.js';
import { engineFlags, remembered, withInput } from './engine-flags.js';
import { fieldFlagValues, withFieldFlags } from './field-flags.js';
import type { ItemSourceOptions } from './shared.js';
import type { Listing } from '../listing.js';

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
  const { runItems } = await import('./run-items.js');
  return runItems(ctx, 'changecarrier', opts);
}

export const listing = {
  name: 'change-carrier',
  summary: 'change the carrier or last-mile carrier of numbers (at most 5 times each)',
  section: 'numbers',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(withFieldFlags(remembered(withInput(cmd)), 'changecarrier'), ITEM_COLUMN_NAMES)
    .addHelpText(
      'after',
      examples('trk change-carrier RR123456789CN --to 190008', 'trk change-carrier RR123456789CN --to "Yanwen"'),
    )
    .action((numbers, o) =>
      runs(
        invoke,
        () => import('./run-items.js'),
        async (ctx) => {
          const fields = await fieldFlagValues(ctx, 'changecarrier', o, o.carrierMap);
          return runChangeCarrier({ ...engineFlags(numbers, o), fields }, ctx);
        },
        o,
      ),
    );
