// trk sync: the account into its mirror (src/mirror/sync.ts). A progress line on a terminal, the summary on
// stderr, and with --json the summary as an object on stdout. Exit codes as every command: 0 done, 1 stopped by
// the service or the network (the mirror keeps what was written), 2 usage, 4 credentials, 130/143 interrupted.

import type { Context } from '../../context/context.js';
import { statusLine } from '../../output/status-line.js';
import { openMirror } from '../../mirror/open.js';
import type { SyncProgress, SyncSummary } from '../../mirror/sync.js';
import { duration, fmt, plural } from '../../core/text.js';
import { clock } from '../../core/clock.js';
import { examples, joined, notes, prints, running, type Declare } from '../define.js';
import { dbOption } from './args.js';
import type { Listing } from '../listing.js';

export interface SyncCommandOptions {
  full?: boolean | undefined;
  db?: string | undefined;
}

function progressText(p: SyncProgress): string {
  const records =
    p.phase === 'deletions'
      ? 'records: looking up those not listed'
      : `records: page ${fmt(p.pagesDone)}${p.pagesTotal ? ` of ${fmt(p.pagesTotal)}` : ''}`;
  return `${records} · details of ${fmt(p.detailsDone)}`;
}

/** The summary line: what the sync brought, in the words of a status line. */
export function summaryLine(s: SyncSummary, seconds: number): string {
  const added = s.records_added ? ` (${fmt(s.records_added)} new)` : '';
  const records = `${plural(s.records_listed, 'record')} listed${added}`;
  const deleted = s.records_deleted ? `, ${fmt(s.records_deleted)} deleted` : '';
  const details = `, details of ${fmt(s.details_fetched)}`;
  const changes = `, ${plural(s.changes, 'status change')}`;
  return (
    `${s.full ? 'full sync' : 'sync'}: ${records}${deleted}${details}${changes} in ${duration(seconds)} ` +
    `(${plural(s.requests, 'request')})`
  );
}

export async function runSync(opts: SyncCommandOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  // The client first: it starts the emulator under --sandbox and refuses a missing key before a file is made.
  await ctx.api();
  const [{ SyncRun }, { mirrorAccount }] = await Promise.all([
    import('../../mirror/sync.js'),
    import('../../mirror/open.js'),
  ]);
  const store = await openMirror(ctx, { db: opts.db, durable: false });
  const line = statusLine(ctx.io, ctx.global.quiet !== true);
  ctx.showWaits?.((words, ms) => line.show(`${words}, resuming in ${Math.max(1, Math.round(ms / 1000))} s`));
  const started = process.hrtime.bigint();
  try {
    const run = new SyncRun(store, {
      full: opts.full,
      account: mirrorAccount(s),
      version: s.apiVersion,
      client: (version) => ctx.api(version === s.apiVersion ? undefined : version),
      // The mirror's age is this machine's business: the offline reads count it on the same clock (under --sandbox
      // they start no emulator, whose clock runs ahead).
      now: () => clock().now(),
      signal: ctx.signal,
      onProgress: (p) => line.show(progressText(p)),
    });
    const summary = await run.run();
    line.clear();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    ctx.info(summaryLine(summary, seconds));
    if (ctx.global.output === 'json')
      ctx.io.out(
        `${JSON.stringify({ ...summary, mirror: store.location, seconds: Math.round(seconds * 10) / 10 }, null, 2)}\n`,
      );
    return 0;
  } finally {
    line.clear();
    ctx.showWaits?.(undefined);
    await store.close();
  }
}

export const listing = {
  name: 'sync',
  summary: "keep a local mirror of the account's records and tracking details",
  section: 'mirror',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, ['table', 'json'])
    .option(
      '--full',
      'read every record (what a first sync does) and take out of the mirror those the service no longer has',
    )
    .addOption(dbOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'A sync asks only for what changed since the last one (records tracked, registered, pushed or stopped ' +
            'since, ' +
            'and the details of those whose status or tracking time moved); a first sync, and --full, read ' +
            'every record.',
          'An interrupted sync loses nothing: the next one carries on where it stopped.',
        ),
        examples('trk sync', 'trk sync --full --json', '0 * * * * trk sync -q   # in a crontab: hourly'),
      ),
    )
    .action((o) => running(invoke, (ctx) => runSync({ full: o.full, db: o.db }, ctx)));
