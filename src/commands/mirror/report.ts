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
import type { ReportBy } from '../../report/figures.js';
import { mirrorAgeLine } from '../../mirror/age.js';
import { openMirrorToRead } from '../../mirror/open.js';
import { canonicalTime } from '../../store/rows.js';
import type { Store } from '../../store/types.js';
import { resolveCarrierFlags } from '../common/carrier-args.js';
import { resolveCountryArgs } from '../common/country-args.js';
import { outputOf, paged } from '../common/output.js';
import { parseTimeArg } from '../list/time.js';
import { nodeFs } from '../../core/node.js';
import { printTerminalReport } from '../../report/terminal.js';

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

const DAY_MS = 86_400_000;

/** `--since`: an age or a date, as a canonical time. */
function sinceOf(text: string | undefined, now: number): string | undefined {
  if (text === undefined) return undefined;
  const iso = parseTimeArg(text, now);
  if (iso === undefined)
    throw new UsageError(`--since "${text}" is not a time`, 'give an age such as 30d or 12w, or a date (2026-06-01)');
  return canonicalTime(iso) ?? undefined;
}

async function carrierCodes(ctx: Context, values: readonly string[] | undefined): Promise<number[] | undefined> {
  if (values === undefined) return undefined;
  const codes: number[] = [];
  for (const value of values) {
    const { carrier } = await resolveCarrierFlags(
      ctx,
      { carrier: ['--carrier', value] },
      { refuseNone: 'a report filter needs a carrier: drop --carrier to report on every carrier' },
    );
    if (carrier !== undefined) codes.push(carrier);
  }
  return codes;
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
