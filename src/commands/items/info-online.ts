// trk info: the stored tracking details of numbers (gettrackinfo). Reads only; costs nothing. With --watch, the
// numbers given are looked at again every --every until each is delivered or returned.

import { wireBody } from '../../api/request-body.js';
import { LIMITS, numberPattern, type ApiVersion } from '@trk/service/vocabulary.js';
import type { ItemResults } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import { TrkError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { toDetailsView, type DetailsView } from '@trk/service/records.js';
import { resolveFormat, type ItemResultsWriter } from '../../output/render.js';
import { show } from '../../output/sanitize.js';
import { fmt } from '../../core/text.js';
import { checkTextOutput, detailsWriter, printDetails } from '../common/details.js';
import { outputOf } from '../common/output.js';
import { inputCarrierResolver, type ItemSourceOptions } from './shared.js';
import { runItemCommand } from '../../items/command.js';

export interface InfoOptions extends ItemSourceOptions {
  /** Show only numbers whose latest main status is one of these. */
  status?: readonly string[] | undefined;
  /** Show only numbers whose latest sub-status is one of these. */
  subStatus?: readonly string[] | undefined;
  /** --page: the full tracking page of each number, on a terminal. */
  pages?: boolean | undefined;
  /** Look again every `every` ms until each number is delivered or returned. */
  watch?: boolean | undefined;
  every?: number | undefined;
}

/**
 * Keeps the accepted items whose latest status matches the filters (the service has no such filter for
 * details); rejected numbers are always kept, since they are not a status.
 */
export function filterByStatus(
  results: ItemResults<unknown>,
  version: ApiVersion,
  opts: InfoOptions,
): ItemResults<unknown> {
  if (!opts.status?.length && !opts.subStatus?.length) return results;
  const accepted = results.accepted.filter((item) => {
    const view = toDetailsView(item, version);
    return (
      (!opts.status?.length || opts.status.includes(view.status ?? '')) &&
      (!opts.subStatus?.length || opts.subStatus.includes(view.sub_status ?? ''))
    );
  });
  return { accepted, rejected: results.rejected };
}

/** Writes the details that pass the status filters, and says how many did when a filter is set. */
export function matching(
  ctx: Context,
  inner: ItemResultsWriter,
  version: ApiVersion,
  opts: InfoOptions,
): ItemResultsWriter {
  if (!opts.status?.length && !opts.subStatus?.length) return inner;
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
      const wanted = [...(opts.status ?? []), ...(opts.subStatus ?? [])].join(' or ');
      ctx.info(`${shown} of ${found} found ${found === 1 ? 'is' : 'are'} ${wanted}`);
    },
    abort: () => inner.abort(),
  };
}

/** Flags that do not go together, refused before anything is sent. */
function checkOptions(ctx: Context, opts: InfoOptions, version: ApiVersion): void {
  checkTextOutput(ctx);
  if (version === 'v1' && opts.subStatus?.length) {
    throw new UsageError('the v1 API has no sub-statuses', 'filter with --status, or use --api-version v2 or v2.1');
  }
  if (opts.pages && resolveFormat(ctx.io, outputOf(ctx)) !== 'table') {
    throw new UsageError(
      '--page shows tracking pages on a terminal, not other formats',
      'drop --page, or the output format',
    );
  }
  if (opts.every !== undefined && !opts.watch)
    throw new UsageError('--every is the pace of --watch', 'add --watch, or drop --every');
  if (opts.watch && (opts.file !== undefined || opts.numbers.length === 0)) {
    throw new UsageError('--watch looks at numbers given as arguments', 'give the numbers: trk info NUMBER --watch');
  }
  if (opts.watch && (opts.dryRun || opts.rejects !== undefined || opts.skipInvalid || opts.columns?.length)) {
    throw new UsageError(
      '--watch does not take the flags of file runs',
      'drop --dry-run, --rejects, --skip-invalid and --column',
    );
  }
}

export async function runInfo(opts: InfoOptions & { db?: string | undefined }, ctx: Context): Promise<number> {
  if (opts.db !== undefined)
    throw new UsageError('--db names the mirror, which only --offline reads', 'add --offline, or drop --db');
  const { apiVersion } = await ctx.settings();
  checkOptions(ctx, opts, apiVersion);
  if (opts.watch) return watchInfo(opts, ctx, apiVersion);
  return runItemCommand(ctx, {
    operation: 'gettrackinfo',
    flags: opts,
    fields: opts.fields,
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: async () => matching(ctx, await detailsWriter(ctx, apiVersion, { pages: opts.pages }), apiVersion, opts),
  });
}

/** Delivered, or returned to the sender: nothing more will happen to the shipment. */
export function isFinished(view: DetailsView): boolean {
  return view.status === 'Delivered' || view.sub_status === 'Exception_Returned';
}

async function watchInfo(opts: InfoOptions, ctx: Context, version: ApiVersion): Promise<number> {
  const numbers = [...new Set(opts.numbers.map((n) => n.trim()).filter(Boolean))];
  const bad = numbers.find((n) => !numberPattern(version).test(n));
  if (bad !== undefined) {
    throw new UsageError(
      `invalid tracking number ${show(bad)}`,
      `tracking numbers are 5 to 50 letters, digits${version === 'v1' ? '' : ' or hyphens'}; nothing was sent`,
    );
  }
  const api = await ctx.api();
  const items = numbers.map((number) => ({
    number,
    ...(opts.fields?.carrier === undefined ? {} : { carrier: opts.fields.carrier }),
  }));
  const { captureIO, DEFAULT_EVERY_MS, watch } = await import('../common/watch.js');
  return watch(ctx, opts.every ?? DEFAULT_EVERY_MS, async () => {
    const results: ItemResults<unknown> = { accepted: [], rejected: [] };
    for (let i = 0; i < items.length; i += LIMITS.itemsPerRequest) {
      const env = await api.call(
        'gettrackinfo',
        wireBody('gettrackinfo', api.version, items.slice(i, i + LIMITS.itemsPerRequest)),
        {
          signal: ctx.signal,
        },
      );
      results.accepted.push(...(env.data?.accepted ?? []));
      results.rejected.push(...(env.data?.rejected ?? []));
    }
    // -18019909 "no tracking information yet": registered, its first result still to come; keep watching.
    const waiting = results.rejected.filter((r) => r.error?.code === -18019909).length;
    if (results.accepted.length === 0 && waiting === 0) {
      throw new TrkError(
        `nothing to watch: ${results.rejected.map((r) => r.number).join(', ')} ` +
          `${results.rejected.length === 1 ? 'is' : 'are'} not registered`,
        {
          exitCode: EXIT.failure,
          hint: 'register it first: trk register NUMBER',
        },
      );
    }
    const shown = filterByStatus(results, version, opts);
    const out = captureIO(ctx.io);
    await printDetails(ctx, shown, version, { pages: opts.pages, io: out.io });
    const views = results.accepted.map((item) => toDetailsView(item, version));
    const done = views.filter(isFinished).length;
    const total = views.length + waiting;
    const note =
      views.length === 0
        ? 'no tracking information yet'
        : total === 1
          ? (views[0]!.sub_status ?? views[0]!.status ?? 'no status yet')
          : `${fmt(done)} of ${fmt(total)} delivered or returned`;
    return { text: out.text(), finished: done === total, note };
  });
}
