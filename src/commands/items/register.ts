// trk register: register tracking numbers for automatic tracking. Costs quota per accepted number (one more
// with --lang). Flags apply to every row without a value of its own.

import type { Context } from '../../context/context.js';
import { REGISTER_COLUMN_NAMES } from '../../output/column-names.js';
import { examples, runs, withColumns, type Declare } from '../define.js';
import { engineFlags, remembered, withInput } from './engine-flags.js';
import { fieldFlagValues, withFieldFlags } from './field-flags.js';
import type { ItemSourceOptions } from './shared.js';
import type { Listing } from '../listing.js';

export type RegisterOptions = ItemSourceOptions;

export async function runRegister(opts: RegisterOptions, ctx: Context): Promise<number> {
  const { runItems } = await import('./run-items.js');
  return runItems(ctx, 'register', opts, { origin: true });
}

export const listing = {
  name: 'register',
  summary: 'register tracking numbers for automatic tracking (costs quota)',
  section: 'numbers',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(withFieldFlags(remembered(withInput(cmd)), 'register'), REGISTER_COLUMN_NAMES)
    .addHelpText(
      'after',
      examples(
        'trk register RR123456789CN --carrier 3011',
        'trk register -f numbers.csv --tag batch-7',
        'cut -d, -f1 orders.csv | trk register --json',
      ),
    )
    .action((numbers, o) =>
      runs(
        invoke,
        () => import('./run-items.js'),
        async (ctx) => {
          const fields = await fieldFlagValues(ctx, 'register', o, o.carrierMap);
          return runRegister({ ...engineFlags(numbers, o), fields }, ctx);
        },
        o,
      ),
    );
