// Carrier and country names for what commands print. Names come from the cached reference lists only (never a
// network call just for names; see carriers/lookup.ts): without a cache, tables show bare codes, except those of
// the offline reads (`changes`, `find`), which name carriers from the list shipped with trk. The lists' code is
// loaded only when names are shown.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { Context } from '../../context/context.js';
import type { ColumnOptions } from '../../output/columns.js';
import type { ViewOptions } from '@trk/service/records.js';
import { resolveFormat } from '../../output/render.js';

/**
 * Carrier names beside codes, for tables only: CSV, TSV and JSON keep the bare codes a script expects. `shipped`:
 * without a cached list, the one shipped with trk (the offline reads, which ask the network for nothing).
 */
export async function tableNames(ctx: Context, opts: { shipped?: boolean } = {}): Promise<ColumnOptions> {
  if (resolveFormat(ctx.io, ctx.global.output) !== 'table') return {};
  const { cachedCarriers, shippedCarriers } = await import('../../carriers/lookup.js');
  // Without the list, no lookup: tables then keep no room for names that cannot come.
  const carriers = (await cachedCarriers(ctx)) ?? (opts.shipped ? await shippedCarriers() : undefined);
  if (!carriers) return {};
  const names = new Map(carriers.map((c) => [c.key, c.name]));
  return { carrierName: (key) => names.get(key) };
}

/**
 * v1 sends countries as numeric keys of the service's country list; they become ISO codes (as v2 sends them)
 * when the lists are cached, so CSV columns read alike whatever the version. Other versions need nothing.
 */
export async function viewNames(ctx: Context, version: ApiVersion): Promise<ViewOptions> {
  if (version !== 'v1') return {};
  const { countryNames } = await import('../../carriers/lookup.js');
  return { countryName: await countryNames(ctx) };
}
