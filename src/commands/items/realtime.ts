// trk realtime: current tracking data of one number fetched from the carrier (getRealTimeTrackInfo); the run in
// realtime-run.ts.

import { DETAILS_RESULT_COLUMN_NAMES } from '../../output/column-names.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import {
  carrierArg,
  carrierOption,
  examples,
  lazy,
  Option,
  pagerOption,
  prints,
  relativeOption,
  withColumns,
  type Declare,
} from '../define.js';
import { resolveCarriers } from './field-flags.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'realtime',
  summary: 'fetch current tracking data of one number from the carrier (costs quota)',
  section: 'numbers',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(
    prints(cmd, OUTPUT_FORMATS)
      .argument('<number>', 'tracking number')
      .addOption(carrierOption('carrier code or name (default: detected by the service)'))
      .option('--param <value>', 'extra tracking parameter')
      .addOption(new Option('--final-carrier <carrier>', 'last-mile carrier code or name').argParser(carrierArg))
      .option(
        '--fresh',
        'fetch from the carrier now instead of a result up to 3 hours old (10 quota units instead of 1)',
      )
      .addOption(relativeOption())
      .addOption(pagerOption()),
    DETAILS_RESULT_COLUMN_NAMES,
  )
    .addHelpText('after', examples('trk realtime RR123456789CN', 'trk realtime RR123456789CN --fresh --yes --json'))
    .action((number, o) =>
      lazy(
        invoke,
        () => import('./realtime-run.js'),
        async (m, ctx) => {
          const codes = await resolveCarriers(ctx, {
            carrier: ['--carrier', o.carrier],
            finalCarrier: ['--final-carrier', o.finalCarrier],
          });
          return m.runRealtime(
            {
              number,
              carrier: codes.carrier,
              param: o.param,
              finalCarrier: codes.finalCarrier,
              fresh: o.fresh === true,
            },
            ctx,
          );
        },
        o,
      ),
    );
