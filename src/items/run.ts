// One item run, whatever the way in (arguments, a pipe, `-f FILE`, `-f -`). In order:
//   1. the input is checked in one streaming pass (and hashed); any problem is a usage error (exit 2) and
//      nothing is sent, unless --skip-invalid sets the bad rows aside;
//   2. a file or a pipe that was fully sent before is not sent again without --again; an interrupted run of it
//      is resumed, or named when its options or content differ (src/items/runs.ts);
//   3. --dry-run reports the plan (requests, time at the ceiling, quota, the refusal a real run would meet);
//   4. for operations that cost quota, the quota and the daily cap must cover what is left (exit 2 if not);
//      the quota is asked for while the input is being checked;
//   5. the chunks are sent by the runner, at the ceiling, exactly once;
//   6. the summary goes to stderr, rejected rows to --rejects FILE; a finished run leaves its record.
// Files and pipes get a journal and a progress line; a handful of arguments need neither (a lost answer is
// still looked up, and quota still checked). Ctrl-C or SIGTERM finishes the requests in flight, saves, prints
// the summary and stops with the signal's exit code.

import path from 'node:path';
import type { ApiClient } from '../api/client.js';
import { requestTimeoutMs } from '../config/timeout.js';
import type { Pacer } from '../pacing/pacer.js';
import { quotaBody } from '../api/bodies.js';
import { callDeadlineMs } from '../api/retry.js';
import { commandName, doneWord, operationSpec } from '../api/ops.js';
import { LIMITS, type ApiVersion } from '../api/spec.js';
import type { ItemResults, QuotaRecord, TrackListFilter } from '../api/types.js';
import type { Context } from '../context.js';
import { InterruptedError, stopExitCode, UsageError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { duration, fmt, plural } from '../text.js';
import type { CarrierResolver } from './check.js';
import { checkDefaults } from './check.js';
import { isCharging, isReadOnly, parseColumnMapping, type ColumnMapping, type ItemOperation, type RowValues } from './fields.js';
import type { Journal, RunIdentity } from './journal.js';
import type { Progress, ProgressMode } from './progress.js';
import { listSome } from './read.js';
import { exitCodeOf, ResultSink, summaryLines, type RunSummary } from './results.js';
import { runChunks } from './runner.js';
import type { FinishedRun } from './runs.js';
import { chunkSize, inputChunks, scanInput, type ScanOptions, type ScanResult } from './scan.js';
import { parseDelimiter, type Delimiter } from './read-text.js';
import { openSource, type ItemSource, type SourceFlags } from './source.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { rmSync } = process.getBuiltinModule('node:fs');

/** The flags every item command takes (see src/commands/items/flags.ts). */
export interface ItemFlags extends SourceFlags {
  /** `--dry-run`: check and report, send nothing. */
  dryRun?: boolean | undefined;
  /** `--restart`: discard the journal of an interrupted run and start from the top. */
  restart?: boolean | undefined;
  /** `--again`: send an input that was fully sent before. */
  again?: boolean | undefined;
  /** `--rejects FILE`: the rejected rows, ready to fix and import again. */
  rejects?: string | undefined;
  /** `--skip-invalid`: send the valid rows, set the invalid ones aside. */
  skipInvalid?: boolean | undefined;
  /** `--column NAME=FIELD`. */
  columns?: readonly string[] | undefined;
  /** `--carrier-map FILE`: carrier aliases of this run (name,code rows). */
  carrierMap?: string | undefined;
  /** `--delimiter`: the columns' separator (`;`, `tab`, ...), instead of the one of the header line. */
  delimiter?: string | undefined;
}

export interface ItemRunOptions {
  operation: ItemOperation;
  flags: ItemFlags;
  /** Values from flags for every row (`--carrier`, `--tag`, ...), by field; a row's own cell wins. */
  defaults?: RowValues | undefined;
  /** gettracklist: the other filters of `trk list`. */
  listFilter?: TrackListFilter | undefined;
  /** Rejection codes counted as done (delete --ignore-missing). */
  alsoAlready?: readonly number[] | undefined;
  /** Keep the service's items for output; off, only counts are kept. Default true. */
  collect?: boolean | undefined;
  /** Each settled chunk's items as they come. */
  onItems?: ((results: ItemResults) => void) | undefined;
  /**
   * Once every request has settled and the run did not fail, before the summary: the output is finished first,
   * so that on a terminal the summary follows the table rather than coming before it.
   */
  beforeSummary?: (() => Promise<void>) | undefined;
  /** Carrier names in the input → codes. */
  resolveCarrier?: CarrierResolver | undefined;
  /** Called once the input is checked and before anything is sent (delete's confirmation). */
  confirm?: ((plan: ItemPlan) => Promise<void>) | undefined;
  /** Work in progress at once; default 8. */
  concurrency?: number | undefined;
  /** Default: none for arguments; for files and pipes a bar on a terminal, a line every 30 s elsewhere. */
  progress?: ProgressMode | undefined;
  /** The client and its pacer; default the context's (paced by the budget shared by every trk on the key). */
  client?: ApiClient | undefined;
  pacer?: Pacer | undefined;
  /** Tuning for tests. */
  verifyDelayMs?: number | undefined;
  retryBaseMs?: number | undefined;
}

/** What a run will take. */
export interface ItemPlan {
  operation: ItemOperation;
  version: ApiVersion;
  input: string;
  items: number;
  requests: number;
  /** Items a request carries at most. */
  perRequest: number;
  /** Quota units (0 for operations that cost none). */
  units: number;
  /** Rows set aside by --skip-invalid. */
  invalid: number;
  /** Done by an interrupted run of the same input (its journal). */
  done: { items: number; requests: number; units: number };
  /** For what is left, at 3 requests a second. */
  secondsAtCeiling: number;
  /** The input was fully sent before (nothing is sent without --again). */
  finishedBefore?: { finished: string; counts: FinishedRun['counts'] };
  /** The quota as read before the run (charging operations, v2 and v2.1). */
  quota?: { remaining?: number; dailyLeft?: number };
}

export interface ItemReport {
  plan: ItemPlan;
  /** Absent for a dry run and a run not sent again. */
  summary?: RunSummary;
  /** The merged accepted/rejected items (empty unless `collect`). */
  results: ItemResults;
  exitCode: ExitCode;
  source: ItemSource['kind'];
}

const EMPTY: ItemResults = { accepted: [], rejected: [] };

/** Progress of a run that shows none. */
const NO_PROGRESS: Progress = { inPlace: false, phase() {}, update() {}, waiting() {}, stop() {} };

/** A check running longer than this asks for the quota meanwhile. */
const QUOTA_OVERLAP_AFTER_MS = 200;

export async function runItems(ctx: Context, opts: ItemRunOptions): Promise<ItemReport> {
  // Durations and dates of runs on the real clock: ctx.now() is the service's, simulated under --sandbox.
  const started = Date.now();
  const settings = await ctx.settings();
  const version = opts.client?.version ?? settings.apiVersion;
  const op = opts.operation;
  const flags = opts.flags;
  let mapping: ColumnMapping | undefined;
  let delimiter: Delimiter | undefined;
  try {
    mapping = flags.columns && flags.columns.length > 0 ? parseColumnMapping(flags.columns) : undefined;
    delimiter = flags.delimiter === undefined ? undefined : parseDelimiter(flags.delimiter);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const scanOpts: ScanOptions = {
    operation: op,
    version,
    defaults: opts.defaults,
    resolveCarrier: opts.resolveCarrier,
    mapping,
    delimiter,
    skipInvalid: flags.skipInvalid,
  };
  if (opts.defaults) checkDefaults(opts.defaults, scanOpts);
  const { stateDir } = await import('../config/paths.js');
  const state = stateDir(ctx.env);
  scanOpts.tempDir = path.join(state, 'spool');
  const source = await openSource(flags, ctx.io, path.join(state, 'spool'));
  try {
    const journaled = !isReadOnly(op) && source.kind !== 'arguments';
    if (source.kind === 'arguments') refuseFileOnlyFlags(flags);
    if (flags.rejects !== undefined && source.isSameFile(flags.rejects)) {
      throw new UsageError(`--rejects ${flags.rejects} is the input file`, 'write the rejects to another file; nothing was sent');
    }
    if (flags.rejects !== undefined) {
      (await import('../config/own-files.js')).refuseOwnFile(flags.rejects, ctx.env, '--rejects');
    }
    // Arguments show no progress, and `trk stop N` does not load its renderer.
    const renderer = opts.progress === 'none' || (opts.progress === undefined && source.kind === 'arguments') ? undefined : await import('./progress.js');
    const mode = opts.progress ?? renderer?.progressMode(ctx.io, ctx.global.quiet) ?? 'none';
    const progressFor = (label: string): Progress =>
      renderer?.createProgress(ctx.io, { mode, label, ceilingPerSecond: chunkSize(op, version) * LIMITS.requestsPerSecond }) ?? NO_PROGRESS;
    // A long input is still being checked when the quota is asked for (it costs nothing), so that the answer is
    // there when the check ends; a short one, or one with a problem so far, sends nothing before it is checked.
    let quota: Promise<Partial<QuotaRecord>> | undefined;
    const askQuota = isCharging(op) && version !== 'v1' ? () => void (quota ??= readQuota(ctx, opts.client)) : undefined;
    const scanStarted = Date.now();
    const overlapQuota = askQuota
      ? (items: number, problems: number) => {
          if (problems === 0 && items % 1000 === 0 && Date.now() - scanStarted > QUOTA_OVERLAP_AFTER_MS) askQuota();
        }
      : undefined;

    const checking = progressFor(commandName(op));
    checking.phase(`checking ${source.display}`);
    let scan: ScanResult;
    try {
      scan = await scanInput(source, { ...scanOpts, onRow: overlapQuota });
    } finally {
      checking.stop();
    }
    reportLayout(ctx, source, op, scan);
    reportProblems(ctx, source, scan, flags);
    if (ctx.signal.aborted) throw new InterruptedError('interrupted while reading the input; nothing was sent', stopExitCode(ctx.signal));

    // Journals and the record of finished runs are for files and pipes: arguments are neither resumed nor
    // remembered, and `trk stop N` does not load them.
    const [runs, journals] = journaled ? await Promise.all([import('./runs.js'), import('./journal.js')]) : [];
    const folders = runs?.runFolders(state);
    const identity: RunIdentity = {
      op,
      command: commandName(op),
      account: { profile: settings.profile, baseUrl: settings.sandbox ? 'sandbox' : settings.baseUrl, version },
      input: { kind: source.kind, display: source.display, name: source.name, digest: scan.digest },
      options: runOptions(opts, mapping),
    };
    const finished = runs && folders ? runs.findFinished(folders, identity) : undefined;
    const interrupted = runs && folders ? runs.findInterrupted(folders, identity) : {};
    if (interrupted.other && !flags.restart && !interrupted.same) {
      throw new UsageError(
        `an interrupted run of ${interrupted.other.identity?.command} ${source.display} (${when(interrupted.other.modified)}, ` +
          `${plural(interrupted.other.doneItems, 'number')} done) ${source.kind === 'file' && interrupted.other.identity?.input.digest !== scan.digest ? 'read the file before it changed' : 'used other options'}`,
        'run it again as it was to resume, or pass --restart to start over (see "trk runs"); nothing was sent',
      );
    }
    const doneBefore = interrupted.same && !flags.restart ? interrupted.same.doneChunks : undefined;
    const plan = makePlan(op, version, source.display, scan, doneBefore);
    // An interrupted run of this very input (say, one sent --again) is resumed rather than called finished.
    if (finished && !flags.again && !interrupted.same) plan.finishedBefore = { finished: finished.finished, counts: finished.counts };
    if (scan.items > 0 && !plan.finishedBefore) askQuota?.();

    if (flags.dryRun) {
      const q = quota ? await quotaForPlan(quota) : undefined;
      if (q) plan.quota = q;
      for (const line of [...planLines(plan), ...scan.notes]) ctx.io.err(line);
      if (!plan.finishedBefore && q) refuseShortQuota(plan.units - plan.done.units, q, source.display);
      if (ctx.global.output === 'json') ctx.io.out(`${JSON.stringify(plan, null, 2)}\n`);
      return { plan, results: EMPTY, exitCode: EXIT.ok, source: source.kind };
    }
    if (plan.finishedBefore) {
      ctx.info(finishedLine(source.display, op, plan.finishedBefore));
      return { plan, results: EMPTY, exitCode: EXIT.ok, source: source.kind };
    }
    if (scan.items === 0) {
      if (scan.problems.count === 0) ctx.info(`no tracking numbers in ${source.display}: nothing to do`);
      return { plan, results: EMPTY, exitCode: scan.problems.count > 0 ? EXIT.failure : EXIT.ok, source: source.kind };
    }
    await opts.confirm?.(plan);
    if (ctx.signal.aborted) throw new InterruptedError('interrupted before sending; nothing was sent', stopExitCode(ctx.signal));

    const runtime = await itemRuntime(ctx, opts);
    let journal: Journal | undefined;
    try {
      journal = journals && folders ? journals.Journal.open({ dir: folders.journals, identity, restart: flags.restart }) : undefined;
      // --restart after other options or an edited file: the old run's journal goes too.
      if (flags.restart && interrupted.other) rmSync(interrupted.other.file, { force: true });
      if (journal?.damagedAt !== undefined) {
        ctx.info(`the saved progress of this run is damaged (line ${journal.damagedAt}): what it does not show is looked up before anything is sent again`);
      }
      const doneNow = new Set<number>();
      if (journal) for (let c = 0; c < scan.chunkItems.length; c++) if (journal.isDone(c)) doneNow.add(c);
      if (journal?.resumed && doneNow.size > 0) {
        const left = scan.items - sumOver(scan.chunkItems, doneNow);
        ctx.info(`resuming an interrupted run: ${fmt(scan.items - left)} done, ${fmt(left)} to go`);
      }
      if (quota) {
        const needed = scan.units - sumOver(scan.chunkUnits, doneNow);
        const q = await quotaForPlan(quota);
        if (q) refuseShortQuota(needed, q, source.display);
      }
      source.assertUnchanged();

      const sink = new ResultSink({
        operation: op,
        layout: scan.layout,
        total: scan.items,
        collect: opts.collect ?? true,
        rejectsFile: flags.rejects,
        rawCsv: ctx.io.rawCsv,
        locate: source.locate,
        onItems: opts.onItems,
      });
      await sink.open();
      const progress = progressFor(`${commandName(op)}`);
      progress.phase('waiting for the first answer');
      // A bar shows the client's waits in place; status lines between its redraws would only repeat them.
      if (progress.inPlace) ctx.showWaits?.((words, ms) => progress.waiting(words, Date.now() + ms));
      let first = true;
      let result;
      let rejectsFailure: unknown;
      try {
        result = await runChunks({
          operation: op,
          version,
          client: runtime.client,
          pacer: runtime.pacer,
          journal,
          chunks: inputChunks(source, scanOpts, (row, message) => sink.invalid(row, message), scan.plan),
          concurrency: opts.concurrency,
          listFilter: opts.listFilter,
          alsoAlready: opts.alsoAlready,
          // A chunk failing for as long as a one-shot call may take (--timeout, three times over) is given up.
          maxChunkMs: callDeadlineMs(requestTimeoutMs(ctx.global.timeout, ctx.env)),
          stop: ctx.signal,
          verifyDelayMs: opts.verifyDelayMs,
          retryBaseMs: opts.retryBaseMs,
          onSettled: (chunk, outcome, replayed) => {
            sink.settle(chunk, outcome, replayed);
            if (first || !replayed) progress.update(sink.counts());
            first = false;
          },
          onWait: (reason, ms) => {
            const why = reason === 'rate-limited' ? 'rate limited' : reason === 'unavailable' ? 'service unavailable' : 'network trouble';
            progress.waiting(why, Date.now() + ms);
            ctx.debug(`${why}: every start paused for ${Math.round(ms)} ms`);
          },
          onDebug: (line) => ctx.debug(line),
        });
      } finally {
        progress.stop();
        ctx.showWaits?.(undefined);
        // A rejects file that could not be written fails the run once the summary says what was done.
        rejectsFailure = await sink.close().then(
          () => undefined,
          (err: unknown) => err,
        );
      }
      const summary = sink.summary(Date.now() - started);
      const failed = result.error !== undefined || (result.interrupted && summary.unsettled > 0);
      if (!failed) await opts.beforeSummary?.();
      const failedOutright = result.error !== undefined && summary.settled === 0;
      // A handful of arguments whose first request failed as a whole: the error line says it all.
      // A rejects file that could not be written is not named as written.
      const rejectsFile = rejectsFailure === undefined ? flags.rejects : undefined;
      const brief = failedOutright ? [] : [compactSummary(summary)];
      const lines = source.kind !== 'arguments' ? summaryLines(summary, rejectsFile) : brief;
      for (const line of [...lines, ...scan.notes]) ctx.info(line);
      for (const line of sink.invalidLines) ctx.io.err(`${line} (set aside)`);
      if (failed) {
        if (journal) ctx.info('progress is saved: run the same command again to resume');
        if (result.error !== undefined) throw result.error;
        throw new InterruptedError(`interrupted: ${fmt(summary.unsettled)} of ${fmt(summary.total)} not done`, stopExitCode(ctx.signal));
      }
      // Not recorded as finished: the same command again writes the rejects file from the journal, sending nothing.
      if (rejectsFailure !== undefined) throw rejectsFailure;
      if (journal && runs && journals && folders) {
        runs.recordFinished(folders, {
          key: journals.runKey(identity),
          identity,
          finished: new Date().toISOString(),
          counts: { total: summary.total, accepted: summary.accepted, already: summary.already, rejected: summary.rejected, invalid: summary.invalid },
        });
        journal.complete();
        journal = undefined;
      }
      return { plan, summary, results: sink.results, exitCode: exitCodeOf(summary), source: source.kind };
    } finally {
      // Kept for a resume when anything was sent; a journal this run created and never used goes.
      if (journal?.isFresh) journal.complete();
      else journal?.close();
    }
  } finally {
    await source.cleanup();
  }
}

/** --dry-run, --restart and --again are about files and pipes; with arguments they would do nothing. */
function refuseFileOnlyFlags(flags: ItemFlags): void {
  const given = [flags.restart && '--restart', flags.again && '--again'].filter((f): f is string => typeof f === 'string');
  if (given.length === 0) return;
  throw new UsageError(
    `${given.join(' and ')} ${given.length === 1 ? 'is' : 'are'} about runs of a file or a pipe, which are remembered; numbers given as arguments are not`,
    'drop it, or put the numbers in a file (-f FILE) or pipe them in',
  );
}

function reportLayout(ctx: Context, source: ItemSource, op: ItemOperation, scan: ScanResult): void {
  const { layout } = scan;
  if (layout.detail) ctx.debug(layout.detail);
  if (layout.note) ctx.info(layout.note);
  if (layout.ignored.length > 0) ctx.info(`${source.display}: ignored ${listSome(layout.ignored)}: not used by trk ${commandName(op)}`);
}

function reportProblems(ctx: Context, source: ItemSource, scan: ScanResult, flags: ItemFlags): void {
  const { problems } = scan;
  if (problems.count === 0) return;
  if (flags.skipInvalid) {
    ctx.info(`${source.display}: ${plural(problems.count, 'invalid row')} set aside (--skip-invalid); sending the other ${fmt(scan.items)}`);
    return;
  }
  const lines = problems.lines(source.locate);
  if (problems.count === 1) {
    throw new UsageError(lines[0] ?? '', 'fix it and run again, or pass --skip-invalid to send the rest; nothing was sent');
  }
  // Every problem at once (the first 20), so an input is fixed in one go; the error line closes the list.
  for (const line of lines) ctx.io.err(line);
  throw new UsageError(
    `${fmt(problems.count)} problems in ${source.display}; nothing was sent`,
    'fix the lines above and run again, or pass --skip-invalid to send the rest',
  );
}

/** What makes two runs of the same input different runs. */
function runOptions(opts: ItemRunOptions, mapping: ColumnMapping | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (opts.defaults && Object.keys(opts.defaults).length > 0) out.defaults = opts.defaults;
  if (opts.listFilter && Object.keys(opts.listFilter).length > 0) out.filter = opts.listFilter;
  if (mapping && mapping.size > 0) out.columns = [...mapping.entries()].sort();
  if (opts.flags.skipInvalid) out.skipInvalid = true;
  if (opts.alsoAlready && opts.alsoAlready.length > 0) out.alsoAlready = [...opts.alsoAlready];
  return out;
}

interface ItemRuntime {
  client: ApiClient;
  pacer: Pacer | undefined;
}

async function itemRuntime(ctx: Context, opts: ItemRunOptions): Promise<ItemRuntime> {
  if (opts.client) return { client: opts.client, pacer: opts.pacer };
  // The context's client starts requests under the budget shared by every process on this key, and stops
  // admitting new ones on Ctrl-C while those on the wire finish.
  const [client, pacer] = await Promise.all([ctx.api(), ctx.pacer()]);
  return { client, pacer };
}

/** The quota record, asked for in the background; rejections are kept for when the answer is needed. */
function readQuota(ctx: Context, client: ApiClient | undefined): Promise<Partial<QuotaRecord>> {
  const p = (async () => {
    const api = client ?? (await ctx.api());
    const envelope = await api.call('getquota', quotaBody(api.version), { signal: ctx.signal });
    return (envelope.data ?? {}) as Partial<QuotaRecord>;
  })();
  // Awaited later, or dropped when the input is refused: never an unhandled rejection.
  p.catch(() => {});
  return p;
}

async function quotaForPlan(quota: Promise<Partial<QuotaRecord>>): Promise<ItemPlan['quota']> {
  const q = await quota;
  const out: NonNullable<ItemPlan['quota']> = {};
  const remain = num(q.quota_remain);
  if (remain !== undefined) out.remaining = remain;
  const cap = num(q.max_track_daily);
  if (cap !== undefined && cap > 0) out.dailyLeft = Math.max(0, cap - (num(q.today_used) ?? 0));
  return out;
}

/** Refuse (exit 2) when the quota or today's cap cannot cover what the plan charges. */
function refuseShortQuota(needed: number, q: NonNullable<ItemPlan['quota']>, display: string): void {
  if (needed <= 0) return;
  if (q.remaining !== undefined && needed > q.remaining) {
    throw new UsageError(
      `not enough quota for ${display}: it needs ${fmt(needed)} units, ${fmt(q.remaining)} are left (${fmt(needed - q.remaining)} missing)`,
      'add quota to the account, or send part of the input; nothing was sent',
    );
  }
  if (q.dailyLeft !== undefined && needed > q.dailyLeft) {
    throw new UsageError(
      `the daily limit does not cover ${display}: it needs ${fmt(needed)} units, today leaves ${fmt(q.dailyLeft)} (${fmt(needed - q.dailyLeft)} missing)`,
      'raise the daily limit in the console, or send the rest after 00:00 UTC; nothing was sent',
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

function makePlan(op: ItemOperation, version: ApiVersion, input: string, scan: ScanResult, done: ReadonlySet<number> | undefined): ItemPlan {
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
    invalid: scan.problems.count,
    done: { items: sumOver(scan.chunkItems, doneSet), requests: doneRequests, units: sumOver(scan.chunkUnits, doneSet) },
    secondsAtCeiling: (requests - doneRequests) / LIMITS.requestsPerSecond,
  };
}

/** `2026-11-24 02:02`, in the local time zone. */
function when(ms: number | string): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function finishedText(display: string, op: ItemOperation, before: NonNullable<ItemPlan['finishedBefore']>): string {
  const c = before.counts;
  const parts = [`${fmt(c.accepted)} ${doneWord(op)}`];
  if (c.already > 0) parts.push(`${fmt(c.already)} already`);
  if (c.rejected > 0) parts.push(`${fmt(c.rejected)} rejected`);
  return `${display}: the same input was fully sent by trk ${commandName(op)} on ${when(before.finished)} (${parts.join(', ')})`;
}

function finishedLine(display: string, op: ItemOperation, before: NonNullable<ItemPlan['finishedBefore']>): string {
  return `${finishedText(display, op, before)}; nothing was sent: pass --again to send it again`;
}

/** One line for a handful of arguments: `registered 2, already registered 1, rejected 1`. */
export function compactSummary(s: RunSummary): string {
  const parts = [`${doneWord(s.operation)} ${fmt(s.accepted)}`];
  if (s.already > 0) parts.push(`${alreadyWords(s.operation)} ${fmt(s.already)}`);
  if (s.notFound > 0) parts.push(`not registered ${fmt(s.notFound)}`);
  if (s.rejected > 0) parts.push(`rejected ${fmt(s.rejected)}`);
  if (s.invalid > 0) parts.push(`invalid ${fmt(s.invalid)}`);
  if (s.unsettled > 0) parts.push(`not done ${fmt(s.unsettled)}`);
  return parts.join(', ');
}

function alreadyWords(op: ItemOperation): string {
  return operationSpec(op).already?.words ?? 'already done';
}

/** The dry run's report. */
export function planLines(plan: ItemPlan): string[] {
  const lines = [
    `dry run: ${commandName(plan.operation)} ${plan.input} (API ${plan.version})`,
    `  ${plural(plan.items, 'item')} in ${plural(plan.requests, 'request')}` + (plan.requests > 0 ? ` of up to ${plan.perRequest}` : ''),
  ];
  if (plan.invalid > 0) lines.push(`  ${plural(plan.invalid, 'invalid row')} set aside`);
  if (plan.finishedBefore) {
    lines.push(`  ${finishedText(plan.input, plan.operation, plan.finishedBefore)}: a real run sends nothing without --again`);
  }
  if (plan.done.items > 0) {
    lines.push(
      `  an interrupted run of this input is saved: ${fmt(plan.done.items)} done, ` +
        `${fmt(plan.items - plan.done.items)} left in ${plural(plan.requests - plan.done.requests, 'request')}`,
    );
  }
  lines.push(`  about ${duration(Math.ceil(plan.secondsAtCeiling))} at the service's ceiling of ${LIMITS.requestsPerSecond} requests a second`);
  if (plan.units > 0) {
    const units = plan.units - plan.done.units;
    const extra = plan.units - plan.items;
    let quota = `  quota: ${plural(units, 'unit')}` + (extra > 0 && plan.operation === 'register' ? ` (${fmt(extra)} with a translation language cost 2)` : '');
    if (plan.version === 'v1') quota += '; v1 cannot read the quota, so it is not checked';
    else if (plan.quota?.remaining !== undefined) quota += `, ${fmt(plan.quota.remaining)} left` + (plan.quota.dailyLeft !== undefined ? `, ${fmt(plan.quota.dailyLeft)} left today` : '');
    lines.push(quota);
  }
  lines.push('nothing was sent');
  return lines;
}
