// trk info: the stored tracking details of numbers (gettrackinfo). Reads only; costs nothing.

import type { ApiVersion } from '../api/spec.js';
import type { ItemResults } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { toDetailsView } from '../output/records.js';
import type { ItemResultsWriter } from '../output/render.js';
import { detailsWriter } from './shared/details.js';
import { inputCarrierResolver, type ItemSourceOptions } from './shared/items.js';

export interface InfoOptions extends ItemSourceOptions {
  /** Show only numbers whose latest main status is this. */
  status?: string | undefined;
  /** Show only numbers whose latest sub-status is this. */
  subStatus?: string | undefined;
}

/**
 * Keeps the accepted items whose latest status matches the filters (the service has no such filter for
 * details); rejected numbers are always kept, since they are not a status.
 */
export function filterByStatus(results: ItemResults<unknown>, version: ApiVersion, opts: InfoOptions): ItemResults<unknown> {
  if (opts.status === undefined && opts.subStatus === undefined) return results;
  const accepted = results.accepted.filter((item) => {
    const view = toDetailsView(item, version);
    return (opts.status === undefined || view.status === opts.status) && (opts.subStatus === undefined || view.sub_status === opts.subStatus);
  });
  return { accepted, rejected: results.rejected };
}

/** Writes the details that pass the status filters, and says how many did when a filter is set. */
function matching(ctx: Context, inner: ItemResultsWriter, version: ApiVersion, opts: InfoOptions): ItemResultsWriter {
  if (opts.status === undefined && opts.subStatus === undefined) return inner;
  let found = 0;
  let shown = 0;
  return {
    write(results) {
      const kept = filterByStatus(results, version, opts);
      found += results.accepted.length;
      shown += kept.accepted.length;
      inner.write(kept);
    },
    async end() {
      await inner.end();
      const wanted = [opts.status, opts.subStatus].filter((s) => s !== undefined).join(' / ');
      ctx.info(`${shown} of ${found} found ${found === 1 ? 'is' : 'are'} ${wanted}`);
    },
    abort: () => inner.abort(),
  };
}

export async function runInfo(opts: InfoOptions, ctx: Context): Promise<number> {
  const { apiVersion } = await ctx.settings();
  if (apiVersion === 'v1' && opts.subStatus !== undefined) {
    throw new UsageError('the v1 API has no sub-statuses', 'filter with --status, or use --api-version v2 or v2.1');
  }
  const { flagDefaults, runItemCommand } = await import('../items/command.js');
  return runItemCommand(ctx, {
    operation: 'gettrackinfo',
    flags: opts,
    defaults: flagDefaults({ carrier: opts.carrier }),
    resolveCarrier: await inputCarrierResolver(ctx),
    print: async () => matching(ctx, await detailsWriter(ctx, apiVersion), apiVersion, opts),
  });
}
