// trk update: change the tag, extra parameter or translation language of numbers. The flags apply
// to every row; a file may carry tag, param and lang columns of its own instead.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { ITEM_COLUMN_NAMES } from '../../output/column-names.js';
import { operationOfCommand } from '@trk/service/operations/index.js';
import { examples, runs, withColumns, type Declare } from '../define.js';
import { engineFlags, remembered, withInput } from './engine-flags.js';
import { fieldFlagValues, withFieldFlags } from './field-flags.js';
import type { ItemSourceOptions } from './shared.js';
import type { Listing } from '../listing.js';

export type UpdateOptions = ItemSourceOptions;

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<number> {
  // Numbers given as arguments have no columns of their own: without a flag there is nothing to send.
  const { carrier: _which, ...changes } = opts.fields ?? {};
  if (opts.numbers.length > 0 && Object.values(changes).every((v) => v === undefined)) {
    throw new UsageError('nothing to change', 'give --tag, --param or --lang');
  }
  const { runItems } = await import('./run-items.js');
  return runItems(ctx, operationOfCommand('update'), opts);
}

export const listing = {
  name: 'update',
  summary: 'change the tag, parameter or translation language of numbers (changeinfo)',
  section: 'numbers',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(withFieldFlags(remembered(withInput(cmd)), operationOfCommand('update')), ITEM_COLUMN_NAMES)
    .addHelpText(
      'after',
      examples('trk update RR123456789CN --tag returned-goods', 'trk update -f orders.csv --column order_id=tag'),
    )
    .action((numbers, o) =>
      runs(
        invoke,
        () => import('./run-items.js'),
        async (ctx) => {
          const fields = await fieldFlagValues(ctx, operationOfCommand('update'), o, o.carrierMap);
          return runUpdate({ ...engineFlags(numbers, o), fields }, ctx);
        },
        o,
      ),
    );
