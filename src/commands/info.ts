// trk info: the stored tracking details of numbers (gettrackinfo). Reads only; costs nothing.

import { numberCarrierBody } from '../api/operations.js';
import type { Context } from '../context.js';
import { printDetails } from './shared/details.js';
import { collectTargets, finishItems, sendItems, type ItemSourceOptions, type TargetItem } from './shared/items.js';

export type InfoOptions = ItemSourceOptions;

export async function runInfo(opts: InfoOptions, ctx: Context): Promise<number> {
  const { apiVersion } = await ctx.settings();
  if (opts.file !== undefined) {
    const { flagDefaults, refuseMixedSources, runFileCommand } = await import('../bulk/command.js');
    refuseMixedSources(opts.numbers, opts.file);
    return runFileCommand(ctx, {
      operation: 'gettrackinfo',
      flags: { ...opts, file: opts.file },
      defaults: flagDefaults({ carrier: opts.carrier }),
      print: (results) => printDetails(ctx, results, apiVersion),
    });
  }
  const targets = await collectTargets(opts, ctx, apiVersion);
  if (targets.length === 0) {
    ctx.info('no numbers given');
    return 0;
  }
  const api = await ctx.api();
  const run = await sendItems<TargetItem, unknown>(ctx, api, 'gettrackinfo', targets, (chunk) =>
    numberCarrierBody(api.version, 'gettrackinfo', chunk),
  );
  return finishItems(ctx, run, (results) => printDetails(ctx, results, api.version), { done: 'found' });
}
