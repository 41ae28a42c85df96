// trk countries [QUERY]: search the service's country list. The keys are what v1 sends as countries (`b`, `c`)
// and what carriers give as `_country`; the ISO codes beside them are learnt from the carrier list.

import type { Country } from '../../carriers/parse.js';
import type { Context } from '../../context/context.js';
import { EXIT } from '../../core/exit-codes.js';
import { COUNTRY_COLUMN_NAMES } from '../../output/column-names.js';
import { columnsByName } from '../../output/columns.js';
import type { Column } from '../../output/render.js';
import { outputOf, paged } from '../common/output.js';
import { describeList } from '../../carriers/lists.js';
import { loadCarriers, loadCountries } from '../../carriers/lookup.js';
import { countryIsoByKey } from '../../carriers/parse.js';
import { searchCountries } from '../../carriers/search.js';
import { printRows } from '../../output/render.js';
import { examples, pagerOption, running, withColumns, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export interface CountriesOptions {
  /** A key, a name or part of one, or an ISO code. */
  query?: string | undefined;
  /** Fetch the lists again even when the cached copies are fresh. */
  refresh?: boolean | undefined;
}

interface CountryRow {
  country: Country;
  iso: string | undefined;
}

export const COUNTRY_COLUMNS: readonly Column<CountryRow>[] = columnsByName<
  CountryRow,
  (typeof COUNTRY_COLUMN_NAMES)[number]
>(COUNTRY_COLUMN_NAMES, {
  key: { header: 'KEY', value: (r) => r.country.key, id: true },
  iso: { header: 'ISO', value: (r) => r.iso },
  name: { header: 'NAME', value: (r) => r.country.name, shrink: 16 },
});

export async function runCountries(opts: CountriesOptions, ctx: Context): Promise<number> {
  const refresh = opts.refresh === true;
  const { countries, list } = await loadCountries(ctx, { refresh });
  // ISO codes only enrich the table: without the carrier list the column stays empty, the command still works.
  let iso = new Map<number, string>();
  try {
    iso = countryIsoByKey((await loadCarriers(ctx, { refresh })).carriers);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.io.err(`warning: no ISO codes: ${err instanceof Error ? err.message : String(err)}`);
  }
  const found = searchCountries(countries, opts.query, (k) => iso.get(k));
  const total = describeList(list, countries.length, ['country', 'countries'], ctx.now());
  ctx.info(opts.query ? `${found.length} of ${total} match "${opts.query}"` : total);
  const rows = found.map((country) => ({ country, iso: iso.get(country.key) }));
  await paged(ctx, (io) =>
    printRows(
      io,
      rows,
      COUNTRY_COLUMNS,
      outputOf(ctx),
      found.map((c) => c.raw),
    ),
  );
  return EXIT.ok;
}

export const listing = {
  name: 'countries',
  summary: "search the service's country list",
  section: 'more',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withColumns(
    cmd
      .argument('[query]', 'a key, a name or part of one, or an ISO code')
      .option('--refresh', 'fetch the lists again even when the cached copies are fresh')
      .addOption(pagerOption()),
    COUNTRY_COLUMN_NAMES,
  )
    .addHelpText('after', examples('trk countries brazil', 'trk countries BR'))
    .action((query, o) => running(invoke, (ctx) => runCountries({ query, refresh: o.refresh === true }, ctx), o));
