// trk delete: delete numbers from the account (deletetrack); irreversible, so it asks first (or needs --yes).

import { ITEM_COLUMN_NAMES } from '../../output/column-names.js';
import { examples, lazy, withColumns, type Declare } from '../define.js';
import { engineFlags, remembered, withInput } from './engine-flags.js';
import { fieldFlagValues, withFieldFlags } from './field-flags.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'delete',
  summary: 'delete numbers from the account (irreversible; asks first, or needs --yes)',
  section: 'numbers',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(
    withFieldFlags(remembered(withInput(cmd)), 'deletetrack').option(
      '--ignore-missing',
      'count a number that is not registered as deleted (exit 0) instead of rejected',
    ),
    ITEM_COLUMN_NAMES,
  )
    .addHelpText(
      'after',
      examples(
        'trk delete RR123456789CN',
        'trk delete -f old.csv --yes',
        'trk list --status Expired -o ids | trk delete --yes --ignore-missing',
      ),
    )
    .action((numbers, o) =>
      lazy(
        invoke,
        () => import('./actions.js'),
        async (m, ctx) => {
          const fields = await fieldFlagValues(ctx, 'deletetrack', o, o.carrierMap);
          return m.runItemAction('delete', { ...engineFlags(numbers, o), fields, ignoreMissing: o.ignoreMissing }, ctx);
        },
        o,
      ),
    );
