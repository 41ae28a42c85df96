// Printing tracking details (trk info, trk realtime). On a terminal one number reads like a tracking page and
// several make a compact table (--page: a page each); `-o table` is that table, `-o wide` every column. Piped or
// as CSV, one row per number (the details columns) with rejected numbers as rows carrying their error; JSON and
// NDJSON keep the service's items as sent, unless --columns names what to print. Every format but a terminal's
// table is written as the answers come, so that details of any number of numbers take flat memory. Output to a
// terminal goes through the pager.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { ItemResults } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import type { IO } from '../../io/io.js';
import { COMPACT_DETAILS, detailsColumns, itemColumns, referenceColumns } from '../../output/columns.js';
import type { ReferenceValues } from '@trk/service/record-fields.js';
import { toDetailsView, type DetailsView } from '@trk/service/records.js';
import {
  createItemResultsWriter,
  isWide,
  printItemResults,
  printRows,
  resolveFormat,
  type Column,
  type ItemResultsWriter,
} from '../../output/render.js';
import { UsageError } from '../../core/errors.js';
import { sanitizeTerminalText } from '../../io/terminal-text.js';
import { tableNames, viewNames } from './names.js';
import { outputOf, startPagerFor } from './output.js';

export interface DetailsPrintOptions {
  /** --page: the full tracking page of each number, however many there are (on a terminal, automatic format). */
  pages?: boolean | undefined;
  /** Where to print (--watch renders into a string first); default the context's, through the pager. */
  io?: IO | undefined;
  /**
   * The mirror's reads (`find`): carriers named from the list shipped with trk without a cached one, and the
   * customer references of each parcel's record as columns.
   */
  mirror?: { references: (number: string, carrier: number | null) => ReferenceValues | undefined } | undefined;
}

/**
 * Whether details are shown as tracking pages: with --page whenever a table would be printed (`-o table --page`
 * gives pages off a terminal too); by default, on a terminal, for one number.
 */
export function showsPages(ctx: Context, count: number, opts: DetailsPrintOptions = {}): boolean {
  const output = outputOf(ctx);
  if (output.columns !== undefined || isWide(output) || resolveFormat(opts.io ?? ctx.io, output) !== 'table')
    return false;
  return opts.pages === true || (ctx.global.output === undefined && count <= 1);
}

/** The writer of details as they come (see the top of this file). */
export async function detailsWriter(
  ctx: Context,
  version: ApiVersion,
  opts: DetailsPrintOptions = {},
): Promise<ItemResultsWriter> {
  const pager = opts.io ? undefined : await startPagerFor(ctx);
  const io = pager?.io ?? opts.io ?? ctx.io;
  const inner = await formatWriter(ctx, io, version, opts);
  /** Finishing either way ends the pager too. */
  const thenPager = (finish: () => Promise<void>) => async () => {
    try {
      await finish();
    } finally {
      await pager?.end();
    }
  };
  return {
    write: (results) => inner.write(results),
    end: thenPager(() => inner.end()),
    abort: thenPager(() => inner.abort()),
  };
}

/** `-o text` is a summary of each parcel, not columns: refused with --columns before anything is sent. */
export function checkTextOutput(ctx: Context): void {
  if (ctx.global.output === 'text' && ctx.global.columns !== undefined) {
    throw new UsageError('-o text is a summary of each parcel, not columns', 'drop --columns, or use another --output');
  }
}

async function formatWriter(
  ctx: Context,
  io: IO,
  version: ApiVersion,
  opts: DetailsPrintOptions,
): Promise<ItemResultsWriter> {
  const output = outputOf(ctx);
  const resolved = resolveFormat(io, output);
  if (resolved === 'text') return summaryWriter(ctx, io, version);
  if ((resolved === 'json' || resolved === 'ndjson') && output.columns === undefined)
    return createItemResultsWriter(io, [], output);
  const names = await tableNames(ctx, { shipped: opts.mirror !== undefined });
  const viewOpts = await viewNames(ctx, version);
  const references = opts.mirror?.references;
  const all = references ? withReferenceColumns(detailsColumns(names), references) : detailsColumns(names);
  if (resolved === 'table' && output.columns === undefined) {
    // A table is laid out from every number (and pages or table depends on how many), so it gathers them.
    const gathered: ItemResults<unknown> = { accepted: [], rejected: [] };
    const show = async () => {
      const views = gathered.accepted.map((item) => toDetailsView(item, version, viewOpts));
      if (showsPages(ctx, views.length, { ...opts, io })) {
        const { renderTrackingPage } = await import('../../output/tracking-page.js');
        const pages = views.map((v) =>
          renderTrackingPage(v, io.color, { now: ctx.now(), width: io.columns, ...names }),
        );
        if (pages.length > 0) io.out(`${pages.map((p) => p.replace(/\n*$/, '\n')).join('\n')}`);
      } else {
        // The compact table, unless every column was asked for (-o wide).
        const compact = COMPACT_DETAILS.map((key) => all.find((c) => c.key === key)!);
        await printRows(io, views, isWide(output) ? all : compact, output);
      }
      if (gathered.rejected.length > 0) {
        if (views.length > 0) io.out('\n');
        await printItemResults(io, { accepted: [], rejected: gathered.rejected }, itemColumns(names), output);
      }
    };
    return {
      write(results) {
        gathered.accepted.push(...results.accepted);
        gathered.rejected.push(...results.rejected);
      },
      end: show,
      // People read tables: what came is shown, and the error follows on stderr.
      abort: show,
    };
  }
  // One row per number; rejected numbers get an empty details view so every column can read them.
  return createItemResultsWriter<unknown, DetailsView>(io, all, output, {
    accepted: (item) => toDetailsView(item, version, viewOpts),
    rejected: (r) => ({ ...toDetailsView(r, version, viewOpts), ...r }) as unknown as DetailsView,
  });
}

/** The details columns with those of the parcel's customer references the details lack (the tag is theirs). */
function withReferenceColumns(
  columns: Column<DetailsView>[],
  references: (number: string, carrier: number | null) => ReferenceValues | undefined,
): Column<DetailsView>[] {
  const defs = referenceColumns<DetailsView>((d) =>
    references(d.number, typeof d.carrier === 'number' ? d.carrier : null),
  );
  const added = Object.entries(defs).filter(([key]) => !columns.some((c) => c.key === key));
  return [...columns, ...added.map(([key, def]) => ({ key, ...def }))];
}

/**
 * `-o text`: each parcel's summary as it comes (output/summary.ts), a blank line between two; a number the
 * service refused is a line of its own saying why.
 */
async function summaryWriter(ctx: Context, io: IO, version: ApiVersion): Promise<ItemResultsWriter> {
  const [{ renderSummary }, { carrierNames }, viewOpts] = await Promise.all([
    import('../../output/summary.js'),
    import('../../carriers/lookup.js'),
    viewNames(ctx, version),
  ]);
  const carrierName = await carrierNames(ctx);
  let blocks = 0;
  const block = (text: string) => io.out(`${blocks++ === 0 ? '' : '\n'}${text}`);
  return {
    write(results) {
      for (const item of results.accepted)
        block(renderSummary(toDetailsView(item, version, viewOpts), { carrierName }));
      for (const r of results.rejected) block(`Tracking number ${oneLine(r.number)}: ${oneLine(r.error.message)}\n`);
    },
    end: async () => {},
    abort: async () => {},
  };
}

const oneLine = (s: string) => sanitizeTerminalText(s, { singleLine: true }).trim();

/** Details in one go (trk realtime, each look of --watch). */
export async function printDetails(
  ctx: Context,
  results: ItemResults<unknown>,
  version: ApiVersion,
  opts: DetailsPrintOptions = {},
): Promise<void> {
  const writer = await detailsWriter(ctx, version, opts);
  writer.write(results);
  await writer.end();
}
