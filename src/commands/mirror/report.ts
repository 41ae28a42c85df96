// trk report: how the carriers perform, from the mirror alone (no request): groups by carrier, lane, both, week
// or month of registration, with counts, transit-day percentiles, on-time rate and stuck parcels. JSON, NDJSON and
// CSV for scripts; on a terminal a report to look at (src/report/terminal.ts); --html FILE a page to open or mail
// (src/report/html.ts, loaded only then).

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { createRowWriter, resolveFormat } from '../../output/render.js';
import { machineColumns } from '../../report/columns.js';
import { PAGE_PARCELS, PARCELS_SHOWN, buildReport, type Report } from '../../report/report.js';
import { mirrorAgeLine } from '../../mirror/age.js';
import { openMirrorToRead } from '../../mirror/open.js';
import type { Store } from '../../store/types.js';
import { resolveCountryArgs } from '../common/country-args.js';
import { outputOf, paged } from '../common/output.js';
import { carrierCodes, DAY_MS, sinceOf } from './report-args.js';
import { nodeFs } from '../../core/node.js';
import { printTerminalReport } from '../../report/terminal.js';
import { REPORT_BY, type ReportBy } from '../../report/figures.js';
import {
  carrierArg,
  choiceOf,
  examples,
  joined,
  listOf,
  notes,
  Option,
  pagerOption,
  positiveInt,
  prints,
  repeated,
  type Declare,
  running,
} from '../define.js';
import { dbOption } from './args.js';
import type { Listing } from '../listing.js';

export interface ReportCommandOptions {
  by: ReportBy;
  since?: string | undefined;
  carrier?: readonly string[] | undefined;
  from?: readonly string[] | undefined;
  to?: readonly string[] | undefined;
  stuckDays: number;
  all?: boolean | undefined;
  html?: string | undefined;
  db?: string | undefined;
}

/** How old the mirror is, on stderr; past a day, a word to sync first. */
async function sayAge(store: Store, ctx: Context): Promise<void> {
  ctx.info(await mirrorAgeLine(store, ctx.now()));
  const synced = await store.state('synced_at');
  if (synced !== undefined && ctx.now() - Date.parse(synced) > DAY_MS)
    ctx.info('the mirror is over a day old: "trk sync" updates it');
}

export async function runReport(opts: ReportCommandOptions, ctx: Context): Promise<number> {
  const now = ctx.now();
  const since = sinceOf(opts.since, now);
  if (opts.html !== undefined && opts.html.trim() === '')
    throw new UsageError(
      '--html is empty',
      'give a file to write the page to, e.g. --html report.html, or - for stdout',
    );
  const carriers = await carrierCodes(ctx, opts.carrier);
  const origins = await resolveCountryArgs(ctx, '--from', opts.from);
  const destinations = await resolveCountryArgs(ctx, '--to', opts.to);
  const store = await openMirrorToRead(ctx, { db: opts.db });
  try {
    const { carrierNames } = await import('../../carriers/lookup.js');
    const names = await carrierNames(ctx);
    const page = opts.html !== undefined;
    const format = page && ctx.global.output === undefined ? undefined : resolveFormat(ctx.io, outputOf(ctx));
    const parcels = opts.all ? undefined : page ? PAGE_PARCELS : PARCELS_SHOWN;
    const figuresOnly = !page && format !== 'table';
    const report = await buildReport(
      store,
      {
        by: opts.by,
        since,
        carriers,
        origins,
        destinations,
        stuckDays: opts.stuckDays,
        parcels,
        page,
        figuresOnly,
        now,
      },
      names,
    );
    await sayAge(store, ctx);
    if (
      report.groups.some((g) => g.group.carrier !== undefined && g.group.carrier !== 0 && g.group.carrier_name === null)
    ) {
      ctx.info('carriers by code: "trk carriers" fetches their names');
    }
    if (page) await writePage(ctx, report, opts.html!, names);
    if (!page || ctx.global.output !== undefined) await print(ctx, report, names);
    return EXIT.ok;
  } finally {
    await store.close();
  }
}

async function writePage(
  ctx: Context,
  report: Report,
  file: string,
  names: (code: number) => string | undefined,
): Promise<void> {
  const { reportPage } = await import('../../report/html.js');
  const html = await reportPage(report, { carrierName: names, now: ctx.now() });
  if (file === '-') {
    ctx.io.out(html);
    return;
  }
  const { writeFileSync } = nodeFs();
  try {
    writeFileSync(file, html);
  } catch (err) {
    throw new UsageError(
      `cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      'give a file in a folder you can write to',
    );
  }
  ctx.info(`wrote ${file} (${Math.ceil(Buffer.byteLength(html) / 1024)} KB)`);
}

/** The report in the format asked for: JSON, one line or row per group, or the terminal's report. */
async function print(ctx: Context, report: Report, names: (code: number) => string | undefined): Promise<void> {
  const output = outputOf(ctx);
  const format = resolveFormat(ctx.io, output);
  const groups = report.groups.map((g) => g.group);
  if (format === 'json') {
    ctx.io.out(
      `${JSON.stringify({ synced_at: report.synced_at, since: report.since, by: report.by, groups }, null, 2)}\n`,
    );
    return;
  }
  if (format === 'table') {
    await paged(ctx, (io) => printTerminalReport(io, report, { carrierName: names }));
    return;
  }
  const writer = createRowWriter(ctx.io, machineColumns(report.by), output);
  writer.write(report.groups, groups);
  await writer.end();
}

export const listing = {
  name: 'report',
  summary: 'how carriers perform: transit times, exceptions, stuck parcels',
  section: 'mirror',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, ['table', 'wide', 'json', 'ndjson', 'csv'])
    .addOption(
      choiceOf(
        '--by <grouping>',
        'group parcels by carrier (the default), lane (origin → destination), both, or week or month of registration',
        REPORT_BY,
      ),
    )
    .option('--since <time>', 'parcels registered since then: an age (30d, 12w) or a date (2026-06-01)')
    .addOption(
      new Option('--carrier <carrier>', 'parcels of this carrier, code or name (repeat for several)').argParser(
        (v: string, prev: string[] | undefined) => repeated(carrierArg(v), prev),
      ),
    )
    .addOption(
      new Option(
        '--from <country>',
        'parcels from this origin country, ISO code or name (comma separated or repeated)',
      ).argParser(listOf('country')),
    )
    .addOption(
      new Option(
        '--to <country>',
        'parcels to this destination country, ISO code or name (comma separated or repeated)',
      ).argParser(listOf('country')),
    )
    .addOption(
      new Option('--stuck-days <days>', 'a parcel still on its way with no news for this many days is stuck')
        .argParser(positiveInt('--stuck-days'))
        .default(7),
    )
    .option('--all', 'list every stuck parcel and parcel in trouble, not the first 20')
    .option(
      '--html <file>',
      'write the report as one page, charts included, that opens offline and in mail (- for stdout)',
    )
    .addOption(dbOption())
    .addOption(pagerOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'Reads the mirror only ("trk sync" keeps it): no request is sent. Per group: registered, delivered, ' +
            'exceptions, ' +
            'delivery_failures, in_transit (on the way: InfoReceived to OutForDelivery), not_found, expired, stuck, ' +
            "transit_days {n, p50, p90, mean, min, max} of delivered parcels (the service's days_of_transit_done; " +
            'percentiles by linear interpolation between the closest ranks), on_time_rate (of delivered parcels ' +
            'with an ' +
            'estimated window, the share delivered by the end of its last day).',
        ),
        examples(
          'trk report',
          'trk report --by lane --since 30d',
          'trk report --carrier "China Post" --to US --by week --json',
          'trk report --since 2026-06-01 --html june.html',
        ),
      ),
    )
    .action((o) =>
      running(
        invoke,
        (ctx) =>
          runReport(
            {
              by: o.by ?? 'carrier',
              since: o.since,
              carrier: o.carrier,
              from: o.from,
              to: o.to,
              stuckDays: o.stuckDays,
              all: o.all,
              html: o.html,
              db: o.db,
            },
            ctx,
          ),
        o,
      ),
    );
