// One item run, whatever the way in (arguments, a pipe, `-f FILE`, `-f -`). In order:
//   1. the input is checked in one streaming pass, its requests digested; any problem is a usage error (exit 2)
//      and nothing is sent, unless --skip-invalid sets the bad rows aside. Rows of a file that an earlier run of
//      it had confirmed are left out (src/items/sent.ts);
//   2. the same requests sent before are not sent again without --again; an interrupted run of them is resumed;
//      an interrupted run of the file with other requests (rewritten since, or run with another option) gives
//      way: what it confirmed is not sent again, what it never sent that the file no longer holds is named, and
//      the run goes on (on a terminal, trk asks first). Never exit 2 for that (src/items/runs.ts);
//   3. --dry-run reports the plan (requests, time at the ceiling, quota, how many numbers are new, the refusal a
//      real run would meet);
//   4. for operations that cost quota, the quota and the daily cap must cover what is left (exit 2 if not),
//      counting only the numbers not registered already (src/items/registered.ts); the quota is asked for
//      while the input is being checked;
//   5. the chunks are sent by the runner, at the ceiling, exactly once, each checked against what the first
//      pass read (a file that changed stops the run);
//   6. the summary goes to stderr, rows set aside to the rejects file (--rejects FILE, or one of trk's own in
//      the state folder when no output format shows them); a finished run leaves its record.
// Files and pipes get a journal and a progress line; a handful of arguments need neither (a lost answer is
// still looked up, and quota still checked). Ctrl-C or SIGTERM finishes the requests in flight, saves, prints
// the summary and stops with the signal's exit code. A run with rows left undone never exits 0.

import path from 'node:path';
import type { ApiClient } from '../api/client.js';
import { callDeadlineMs, requestTimeoutMs } from '../config/timeout.js';
import type { Pacer } from '../api/pacer.js';
import { commandName, doneWord, operationSpec } from '../api/ops.js';
import { LIMITS, type ApiVersion } from '../api/spec.js';
import type { ItemResults, QuotaRecord, TrackListFilter } from '../api/types.js';
import type { Settings } from '../config/settings.js';
import type { Context } from '../context.js';
import { InterruptedError, stopExitCode, TrkError, UsageError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { fmt, plural } from '../text.js';
import type { CarrierResolver } from './check.js';
import { checkDefaults } from './check.js';
import type { Chunk } from './chunker.js';
import { DigestList, rowDigest, sortedHas } from './digest.js';
import {
  isCharging,
  isReadOnly,
  parseColumnMapping,
  type ColumnMapping,
  type ItemOperation,
  type RowValues,
} from './fields.js';
import type { Journal, JournalSummary, RunIdentity } from './journal.js';
import {
  finishedLine,
  makePlan,
  planLines,
  quotaForPlan,
  quotaShort,
  readQuota,
  refuseShortQuota,
  sentBeforeText,
  sumOver,
  when,
  type ItemPlan,
} from './plan.js';
import type { Progress, ProgressMode } from './progress.js';
import { listSome, type InputRow } from './read.js';
import { exitCodeOf, leftBehindText, ResultSink, setAsideLine, summaryLines, type RunSummary } from './results.js';
import { runChunks, type RunnerResult } from './runner.js';
import type { FinishedRun, LeftBehind, RunFolders } from './runs.js';
import { chunkSize, inputChunks, scanInput, type ScanOptions, type ScanResult } from './scan.js';
import type { SentRecord } from './sent.js';
import { fsReason, openSource, type ItemSource, type SourceFlags } from './source.js';

export type { ItemPlan } from './plan.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { accessSync, constants } = process.getBuiltinModule('node:fs');

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
  const run = await ItemRun.open(ctx, opts);
  try {
    return await run.run();
  } finally {
    await run.close();
  }
}

/** What a run of a file or a pipe knows of the runs before it (loaded only for them: `trk stop N` does not). */
interface Memory {
  runs: typeof import('./runs.js');
  journals: typeof import('./journal.js');
  sent: typeof import('./sent.js');
  folders: RunFolders;
  /** Requests earlier runs of this file confirmed (a file, without --again). */
  record: SentRecord;
}

/** Where a checked input stands against the runs before it. */
interface Standing {
  identity: RunIdentity;
  finished?: FinishedRun | undefined;
  /** This very run, interrupted: resumed. */
  same?: JournalSummary | undefined;
  /** Interrupted runs of the same input with other requests, and what each leaves. */
  replaced: { journal: JournalSummary; left: LeftBehind }[];
  /** What the run leaves out as sent before, named for its journal (a resume must leave out the same). */
  sentId: string | null;
  /** A record of an earlier run is damaged (or the journal of this one cannot be trusted): look up first. */
  unknownPast: boolean;
  /** The journal of this very run was made leaving out other rows: it is started over, looking up first. */
  sameUnusable: boolean;
  /** The journal of this very run left nothing out (an interrupted --again): its input is read as it did. */
  leaveNothingOut: boolean;
}

/** What a run that sends keeps while it does. */
interface Sending {
  journal?: Journal | undefined;
  sink: ResultSink;
  /** Digests of the requests confirmed by earlier runs and this one (a file: its record of sent rows). */
  confirmed?: DigestList | undefined;
  /** Chunks settled, and the numbers of settled chunks left pending (refused by the account). */
  settled: Map<number, Set<string>>;
  /** The journal, whose rows log names what is left undone. */
  journalFile?: string | undefined;
}

class ItemRun {
  readonly #ctx: Context;
  readonly #o: ItemRunOptions;
  readonly #op: ItemOperation;
  readonly #flags: ItemFlags;
  readonly #settings: Settings;
  readonly #version: ApiVersion;
  readonly #state: string;
  readonly #source: ItemSource;
  // Durations and dates of runs on the real clock: ctx.now() is the service's, simulated under --sandbox.
  readonly #started = Date.now();
  #scanOpts: ScanOptions;
  #renderer: typeof import('./progress.js') | undefined;
  #quota: Promise<Partial<QuotaRecord>> | undefined;
  #memory: Memory | undefined;

  private constructor(
    ctx: Context,
    opts: ItemRunOptions,
    settings: Settings,
    mapping: ColumnMapping | undefined,
    state: string,
    source: ItemSource,
  ) {
    this.#ctx = ctx;
    this.#o = opts;
    this.#op = opts.operation;
    this.#flags = opts.flags;
    this.#settings = settings;
    this.#version = opts.client?.version ?? settings.apiVersion;
    this.#state = state;
    this.#source = source;
    this.#scanOpts = {
      operation: this.#op,
      version: this.#version,
      defaults: opts.defaults,
      resolveCarrier: opts.resolveCarrier,
      mapping,
      skipInvalid: opts.flags.skipInvalid,
    };
  }

  /** Settings, flags and the input, checked as far as they can be before the input is read. */
  static async open(ctx: Context, opts: ItemRunOptions): Promise<ItemRun> {
    const settings = await ctx.settings();
    const flags = opts.flags;
    let mapping: ColumnMapping | undefined;
    try {
      mapping = flags.columns && flags.columns.length > 0 ? parseColumnMapping(flags.columns) : undefined;
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const version = opts.client?.version ?? settings.apiVersion;
    if (opts.defaults) {
      checkDefaults(opts.defaults, { operation: opts.operation, version, resolveCarrier: opts.resolveCarrier });
    }
    const { ensurePrivateDir, stateDir } = await import('../config/paths.js');
    const state = stateDir(ctx.env);
    // A file or a pipe needs the state folder (a pipe's copy, a write's journal): one clear line before anything.
    if (flags.numbers.length === 0) writableFolder(state, ensurePrivateDir);
    const source = await openSource(flags, ctx.io, path.join(state, 'spool'));
    return new ItemRun(ctx, opts, settings, mapping, state, source);
  }

  async close(): Promise<void> {
    await this.#source.cleanup();
  }

  async run(): Promise<ItemReport> {
    const source = this.#source;
    if (source.kind === 'arguments') refuseFileOnlyFlags(this.#flags);
    if (this.#flags.rejects !== undefined && source.isSameFile(this.#flags.rejects)) {
      throw new UsageError(
        `--rejects ${this.#flags.rejects} is the input file`,
        'write the rejects to another file; nothing was sent',
      );
    }
    // Arguments show no progress, and `trk stop N` does not load its renderer.
    const quiet = this.#o.progress === 'none' || (this.#o.progress === undefined && source.kind === 'arguments');
    this.#renderer = quiet ? undefined : await import('./progress.js');
    // Journals and the records of runs are for files and pipes: arguments are neither resumed nor remembered.
    if (!isReadOnly(this.#op) && source.kind !== 'arguments') this.#memory = await this.#recall();
    let scan = await this.#check();
    let standing: Standing | undefined;
    if (this.#memory) {
      standing = await this.#stand(this.#memory, scan);
      if (standing.replaced.length > 0 && !this.#flags.restart) scan = await this.#giveWay(standing);
      else if (standing.leaveNothingOut) scan = await this.#checkWithoutSkip();
    }
    const plan = this.#plan(scan, standing);
    if (this.#flags.dryRun) return this.#dryRun(plan, scan, standing);
    const nothing = this.#nothingToSend(plan, scan, standing);
    if (nothing) return nothing;
    await this.#o.confirm?.(plan);
    if (this.#ctx.signal.aborted) {
      throw new InterruptedError('interrupted before sending; nothing was sent', stopExitCode(this.#ctx.signal));
    }
    return this.#send(plan, scan, standing);
  }

  // ---- before sending ----

  async #recall(): Promise<Memory> {
    const [runs, journals, sent] = await Promise.all([
      import('./runs.js'),
      import('./journal.js'),
      import('./sent.js'),
    ]);
    const folders = runs.runFolders(this.#state);
    const memory: Memory = { runs, journals, sent, folders, record: { state: 'none' } };
    if (this.#source.kind === 'file' && !this.#flags.again) {
      memory.record = sent.readSent(sent.sentFile(folders.sent, this.#identity('')));
      if (memory.record.state === 'sound') {
        const rows = memory.record.rows;
        this.#scanOpts = { ...this.#scanOpts, skip: (digest) => rows.has(digest) };
      }
    }
    return memory;
  }

  #progressFor(label: string): Progress {
    const mode = this.#o.progress ?? this.#renderer?.progressMode(this.#ctx.io, this.#ctx.global.quiet) ?? 'none';
    const ceiling = chunkSize(this.#op, this.#version) * LIMITS.requestsPerSecond;
    return this.#renderer?.createProgress(this.#ctx.io, { mode, label, ceilingPerSecond: ceiling }) ?? NO_PROGRESS;
  }

  /** The checking pass: its problems refuse the input (or are set aside); meanwhile, the quota is asked for. */
  async #check(): Promise<ScanResult> {
    // A long input is still being checked when the quota is asked for (it costs nothing), so that the answer is
    // there when the check ends; a short one, or one with a problem so far, sends nothing before it is checked.
    const scanStarted = Date.now();
    const overlapQuota = this.#asksQuota()
      ? (items: number, problems: number) => {
          if (problems === 0 && items % 1000 === 0 && Date.now() - scanStarted > QUOTA_OVERLAP_AFTER_MS) {
            this.#askQuota();
          }
        }
      : undefined;
    const checking = this.#progressFor(commandName(this.#op));
    checking.phase(`checking ${this.#source.display}`);
    let scan: ScanResult;
    try {
      scan = await scanInput(this.#source, { ...this.#scanOpts, onRow: overlapQuota });
    } finally {
      checking.stop();
    }
    reportLayout(this.#ctx, this.#source, this.#op, scan);
    reportProblems(this.#ctx, this.#source, scan, this.#flags);
    if (this.#ctx.signal.aborted) {
      throw new InterruptedError(
        'interrupted while reading the input; nothing was sent',
        stopExitCode(this.#ctx.signal),
      );
    }
    return scan;
  }

  #asksQuota(): boolean {
    return isCharging(this.#op) && this.#version !== 'v1';
  }

  #askQuota(): void {
    if (this.#asksQuota()) this.#quota ??= readQuota(this.#ctx, this.#o.client);
  }

  #identity(digest: string): RunIdentity {
    const s = this.#settings;
    const source = this.#source;
    return {
      op: this.#op,
      command: commandName(this.#op),
      account: { profile: s.profile, baseUrl: s.sandbox ? 'sandbox' : s.baseUrl, version: this.#version },
      input: { kind: source.kind, display: source.display, name: source.name, digest },
      options: runOptions(this.#o),
    };
  }

  /** The runs before this one of the same input: finished, interrupted (this very run, or others), damaged. */
  async #stand(memory: Memory, scan: ScanResult): Promise<Standing> {
    const { runs, folders, record } = memory;
    const identity = this.#identity(scan.digest);
    const found = runs.findInterrupted(folders, identity);
    const running = found.others.find((j) => j.running);
    if (running) {
      const command = running.identity?.command ?? commandName(this.#op);
      throw new TrkError(
        `another trk process is running trk ${command} on ${this.#source.display} (since ${when(running.modified)})`,
        {
          hint: 'run again once it has finished; nothing was sent',
        },
      );
    }
    const replaced = this.#flags.restart
      ? found.others.map((journal) => ({ journal, left: emptyLeft() }))
      : await Promise.all(found.others.map(async (journal) => ({ journal, left: await runs.leftBehind(journal) })));
    // Named by what it leaves out: the record of sent rows, and the interrupted runs whose confirmed rows join it.
    const joining = this.#flags.restart ? [] : replaced.map((r) => r.journal.key).sort();
    let sentId =
      record.state === 'sound' || joining.length > 0
        ? [record.state === 'sound' ? record.rows.id : 'none', ...joining].join('+')
        : null;
    // A resume must read its input as the interrupted run did: leaving nothing out (it was sent --again) can be
    // done again; leaving out another record's rows cannot, and that journal is started over, looking up first.
    const madeWith = found.same === undefined || this.#flags.restart ? sentId : (found.same.sentId ?? null);
    const leaveNothingOut = madeWith !== sentId && madeWith === null && joining.length === 0;
    const sameUnusable = madeWith !== sentId && !leaveNothingOut;
    if (leaveNothingOut) sentId = null;
    const damaged = record.state === 'damaged' || runs.finishedRecordDamaged(folders, identity);
    if (damaged) {
      this.#ctx.info(
        `the record of an earlier run of ${this.#source.display} is damaged: ` +
          'what it may have sent is looked up before anything is sent again',
      );
    }
    return {
      identity,
      finished: runs.findFinished(folders, identity),
      same: sameUnusable ? undefined : found.same,
      replaced,
      sentId,
      unknownPast: damaged || sameUnusable,
      sameUnusable,
      leaveNothingOut,
    };
  }

  /** The input checked again leaving nothing out, as the interrupted run of it did. */
  async #checkWithoutSkip(): Promise<ScanResult> {
    const { skip: _skip, ...opts } = this.#scanOpts;
    this.#scanOpts = opts;
    return scanInput(this.#source, opts);
  }

  /**
   * Interrupted runs of the file with other requests give way to this one: on a terminal the user is asked
   * first (never elsewhere); the input is checked again leaving out what they confirmed, and learning which of
   * the numbers they never sent it still holds.
   */
  async #giveWay(standing: Standing): Promise<ScanResult> {
    const first = standing.replaced[0]!.journal;
    if (!this.#flags.dryRun && !standing.same && this.#ctx.io.canPrompt() && !this.#ctx.global.yes) {
      const question =
        `${this.#source.display} changed since an interrupted run of it ` +
        `(${when(first.modified)}, ${plural(first.doneItems, 'number')} done). ` +
        'Start a new run of the file as it is now?';
      if (!(await this.#ctx.prompter.confirm(question, true))) {
        throw new TrkError('nothing was sent: the interrupted run is kept', {
          hint: 'run the same command again to choose again, or see "trk runs"',
        });
      }
    }
    const confirmed = standing.replaced.map(({ left }) => left.confirmed.sortedUnique());
    const record = this.#memory?.record;
    const sent = record?.state === 'sound' ? record.rows : undefined;
    const skip = (digest: bigint) => (sent?.has(digest) ?? false) || confirmed.some((c) => sortedHas(c, digest));
    const onValid = (row: Chunk['rows'][number]) => {
      for (const { left } of standing.replaced) {
        left.notSent.delete(row.key);
        left.maybeSent.delete(row.key);
      }
    };
    this.#scanOpts = { ...this.#scanOpts, skip };
    const checking = this.#progressFor(commandName(this.#op));
    checking.phase(`checking ${this.#source.display} against the interrupted run`);
    try {
      return await scanInput(this.#source, { ...this.#scanOpts, onValid });
    } finally {
      checking.stop();
    }
  }

  #plan(scan: ScanResult, standing: Standing | undefined): ItemPlan {
    const doneBefore = standing?.same && !this.#flags.restart ? standing.same.doneChunks : undefined;
    const plan = makePlan(this.#op, this.#version, this.#source.display, scan, doneBefore);
    // An interrupted run of this very input (say, one sent --again) is resumed rather than called finished.
    const finished = standing?.finished;
    // An interrupted run of the file still to give way to (and name what it left) is not skipped.
    if (finished && !this.#flags.again && !standing?.same && (standing?.replaced.length ?? 0) === 0) {
      plan.finishedBefore = { finished: finished.finished, counts: finished.counts };
    }
    const record = this.#memory?.record;
    if (scan.skipped > 0 && record?.state === 'sound') {
      plan.sentBefore = { rows: scan.skipped, when: record.rows.updated };
    }
    const replaced = standing?.replaced[0];
    if (replaced && !this.#flags.restart) {
      const leftBehind = standing.replaced.reduce(
        (n, { left }) => n + countRows(left.notSent) + countRows(left.maybeSent),
        0,
      );
      plan.replaces = {
        when: new Date(replaced.journal.modified).toISOString(),
        done: replaced.journal.doneItems,
        leftBehind,
      };
    }
    if (scan.items > 0 && !plan.finishedBefore) this.#askQuota();
    return plan;
  }

  async #dryRun(plan: ItemPlan, scan: ScanResult, standing: Standing | undefined): Promise<ItemReport> {
    const q = this.#quota ? await quotaForPlan(this.#quota) : undefined;
    if (q) plan.quota = q;
    if (q && this.#op === 'register' && !plan.finishedBefore && scan.items > 0) {
      const client = this.#o.client ?? (await this.#ctx.api());
      const paid = await this.#alreadyPaid(
        scan,
        plan.done.requests > 0 ? (standing?.same?.doneChunks ?? new Set()) : new Set(),
        client,
      );
      if (paid) plan.registered = { items: paid.items, units: paid.units };
    }
    for (const line of planLines(plan)) this.#ctx.io.err(line);
    // A real run that cannot look up what is registered warns and sends: no refusal to predict then.
    const lookedUp = plan.registered !== undefined || this.#op !== 'register';
    if (!plan.finishedBefore && q && lookedUp) {
      refuseShortQuota(
        plan.units - plan.done.units - (plan.registered?.units ?? 0),
        q,
        this.#source.display,
        plan.registered,
      );
    }
    if (this.#ctx.global.output === 'json') this.#ctx.io.out(`${JSON.stringify(plan, null, 2)}\n`);
    return { plan, results: EMPTY, exitCode: EXIT.ok, source: this.#source.kind };
  }

  /** The report of a run with nothing to send (sent before, or no numbers), after saying so. */
  #nothingToSend(plan: ItemPlan, scan: ScanResult, standing: Standing | undefined): ItemReport | undefined {
    const report = (exitCode: ExitCode): ItemReport => ({ plan, results: EMPTY, exitCode, source: this.#source.kind });
    if (plan.finishedBefore) {
      this.#ctx.info(finishedLine(this.#source.display, this.#op, plan.finishedBefore));
      return report(EXIT.ok);
    }
    if (scan.items > 0 || (standing?.replaced.length ?? 0) > 0) return undefined;
    if (plan.sentBefore) {
      this.#ctx.info(
        `${this.#source.display}: ${sentBeforeText(plan.sentBefore, 0)}: ` +
          'nothing was sent: pass --again to send them again',
      );
      return report(EXIT.ok);
    }
    if (scan.problems.count === 0) this.#ctx.info(`no tracking numbers in ${this.#source.display}: nothing to do`);
    return report(scan.problems.count > 0 ? EXIT.failure : EXIT.ok);
  }

  // ---- sending ----

  async #send(plan: ItemPlan, scan: ScanResult, standing: Standing | undefined): Promise<ItemReport> {
    const runtime = await itemRuntime(this.#ctx, this.#o);
    let journal = standing ? this.#openJournal(standing) : undefined;
    try {
      const doneNow = new Set<number>();
      if (journal) for (let c = 0; c < scan.chunkItems.length; c++) if (journal.isDone(c)) doneNow.add(c);
      this.#sayWhereFrom(journal, scan, doneNow, plan);
      await this.#checkQuota(scan, doneNow, runtime.client);
      if (journal && !journal.resumed) await this.#logRows(journal, scan);
      this.#source.assertUnchanged();
      const sending = await this.#startSink(scan, standing);
      sending.journalFile = journal?.file;
      const result = await this.#runChunks(scan, runtime, journal, sending);
      const summary = await this.#finishOutput(scan, result, sending);
      if (journal && standing && this.#memory) {
        this.#remember(this.#memory, standing, scan, summary, sending);
        journal.complete();
        journal = undefined;
      }
      return { plan, summary, results: sending.sink.results, exitCode: exitCodeOf(summary), source: this.#source.kind };
    } finally {
      // Kept for a resume when anything was sent; a journal this run created and never used goes.
      if (journal?.isFresh) journal.complete();
      else journal?.close();
    }
  }

  #openJournal(standing: Standing): Journal {
    const memory = this.#memory as Memory;
    const restart = this.#flags.restart === true || standing.sameUnusable;
    const journal = memory.journals.Journal.open({
      dir: memory.folders.journals,
      identity: standing.identity,
      restart,
      sentId: standing.sentId ?? undefined,
      // A resumed journal keeps what its head says; a new one looks up what a damaged record may have sent.
      unknownPast: standing.unknownPast,
    });
    // --restart after other requests: the old runs' journals go too, without a word about them.
    if (this.#flags.restart) for (const { journal: old } of standing.replaced) memory.runs.retireJournal(old);
    if (journal.damagedAt !== undefined) {
      this.#ctx.info(
        `the saved progress of this run is damaged (line ${journal.damagedAt}): ` +
          'what it does not show is looked up before anything is sent again',
      );
    }
    return journal;
  }

  /** Resuming, leaving out what was sent before, replacing an interrupted run: said before anything is sent. */
  #sayWhereFrom(journal: Journal | undefined, scan: ScanResult, doneNow: ReadonlySet<number>, plan: ItemPlan): void {
    if (journal?.resumed && doneNow.size > 0) {
      const left = scan.items - sumOver(scan.chunkItems, doneNow);
      this.#ctx.info(`resuming an interrupted run: ${fmt(scan.items - left)} done, ${fmt(left)} to go`);
    }
    if (plan.sentBefore) this.#ctx.info(`${this.#source.display}: ${sentBeforeText(plan.sentBefore, scan.items)}`);
    if (plan.replaces) {
      this.#ctx.info(
        `${this.#source.display} changed since an interrupted run of it (${when(plan.replaces.when)}): ` +
          'starting a new run of the file as it is now',
      );
    }
  }

  /**
   * The quota and today's cap must cover what is left. Before refusing, the numbers registered already are
   * looked up (they cost nothing); if that cannot be done, the run warns and sends.
   */
  async #checkQuota(scan: ScanResult, doneNow: ReadonlySet<number>, client: ApiClient): Promise<void> {
    if (!this.#quota) return;
    const needed = scan.units - sumOver(scan.chunkUnits, doneNow);
    const q = await quotaForPlan(this.#quota);
    if (!q || !quotaShort(needed, q)) return;
    const paid = this.#op === 'register' ? await this.#alreadyPaid(scan, doneNow, client) : undefined;
    if (this.#op === 'register' && !paid) return;
    refuseShortQuota(
      needed - (paid?.units ?? 0),
      q,
      this.#source.display,
      paid && { items: paid.items, units: paid.units },
    );
  }

  /** The rows of what is left that are registered already; undefined (after a warning) if that cannot be told. */
  async #alreadyPaid(
    scan: ScanResult,
    done: ReadonlySet<number>,
    client: ApiClient,
  ): Promise<{ items: number; units: number } | undefined> {
    const { alreadyPaid, serviceLookup } = await import('./registered.js');
    const left = scan.items - sumOver(scan.chunkItems, done);
    const progress = this.#progressFor(commandName(this.#op));
    progress.phase(`looking up which of ${plural(left, 'number')} are registered already`);
    try {
      const chunks = this.#chunksLeft(scan, done);
      const paid = await alreadyPaid(
        this.#op,
        chunks,
        serviceLookup(client, this.#version, this.#ctx.signal),
        (looked) => progress.phase(`looking up which numbers are registered already: ${fmt(looked)} of ${fmt(left)}`),
      );
      return { items: paid.items, units: paid.units };
    } catch (err) {
      if (err instanceof TrkError && err.exitCode === EXIT.usage) throw err;
      if (this.#ctx.signal.aborted) {
        throw new InterruptedError('interrupted before sending; nothing was sent', stopExitCode(this.#ctx.signal));
      }
      this.#ctx.info(
        `could not look up which numbers are registered already (${(err as Error).message}): ` +
          'sending; the service refuses what the quota does not cover',
      );
      return undefined;
    } finally {
      progress.stop();
    }
  }

  /** The input read again, chunk by chunk as checked (arguments cannot change). */
  #reread(scan: ScanResult, onInvalid?: (row: InputRow, message: string) => void): AsyncGenerator<Chunk> {
    return inputChunks(this.#source, this.#scanOpts, onInvalid, this.#source.kind === 'arguments' ? undefined : scan);
  }

  /** The input read again without the chunks done already. */
  async *#chunksLeft(scan: ScanResult, done: ReadonlySet<number>): AsyncGenerator<Chunk> {
    for await (const chunk of this.#reread(scan)) if (!done.has(chunk.index)) yield chunk;
  }

  /** The rows of a new run, beside its journal, for the day its file is rewritten before it is finished. */
  async #logRows(journal: Journal, scan: ScanResult): Promise<void> {
    const { rowsLogFile, writeRowsLog } = await import('./rows-log.js');
    await writeRowsLog(rowsLogFile(journal.file), this.#reread(scan));
  }

  /** The results: counts, output, and the rejects file (--rejects, or trk's own when nothing else shows them). */
  async #startSink(scan: ScanResult, standing: Standing | undefined): Promise<Sending> {
    const leftBehind = standing && !this.#flags.restart ? standing.replaced.map((r) => r.left) : [];
    const named = leftBehind.reduce((n, left) => n + countRows(left.notSent) + countRows(left.maybeSent), 0);
    // trk's own rejects file where nothing else shows what was set aside: a write of a file or a pipe without an
    // output format (reads and arguments print their results), or rows of an interrupted run that no output holds.
    const printed = isReadOnly(this.#op) || this.#ctx.global.output !== undefined;
    const own = this.#flags.rejects === undefined && this.#source.kind !== 'arguments' && (!printed || named > 0);
    const sink = new ResultSink({
      operation: this.#op,
      layout: scan.layout,
      total: scan.items,
      collect: this.#o.collect ?? true,
      rejectsFile: this.#flags.rejects ?? (own ? await this.#ownRejectsFile() : undefined),
      rejectsOnDemand: this.#flags.rejects === undefined,
      rawCsv: this.#ctx.io.rawCsv,
      locate: this.#source.locate,
      onItems: this.#o.onItems,
    });
    await sink.open();
    const then = standing?.replaced[0]?.journal.modified ?? Date.now();
    for (const left of leftBehind) this.#nameLeftBehind(sink, left, then);
    if (named > 0) {
      this.#ctx.info(`${leftBehindText(named)}: they are named in ${sink.rejectsFile ?? 'the rejects file'}`);
    }
    // What the file's runs confirmed: the rows left out as sent before, and those this run gets done.
    const confirmed = this.#source.kind === 'file' && this.#memory ? scan.skippedDigests : undefined;
    return { sink, confirmed, settled: new Map() };
  }

  /** `<state>/rejects/2026-11-25T02-00-00-register-orders.csv`; rejects files older than 30 days go. */
  async #ownRejectsFile(): Promise<string> {
    const { ensurePrivateDir } = await import('../config/paths.js');
    const { pruneFiles } = await import('./leftovers.js');
    const dir = ensurePrivateDir(path.join(this.#state, 'rejects'));
    const cutoff = Date.now() - 30 * 24 * 3600 * 1000;
    pruneFiles(dir, (name, st) => name.endsWith('.csv') && st.mtimeMs < cutoff);
    const stamp = new Date(this.#started).toISOString().slice(0, 19).replace(/:/g, '-');
    const input =
      this.#source.kind === 'file' ? path.basename(this.#source.display).replace(/\.[^.]*$/, '') : this.#source.kind;
    return path.join(dir, `${stamp}-${commandName(this.#op)}-${input.replace(/[^\w.-]+/g, '_')}.csv`);
  }

  #nameLeftBehind(sink: ResultSink, left: LeftBehind, modified: number): void {
    const then = when(modified);
    const rows = (map: LeftBehind['notSent']) =>
      [...map.values()].flat().map((r) => ({ number: r.number, carrier: r.carrier, was: r.line }));
    sink.named(
      rows(left.notSent),
      'not-sent',
      (r) => `not in the file now; the interrupted run of ${then} never sent it (its line ${r.was} then)`,
    );
    sink.named(
      rows(left.maybeSent),
      'not-sent',
      (r) =>
        `not in the file now; the interrupted run of ${then} sent it without seeing the answer ` +
        `(its line ${r.was} then): see "trk info"`,
    );
  }

  async #runChunks(
    scan: ScanResult,
    runtime: ItemRuntime,
    journal: Journal | undefined,
    sending: Sending,
  ): Promise<RunnerResult> {
    const { sink, confirmed, settled } = sending;
    const progress = this.#progressFor(commandName(this.#op));
    progress.phase('waiting for the first answer');
    // A bar shows the client's waits in place; status lines between its redraws would only repeat them.
    if (progress.inPlace) this.#ctx.showWaits?.((words, ms) => progress.waiting(words, Date.now() + ms));
    let first = true;
    try {
      return await runChunks({
        operation: this.#op,
        version: this.#version,
        client: runtime.client,
        pacer: runtime.pacer,
        journal,
        chunks: this.#reread(scan, (row, message) => sink.invalid(row, message)),
        concurrency: this.#o.concurrency,
        listFilter: this.#o.listFilter,
        alsoAlready: this.#o.alsoAlready,
        // A chunk failing for as long as a one-shot call may take (--timeout, three times over) is given up.
        maxChunkMs: callDeadlineMs(requestTimeoutMs(this.#ctx.global.timeout, this.#ctx.env)),
        stop: this.#ctx.signal,
        verifyDelayMs: this.#o.verifyDelayMs,
        retryBaseMs: this.#o.retryBaseMs,
        onSettled: (chunk, outcome, replayed) => {
          sink.settle(chunk, outcome, replayed);
          settled.set(chunk.index, new Set(outcome.pending ?? []));
          if (confirmed) collectConfirmed(confirmed, chunk, outcome);
          if (first || !replayed) progress.update(sink.counts());
          first = false;
        },
        onWait: (reason, ms) => {
          const why =
            reason === 'rate-limited'
              ? 'rate limited'
              : reason === 'unavailable'
                ? 'service unavailable'
                : 'network trouble';
          progress.waiting(why, Date.now() + ms);
          this.#ctx.debug(`${why}: every start paused for ${Math.round(ms)} ms`);
        },
        onDebug: (line) => this.#ctx.debug(line),
      });
    } finally {
      progress.stop();
      this.#ctx.showWaits?.(undefined);
    }
  }

  /**
   * The rows left undone named, the rejects file closed, the output finished, the summary printed; a run
   * that stopped (or left rows undone) ends in its error here.
   */
  async #finishOutput(scan: ScanResult, result: RunnerResult, sending: Sending): Promise<RunSummary> {
    const { sink } = sending;
    const unsettled = scan.items - sumOver(scan.chunkItems, new Set(sending.settled.keys()));
    const pending = [...sending.settled.values()].reduce((n, keys) => n + keys.size, 0);
    try {
      if (unsettled + pending > 0) await this.#nameUndone(sink, sending, result);
    } finally {
      await sink.close();
    }
    const summary = sink.summary(Date.now() - this.#started);
    const failed = result.error !== undefined || summary.unsettled > 0;
    if (!failed) await this.#o.beforeSummary?.();
    this.#summarise(summary, sink, result);
    if (!failed) return summary;
    if (this.#memory) {
      this.#ctx.info(
        result.error instanceof TrkError && /changed since it was checked/.test(result.error.message)
          ? 'progress is saved'
          : 'progress is saved: run the same command again to resume',
      );
    }
    if (result.error !== undefined) throw result.error;
    const stopped = `${fmt(summary.unsettled)} of ${fmt(summary.total)} not done`;
    if (result.interrupted) throw new InterruptedError(`interrupted: ${stopped}`, stopExitCode(this.#ctx.signal));
    throw new TrkError(`the run ended with ${stopped}`, { hint: 'run the same command again to send them' });
  }

  /** Rows the run did not get done, from its rows log, into the rejects file: a stopped run names them. */
  async #nameUndone(sink: ResultSink, sending: Sending, result: RunnerResult): Promise<void> {
    const journal = sending.journalFile;
    if (!journal) return;
    const { readRowsLog, rowsLogFile } = await import('./rows-log.js');
    const why = undoneReason(result);
    const rows = [];
    for await (const row of readRowsLog(rowsLogFile(journal))) {
      const pending = sending.settled.get(row.chunk);
      if (pending && !pending.has(row.number.toUpperCase())) continue;
      rows.push({ number: row.number, carrier: row.carrier, line: row.line });
    }
    sink.named(rows, 'not-done', () => `not sent: ${why}`);
  }

  #summarise(summary: RunSummary, sink: ResultSink, result: RunnerResult): void {
    const failedOutright = result.error !== undefined && summary.settled === 0;
    // A handful of arguments whose first request failed as a whole: the error line says it all.
    const lines =
      this.#source.kind !== 'arguments'
        ? summaryLines(summary, sink.rejectsFile)
        : failedOutright
          ? []
          : [compactSummary(summary)];
    for (const line of lines) this.#ctx.info(line);
    if (this.#ctx.global.quiet) {
      const line = setAsideLine(summary, sink.rejectsFile);
      if (line) this.#ctx.io.err(line);
    } else for (const line of sink.invalidLines) this.#ctx.io.err(`${line} (set aside)`);
  }

  /** A finished run's record, the file's confirmed requests, and the interrupted runs it replaced retired. */
  #remember(memory: Memory, standing: Standing, scan: ScanResult, summary: RunSummary, sending: Sending): void {
    const { runs, journals, sent, folders } = memory;
    const finished = new Date().toISOString();
    runs.recordFinished(folders, {
      key: journals.runKey(standing.identity),
      identity: standing.identity,
      finished,
      counts: {
        total: summary.total,
        sentBefore: scan.skipped,
        accepted: summary.accepted,
        already: summary.already,
        rejected: summary.rejected,
        invalid: summary.invalid,
      },
    });
    if (sending.confirmed) {
      sent.writeSent(sent.sentFile(folders.sent, standing.identity), sending.confirmed.sortedUnique(), finished);
    }
    for (const { journal } of standing.replaced) runs.retireJournal(journal);
  }
}

/** Why a row of a run that stopped was not sent, as its line of the rejects file says it. */
function undoneReason(result: RunnerResult): string {
  const err = result.error;
  if (err instanceof TrkError && err.message.includes(' changed since it was checked ')) {
    return 'the file changed while it was sent; run the same command again to send the file as it is now';
  }
  if (err instanceof Error) return `the run stopped (${err.message}); run the same command again to send it`;
  return 'the run was stopped; run the same command again to resume it';
}

function emptyLeft(): LeftBehind {
  return { confirmed: new DigestList(), notSent: new Map(), maybeSent: new Map(), known: false };
}

function countRows(map: ReadonlyMap<string, readonly unknown[]>): number {
  let n = 0;
  for (const rows of map.values()) n += rows.length;
  return n;
}

/** The digests of a settled chunk's rows the service confirmed (accepted, or already as asked). */
function collectConfirmed(
  into: DigestList,
  chunk: Chunk,
  outcome: { accepted: { number?: unknown }[]; already: { number?: unknown }[]; pending?: string[] },
): void {
  const done = new Set(
    [...outcome.accepted, ...outcome.already].map((i) =>
      String(i.number ?? '')
        .trim()
        .toUpperCase(),
    ),
  );
  const pending = new Set(outcome.pending ?? []);
  for (const row of chunk.rows) if (done.has(row.key) && !pending.has(row.key)) into.push(rowDigest(row.item));
}

/** The state folder, made if needed, or one line naming why it cannot be written (exit 1, nothing sent). */
function writableFolder(dir: string, ensure: (dir: string) => string): void {
  try {
    ensure(dir);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    throw new TrkError(`cannot write to trk's state folder ${dir}: ${fsReason(err)}`, {
      hint: 'make it a folder you can write to, or set TRK_STATE_DIR to one; nothing was sent',
    });
  }
}

/** --dry-run, --restart and --again are about files and pipes; with arguments they would do nothing. */
function refuseFileOnlyFlags(flags: ItemFlags): void {
  const given = [flags.restart && '--restart', flags.again && '--again'].filter(
    (f): f is string => typeof f === 'string',
  );
  if (given.length === 0) return;
  throw new UsageError(
    `${given.join(' and ')} ${given.length === 1 ? 'is' : 'are'} about runs of a file or a pipe, ` +
      'which are remembered; ' +
      'numbers given as arguments are not',
    'drop it, or put the numbers in a file (-f FILE) or pipe them in',
  );
}

function reportLayout(ctx: Context, source: ItemSource, op: ItemOperation, scan: ScanResult): void {
  const { layout } = scan;
  if (layout.note) ctx.info(layout.note);
  if (layout.ignored.length > 0) {
    ctx.info(`${source.display}: ignored ${listSome(layout.ignored)}: not used by trk ${commandName(op)}`);
  }
}

function reportProblems(ctx: Context, source: ItemSource, scan: ScanResult, flags: ItemFlags): void {
  const { problems } = scan;
  if (problems.count === 0) return;
  if (flags.skipInvalid) {
    ctx.info(
      `${source.display}: ${plural(problems.count, 'invalid row')} set aside (--skip-invalid); ` +
        `sending the other ${fmt(scan.items)}`,
    );
    return;
  }
  const lines = problems.lines(source.locate);
  if (problems.count === 1) {
    throw new UsageError(
      lines[0] ?? '',
      'fix it and run again, or pass --skip-invalid to send the rest; nothing was sent',
    );
  }
  // Every problem at once (the first 20), so an input is fixed in one go; the error line closes the list.
  for (const line of lines) ctx.io.err(line);
  throw new UsageError(
    `${fmt(problems.count)} problems in ${source.display}; nothing was sent`,
    'fix the lines above and run again, or pass --skip-invalid to send the rest',
  );
}

/**
 * What makes two runs of the same requests different runs: how answers are read (delete --ignore-missing) and a
 * list's filters. Whatever changes what is sent (flags, columns, carrier maps) is in the requests, and so in the
 * digest that names the run (src/items/digest.ts), with no list of flags to keep up to date.
 */
function runOptions(opts: ItemRunOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (opts.listFilter && Object.keys(opts.listFilter).length > 0) out.filter = opts.listFilter;
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

/** One line for a handful of arguments: `registered 2, already registered 1, rejected 1`. */
export function compactSummary(s: RunSummary): string {
  const parts = [`${doneWord(s.operation)} ${fmt(s.accepted)}`];
  if (s.already > 0) parts.push(`${alreadyWords(s.operation)} ${fmt(s.already)}`);
  if (s.tagApplied > 0) parts.push(`tag applied ${fmt(s.tagApplied)}`);
  if (s.notFound > 0) parts.push(`not registered ${fmt(s.notFound)}`);
  if (s.rejected > 0) parts.push(`rejected ${fmt(s.rejected)}`);
  if (s.invalid > 0) parts.push(`invalid ${fmt(s.invalid)}`);
  if (s.unsettled > 0) parts.push(`not done ${fmt(s.unsettled)}`);
  return parts.join(', ');
}

function alreadyWords(op: ItemOperation): string {
  return operationSpec(op).already?.words ?? 'already done';
}
