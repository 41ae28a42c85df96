// trk find: a customer's parcel looked up in the mirror by any part of its order number, e-mail, tag or number
// (the run beside the offline info, src/commands/items/info-offline.ts).

import { FIND_COLUMN_NAMES } from '../../output/column-names.js';
import { examples, lazy, pagerOption, relativeOption, withColumns, type Declare } from '../define.js';
import { dbOption } from './args.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'find',
  summary: "find a customer's parcel in the mirror by order number, e-mail or tag",
  section: 'mirror',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(
    cmd.argument('<text>', 'any part of an order number, e-mail, tag or tracking number (letters A to Z in any case)'),
    FIND_COLUMN_NAMES,
  )
    .addOption(dbOption())
    .addOption(relativeOption())
    .addOption(pagerOption())
    .addHelpText(
      'after',
      examples('trk find "#10030"', 'trk find 10030', 'trk find ann@example.com', 'trk find order-10030 --json'),
    )
    .action((text, o) =>
      lazy(
        invoke,
        () => import('../items/info-offline.js'),
        (m, ctx) => m.runFind({ text, db: o.db }, ctx),
        o,
      ),
    );
