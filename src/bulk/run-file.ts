// `trk <command> -f FILE`: the whole bulk run. In order:
//   1. the input is checked in one streaming pass; any problem is a usage error (exit 2) and nothing is sent;
//   2. --dry-run reports the plan (requests, time at the ceiling, quota) and stops there;
//   3. the journal of an interrupted run of the same import is taken over (or discarded with --restart);
//   4. for operations that cost quota, the quota and the daily cap must cover what is left (exit 2 if not);
//   5. the chunks are sent by the runner, at the ceiling, exactly once, with progress on stderr;
//   6. the summary goes to stderr, rejected rows to --rejects FILE; the journal is removed once complete.
// Ctrl-C finishes the requests in flight, saves, prints the summary and exits 130.

import path from 'node:path';
import { Readable } from 'node:stream';
import type { ApiClient } from '../api/client.js';
import type { Pacer } from '../api/pacer.js';
import { quotaBody } from '../api/operations.js';
import { LIMITS, type ApiVersion } from '../api/spec.js';
import type { ItemResults, QuotaRecord, TrackListFilter } from '../api/types.js';
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { COMMAND_NAME, isCharging, isReadOnly, type BulkOperation, type RowValues } from './fields.js';
import { assertUnchanged, prepareInput } from './input.js';
import { Journal, journalKey } from './journal.js';
import { createProgress, duration, fmt, progressMode, type ProgressMode } from './progress.js';
import { ResultSink, summaryLines, type BulkSummary } from './results.js';
import { runChunks } from './runner.js';
import { chunkSize, inputChunks, scanInput, type ScanResult } from './scan.js';
import { checkDefaults, type CarrierResolver } from './validate.js';

export interface BulkFileOptions {
  operation: BulkOperation;
  /** A path, or `-` for stdin. */
  file?: string | undefined;
  /** Instead of a file: numbers given on the command line (`trk list --number` with more than 200). */
  numbers?: readonly string[] | undefined;
  dryRun?: boolean | undefined;
  /** Discard the journal of an interrupted run of the same import and start from the top. */
  restart?: boolean | undefined;
  /** Write the rejected rows here (the input's columns plus error_code, error_message). */
  rejectsFile?: string | undefined;
  /** Values for every row from flags (`--carrier`, `--tag`, ...), by column; a row's own cell wins. */
  defaults?: RowValues | undefined;
  /** gettracklist: the other filters of `trk list`. */
  listFilter?: TrackListFilter | undefined;
  /** Keep the service's items for output (--json); off, only counts are kept. Default true. */
  collect?: boolean | undefined;
  /** Each settled chunk's items as they come. */
  onItems?: ((results: ItemResults) => void) | undefined;
  /** Carrier names in the file → codes (the carriers module's `carrierResolver(ctx)`). */
  resolveCarrier?: CarrierResolver | undefined;
  /** Work in progress at once; default 8. */
  concurrency?: number | undefined;
  /** Default: bar on a terminal, a line every 30 s elsewhere, none with --quiet. */
  progress?: ProgressMode | undefined;
  /**
   * The client to send with, and the pacer it admits requests with (told to hold starts after failures).
   * Default: the context's, paced by the budget shared by every trk process on the same key.
   */
  client?: ApiClient | undefined;
  pacer?: Pacer | undefined;
  /** Called once the input is checked and before anything is sent (e.g. delete's confirmation). */
  confirm?: ((plan: BulkPlan) => Promise<void>) | undefined;
  /** Tuning for tests. */
  verifyDelayMs?: number | undefined;
  retryBaseMs?: number | undefined;
}

/** What a run will take. */
export interface BulkPlan {
  operation: BulkOperation;
  version: ApiVersion;
  input: string;
  items: number;
  requests: number;
  /** Items a request carries at most. */
  perRequest: number;
  /** Quota units (0 for operations that cost none). */
  units: number;
  /** Done by an interrupted run of the same import (its journal). */
  done: { items: number; requests: number; units: number };
  /** For what is left, at 3 requests a second. */
  secondsAtCeiling: number;
}

export interface BulkReport {
  plan: BulkPlan;
  /** Absent for a dry run. */
  summary?: BulkSummary;
  /** The merged accepted/rejected items (empty unless `collect`). */
  results: ItemResults;
  /** 0, or 3 when the service rejected anything. */
  exitCode: ExitCode;
}

export async function runBulkFromFile(ctx: Context, opts: BulkFileOptions): Promise<BulkReport> {
  const started = ctx.now();
  const settings = await ctx.settings();
  const version = opts.client?.version ?? settings.apiVersion;
  const op = opts.operation;
  const scanOpts = {
    operation: op,
    version,
    defaults: opts.defaults,
    resolveCarrier: opts.resolveCarrier,
  };
  if (opts.defaults) checkDefaults(opts.defaults, scanOpts);
  const { stateDir } = await import('../config/paths.js');
  const state = stateDir(ctx.env);
  const spool = path.join(state, 'spool');
  const source =
    opts.numbers !== undefined
      ? { ...(await prepareInput('-', Readable.from([`${opts.numbers.join('\n')}\n`]), spool)), display: 'the numbers given' }
      : await prepareInput(opts.file ?? '-', ctx.io.stdin, spool);
  try {
    const scan = await scanInput(source, scanOpts);
    if (scan.layout.ignored.length > 0) {
      ctx.info(`${source.display}: ${scan.layout.ignored.join(', ')} not used by trk ${COMMAND_NAME[op]}: ignored`);
    }
    if (scan.problems.count === 1) {
      throw new UsageError(`${source.display} ${scan.problems.lines()[0] ?? ''}`, 'fix the line and run again; nothing was sent');
    }
    if (scan.problems.count > 1) {
      // Every problem at once (the first 20), so a file is fixed in one go; the error line closes the list.
      for (const line of scan.problems.lines()) ctx.io.err(`${source.display} ${line}`);
      throw new UsageError(`${fmt(scan.problems.count)} problems in ${source.display}; nothing was sent`, 'fix the lines above and run again');
    }
    const key = journalKey({
      profile: settings.profile,
      baseUrl: settings.sandbox ? 'sandbox' : settings.baseUrl,
      version,
      op,
      input: source.identity,
      defaults: opts.defaults ?? {},
      filter: opts.listFilter ?? {},
    });
    const journals = path.join(state, 'journals');
    const journaled = !isReadOnly(op);
    const doneBefore = journaled && !opts.restart ? Journal.inspect(journals, key) : undefined;
    const plan = makePlan(op, version, source.display, scan, doneBefore);
    const empty: ItemResults = { accepted: [], rejected: [] };
    if (opts.dryRun) {
      for (const line of planLines(plan)) ctx.io.err(line);
      return { plan, results: empty, exitCode: EXIT.ok };
    }
    if (scan.items === 0) {
      ctx.info(`no tracking numbers in ${source.display}: nothing to do`);
      return { plan, results: empty, exitCode: EXIT.ok };
    }
    await opts.confirm?.(plan);
    if (ctx.signal.aborted) throw new InterruptedError('interrupted while reading the input; nothing was sent');

    const runtime = await bulkRuntime(ctx, opts);
    let journal: Journal | undefined;
    try {
      journal = journaled
        ? Journal.open({
            dir: journals,
            key,
            restart: opts.restart,
            describe: { op, version, input: source.identity, profile: settings.profile, created: new Date(ctx.now()).toISOString() },
          })
        : undefined;
      const doneNow = new Set<number>();
      if (journal) for (let c = 0; c < scan.chunkItems.length; c++) if (journal.isDone(c)) doneNow.add(c);
      if (journal?.resumed && doneNow.size > 0) {
        const left = scan.items - sumOver(scan.chunkItems, doneNow);
        ctx.info(`resuming an interrupted run: ${fmt(scan.items - left)} done, ${fmt(left)} to go`);
      }
      if (isCharging(op)) {
        const needed = scan.units - sumOver(scan.chunkUnits, doneNow);
        if (needed > 0) await checkQuota(ctx, runtime.client, version, needed, source.display);
      }
      assertUnchanged(source);

      const sink = new ResultSink({
        operation: op,
        layout: scan.layout,
        total: scan.items,
        collect: opts.collect ?? true,
        rejectsFile: opts.rejectsFile,
        rawCsv: ctx.io.rawCsv,
        onItems: opts.onItems,
      });
      await sink.open();
      const progress = createProgress(ctx.io, {
        mode: opts.progress ?? progressMode(ctx.io, ctx.global.quiet),
        label: COMMAND_NAME[op],
        ceilingPerSecond: chunkSize(op, version) * LIMITS.requestsPerSecond,
        now: ctx.now,
      });
      const result = await runChunks({
        operation: op,
        version,
        client: runtime.client,
        pacer: runtime.pacer,
        journal,
        chunks: inputChunks(source, scanOpts),
        concurrency: opts.concurrency,
        listFilter: opts.listFilter,
        stop: ctx.signal,
        verifyDelayMs: opts.verifyDelayMs,
        retryBaseMs: opts.retryBaseMs,
        onSettled: (chunk, outcome, replayed) => {
          sink.settle(chunk, outcome, replayed);
          progress.update(sink.counts());
        },
        onWait: (reason, ms) => {
          const why = reason === 'rate-limited' ? 'rate limited' : reason === 'unavailable' ? 'service unavailable' : 'network trouble';
          progress.waiting(why, ctx.now() + ms);
          ctx.debug(`${why}: every start paused for ${Math.round(ms)} ms`);
        },
        onDebug: (line) => ctx.debug(line),
      });
      progress.stop();
      await sink.close();
      const summary = sink.summary(ctx.now() - started, result.requests);
      for (const line of summaryLines(summary, opts.rejectsFile)) ctx.info(line);
      if (result.error !== undefined || (result.interrupted && summary.unsettled > 0)) {
        if (journal) ctx.info(`progress is saved: run the same command again to resume`);
        if (result.error !== undefined) throw result.error;
        throw new InterruptedError(`interrupted: ${fmt(summary.unsettled)} of ${fmt(summary.total)} not done`);
      }
      journal?.complete();
      journal = undefined;
      return { plan, summary, results: sink.results, exitCode: summary.rejected > 0 ? EXIT.partial : EXIT.ok };
    } finally {
      // Kept for a resume when anything was sent; a journal this run created and never used goes.
      if (journal?.isFresh) journal.complete();
      else journal?.close();
    }
  } finally {
    await source.cleanup();
  }
}

interface BulkRuntime {
  client: ApiClient;
  pacer: Pacer | undefined;
}

async function bulkRuntime(ctx: Context, opts: BulkFileOptions): Promise<BulkRuntime> {
  if (opts.client) return { client: opts.client, pacer: opts.pacer };
  // The context's client starts requests under the budget shared by every process on this key, and stops
  // admitting new ones on Ctrl-C while those on the wire finish.
  const [client, pacer] = await Promise.all([ctx.api(), ctx.pacer()]);
  return { client, pacer };
}

/** Refuse (exit 2) when the quota or today's cap cannot cover `needed` units. v1 has no quota operation. */
async function checkQuota(ctx: Context, client: ApiClient, version: ApiVersion, needed: number, display: string): Promise<void> {
  if (version === 'v1') {
    ctx.info('the v1 API has no quota operation: the quota was not checked');
    return;
  }
  const envelope = await client.call('getquota', quotaBody(version), { signal: ctx.signal });
  const q = (envelope.data ?? {}) as Partial<QuotaRecord>;
  const remain = num(q.quota_remain);
  if (remain !== undefined && needed > remain) {
    throw new UsageError(
      `not enough quota for ${display}: it needs ${fmt(needed)} units, ${fmt(remain)} are left (${fmt(needed - remain)} missing)`,
      'add quota to the account, or import part of the file; nothing was sent',
    );
  }
  const cap = num(q.max_track_daily);
  const today = num(q.today_used) ?? 0;
  if (cap !== undefined && cap > 0 && needed > cap - today) {
    const left = Math.max(0, cap - today);
    throw new UsageError(
      `the daily limit does not cover ${display}: it needs ${fmt(needed)} units, today's limit of ${fmt(cap)} leaves ${fmt(left)} (${fmt(needed - left)} missing)`,
      'raise the daily limit in the console, or import the rest after 00:00 UTC; nothing was sent',
    );
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function sumOver(values: readonly number[], chunks: ReadonlySet<number>): number {
  let sum = 0;
  for (const c of chunks) sum += values[c] ?? 0;
  return sum;
}

function makePlan(
  op: BulkOperation,
  version: ApiVersion,
  input: string,
  scan: ScanResult,
  done: ReadonlySet<number> | undefined,
): BulkPlan {
  const requests = scan.chunkItems.length;
  const doneSet = done ?? new Set<number>();
  const doneRequests = [...doneSet].filter((c) => c < requests).length;
  return {
    operation: op,
    version,
    input,
    items: scan.items,
    requests,
    perRequest: chunkSize(op, version),
    units: scan.units,
    done: { items: sumOver(scan.chunkItems, doneSet), requests: doneRequests, units: sumOver(scan.chunkUnits, doneSet) },
    secondsAtCeiling: (requests - doneRequests) / LIMITS.requestsPerSecond,
  };
}

/** The dry run's report. */
export function planLines(plan: BulkPlan): string[] {
  const lines = [
    `dry run: ${COMMAND_NAME[plan.operation]} ${plan.input} (API ${plan.version})`,
    `  ${fmt(plan.items)} item${plan.items === 1 ? '' : 's'} in ${fmt(plan.requests)} request${plan.requests === 1 ? '' : 's'}` +
      (plan.requests > 0 ? ` of up to ${plan.perRequest}` : ''),
  ];
  if (plan.done.items > 0) {
    lines.push(
      `  an interrupted run of this import is saved: ${fmt(plan.done.items)} done, ` +
        `${fmt(plan.items - plan.done.items)} left in ${fmt(plan.requests - plan.done.requests)} requests`,
    );
  }
  lines.push(`  about ${duration(Math.ceil(plan.secondsAtCeiling))} at the service's ceiling of ${LIMITS.requestsPerSecond} requests a second`);
  if (plan.units > 0) {
    const extra = plan.units - plan.items;
    lines.push(
      `  quota: ${fmt(plan.units - plan.done.units)} unit${plan.units - plan.done.units === 1 ? '' : 's'}` +
        (extra > 0 && plan.operation === 'register' ? ` (${fmt(extra)} with a translation language cost 2)` : '') +
        (plan.version === 'v1' ? '; v1 cannot read the quota, so it is not checked' : ''),
    );
  }
  lines.push('nothing was sent');
  return lines;
}
