// trk carriers [QUERY]: search the service's carrier list (codes and names), cached with its age.

import type { Carrier } from '../../carriers/parse.js';
import type { Context } from '../../context/context.js';
import { EXIT } from '../../core/exit-codes.js';
import { CARRIER_COLUMN_NAMES } from '../../output/column-names.js';
import { columnsByName } from '../../output/columns.js';
import type { Column } from '../../output/render.js';
import { outputOf, paged } from '../common/output.js';
import { aliasEntries } from '../../carriers/aliases.js';
import { describeList } from '../../carriers/lists.js';
import { cachedCarriers, loadCarriers } from '../../carriers/lookup.js';
import { searchCarriers } from '../../carriers/search.js';
import { printRows } from '../../output/render.js';
import { examples, pagerOption, running, withColumns, type Declare } from '../define.js';
import type { Listing } from '../listing.js';

export interface CarriersOptions {
  /** A code, a name or part of one (any language), or a country's ISO code. */
  query?: string | undefined;
  /** Fetch the list again even when the cached copy is fresh. */
  refresh?: boolean | undefined;
}

export const CARRIER_COLUMNS: readonly Column<Carrier>[] = columnsByName<
  Carrier,
  (typeof CARRIER_COLUMN_NAMES)[number]
>(CARRIER_COLUMN_NAMES, {
  key: { header: 'CODE', value: (c) => c.key, id: true },
  name: { header: 'NAME', value: (c) => c.name, shrink: 16 },
  country: { header: 'COUNTRY', value: (c) => c.countryIso },
  url: { header: 'URL', value: (c) => c.url, shrink: 16, wide: 1 },
});

/** One alias as `trk carriers --aliases` shows it. */
interface AliasRow {
  name: string;
  code: number;
  carrier: string | null;
  from: string;
}

const ALIAS_COLUMNS: readonly Column<AliasRow>[] = [
  { key: 'name', header: 'NAME', value: (r) => r.name },
  { key: 'code', header: 'CODE', value: (r) => r.code, id: true },
  {
    key: 'carrier',
    header: 'CARRIER',
    value: (r) => r.carrier,
    display: (r) => r.carrier ?? (r.code === 0 ? '(none: detected)' : '(not in the list)'),
  },
  { key: 'from', header: 'FROM', value: (r) => r.from },
];

/** `trk carriers --aliases`: every alias in force, the winning one last, with its carrier's name. */
export async function runCarrierAliases(opts: { carrierMap?: string | undefined }, ctx: Context): Promise<number> {
  const entries = aliasEntries(await ctx.settings(), opts.carrierMap);
  // Names from the cached list only: listing aliases never costs a fetch.
  const names = new Map((await cachedCarriers(ctx))?.map((c) => [c.key, c.name]) ?? []);
  const rows: AliasRow[] = entries.map((e) => ({ ...e, carrier: names.get(e.code) ?? null }));
  ctx.info(`${rows.length} carrier aliases; set one with: trk config set carrier-alias.NAME CODE`);
  await paged(ctx, (io) => printRows(io, rows, ALIAS_COLUMNS, outputOf(ctx)));
  return EXIT.ok;
}

export async function runCarriers(opts: CarriersOptions, ctx: Context): Promise<number> {
  const { carriers, list } = await loadCarriers(ctx, { refresh: opts.refresh === true });
  const found = searchCarriers(carriers, opts.query);
  const total = describeList(list, carriers.length, ['carrier', 'carriers'], ctx.now());
  ctx.info(opts.query ? `${found.length} of ${total} match "${opts.query}"` : total);
  await paged(ctx, (io) =>
    printRows(
      io,
      found,
      CARRIER_COLUMNS,
      outputOf(ctx),
      found.map((c) => c.raw),
    ),
  );
  return EXIT.ok;
}

export const listing = {
  name: 'carriers',
  summary: "search the service's carrier list (codes and names)",
  section: 'more',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
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
      running(
        invoke,
        (ctx) =>
          o.aliases
            ? runCarrierAliases({ carrierMap: o.carrierMap }, ctx)
            : runCarriers({ query, refresh: o.refresh === true }, ctx),
        o,
      ),
    );
