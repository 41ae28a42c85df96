// trk realtime: current tracking data of one number fetched from the carrier (getRealTimeTrackInfo). Costs
// 1 quota unit, or 10 with --fresh (cacheLevel 1), which therefore asks first.

import { wireBody } from '../../api/request-body.js';
import { numberPattern, REALTIME_CACHE_COST } from '@trk/service/vocabulary.js';
import type { RealtimeRequestItem } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { show } from '../../output/sanitize.js';
import { checkTextOutput, printDetails } from '../common/details.js';
import { confirmOrRefuse } from './shared.js';

export interface RealtimeOptions {
  number: string;
  carrier?: number | undefined;
  param?: string | undefined;
  finalCarrier?: number | undefined;
  /** cacheLevel 1: fetched from the carrier now, 10 quota units. */
  fresh: boolean;
}

export function realtimeItem(opts: RealtimeOptions): RealtimeRequestItem {
  const item: RealtimeRequestItem = { number: opts.number.trim() };
  if (opts.carrier !== undefined) item.carrier = opts.carrier;
  if (opts.param !== undefined) item.param = opts.param;
  if (opts.finalCarrier !== undefined) item.final_carrier = opts.finalCarrier;
  // Level 0 is the service's default; it is sent anyway so the cost of the request is explicit on the wire.
  item.cacheLevel = opts.fresh ? 1 : 0;
  return item;
}

export async function runRealtime(opts: RealtimeOptions, ctx: Context): Promise<number> {
  const { apiVersion } = await ctx.settings();
  const item = realtimeItem(opts);
  checkTextOutput(ctx);
  if (!numberPattern(apiVersion).test(item.number)) {
    throw new UsageError(
      `invalid tracking number ${show(item.number)}`,
      `tracking numbers are 5 to 50 letters, digits${apiVersion === 'v1' ? '' : ' or hyphens'}; nothing was sent`,
    );
  }
  const body = wireBody('getRealTimeTrackInfo', apiVersion, item);
  if (opts.fresh) {
    const units = REALTIME_CACHE_COST[1];
    await confirmOrRefuse(
      ctx,
      `Fetch ${item.number} fresh from the carrier? This costs ${units} quota units instead of ` +
        `${REALTIME_CACHE_COST[0]}.`,
      {
        what: `--fresh (${units} quota units)`,
      },
    );
  }
  const api = await ctx.api();
  // Charging: never cut short once sent, and never sent twice by a retry (the client's policy).
  const envelope = await api.call('getRealTimeTrackInfo', body);
  const results = { accepted: envelope.data?.accepted ?? [], rejected: envelope.data?.rejected ?? [] };
  await printDetails(ctx, results, api.version);
  return results.rejected.length > 0 ? EXIT.failure : EXIT.ok;
}
