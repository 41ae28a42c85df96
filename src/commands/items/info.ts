// trk info: the stored tracking details of numbers (gettrackinfo). Reads only; costs nothing.

import type { ApiVersion } from '../../api/spec.js';
import type { ItemResults } from '../../api/types.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { toDetailsView } from '../../output/records.js';
import { printDetails } from '../shared/details.js';
import { inputCarrierResolver, type ItemSourceOptions } from './shared.js';

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

/** Prints the details that pass the status filters, and says how many did when a filter is set. */
async function printMatching(ctx: Context, results: ItemResults<unknown>, version: ApiVersion, opts: InfoOptions): Promise<void> {
  const shown = filterByStatus(results, version, opts);
  await printDetails(ctx, shown, version);
  if (shown !== results) {
    const wanted = [opts.status, opts.subStatus].filter((s) => s !== undefined).join(' / ');
    ctx.info(`${shown.accepted.length} of ${results.accepted.length} found ${results.accepted.length === 1 ? 'is' : 'are'} ${wanted}`);
  }
}

export async function runInfo(opts: InfoOptions, ctx: Context): Promise<number> {
  const { apiVersion } = await ctx.settings();
  if (apiVersion === 'v1' && opts.subStatus !== undefined) {
    throw new UsageError('the v1 API has no sub-statuses', 'filter with --status, or use --api-version v2 or v2.1');
  }
  const { flagDefaults, runItemCommand } = await import('../../items/command.js');
  return runItemCommand(ctx, {
    operation: 'gettrackinfo',
    flags: opts,
    defaults: flagDefaults({ carrier: opts.carrier }),
    resolveCarrier: await inputCarrierResolver(ctx),
    print: (results) => printMatching(ctx, results, apiVersion, opts),
  });
}
