// Declarations of `trk carriers` and `trk countries`: the service's reference lists.

import { CARRIER_COLUMN_NAMES, COUNTRY_COLUMN_NAMES } from '../../output/column-names.js';
import { examples, lazy, pagerOption, withColumns, type Declare } from '../define.js';

const carriers: Declare = (cmd, invoke) =>
  withColumns(
    cmd
      .argument('[query]', 'a code, a name or part of one, or a country code')
      .option('--refresh', 'fetch the list again even when the cached copy is fresh')
      .option(
        '--aliases',
        'list the carrier aliases in force instead (built in, carrier-alias.NAME of the profile, --carrier-map)',
      )
      .option('--carrier-map <file>', 'with --aliases: include the aliases of this name,code file')
      .addOption(pagerOption()),
    CARRIER_COLUMN_NAMES,
  )
    .addHelpText(
      'after',
      examples(
        'trk carriers dhl',
        'trk carriers 3011 --json',
        'trk carriers post --columns key,name -o csv',
        'trk carriers --aliases --carrier-map carriers.csv',
      ),
    )
    .action((query, o) =>
      lazy(
        invoke,
        () => import('./carriers.js'),
        (m, ctx) =>
          o.aliases
            ? m.runCarrierAliases({ carrierMap: o.carrierMap }, ctx)
            : m.runCarriers({ query, refresh: o.refresh === true }, ctx),
        o,
      ),
    );

const countries: Declare = (cmd, invoke) =>
  withColumns(
    cmd
      .argument('[query]', 'a key, a name or part of one, or an ISO code')
      .option('--refresh', 'fetch the lists again even when the cached copies are fresh')
      .addOption(pagerOption()),
    COUNTRY_COLUMN_NAMES,
  )
    .addHelpText('after', examples('trk countries brazil', 'trk countries BR'))
    .action((query, o) =>
      lazy(
        invoke,
        () => import('./countries.js'),
        (m, ctx) => m.runCountries({ query, refresh: o.refresh === true }, ctx),
        o,
      ),
    );

export const declarations: Readonly<Record<string, Declare>> = { carriers, countries };
