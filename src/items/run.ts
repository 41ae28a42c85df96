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
import { commandName } from '@trk/service/operations/index.js';
import type { ItemResults } from '@trk/service/types.js';
import type { Settings } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { InterruptedError, stopExitCode, TrkError, UsageError } from '../core/errors.js';
import { EXIT, type ExitCode } from '../core/exit-codes.js';
import { fmt, plural } from '../core/text.js';
import { checkDefaults } from './check.js';
import type { Chunk } from './chunker.js';
import { sortedHas } from './digest.js';
import { isCharging, isReadOnly, parseColumnMapping, type ColumnMapping, type ItemOperation } from './fields.js';
import type { RunIdentity } from './journal.js';
import {
  finishedLine,
  makePlan,
  planLines,
  quotaForPlan,
  readQuota,
  refuseShortQuota,
  sentBeforeText,
  when,
  type ItemPlan,
} from './plan.js';
import { listSome } from './header-layout.js';
import { countRows, RunBase } from './run-base.js';
import { RunMemory, type Standing } from './run-memory.js';
import type { ItemFlags, ItemReport, ItemRunOptions } from './run-options.js';
import { say, tell } from './notices.js';
import { parseDelimiter, type Delimiter } from './read-text.js';
import { scanInput, type ScanOptions, type ScanResult } from './scan.js';
import { RunSender } from './send.js';
import { fsReason, openSource, type ItemSource } from './source.js';
import { nodeFs } from '../core/node.js';
import { stateDir } from '../config/paths.js';
import { ensureFolder } from '../core/private-files.js';
import { refuseOwnFile } from '../config/own-files.js';
import { clock } from '../core/clock.js';

export type { ItemPlan } from './plan.js';
export type { ItemFlags, ItemReport, ItemRunOptions } from './run-options.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { accessSync, constants } = nodeFs();

const EMPTY: ItemResults = { accepted: [], rejected: [] };

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

class ItemRun extends RunBase {
  private constructor(
    ctx: Context,
    opts: ItemRunOptions,
    settings: Settings,
    reading: Pick<ScanOptions, 'mapping' | 'delimiter' | 'tempDir'>,
    state: string,
    source: ItemSource,
  ) {
    const version = opts.client?.version ?? settings.apiVersion;
    super({
      ctx,
      opts,
      op: opts.operation,
      flags: opts.flags,
      settings,
      version,
      state,
      source,
      // Durations and dates of runs on the real clock: ctx.now() is the service's, simulated under --sandbox.
      started: clock().now(),
      scanOpts: {
        operation: opts.operation,
        version,
        defaults: opts.defaults,
        resolveCarrier: opts.resolveCarrier,
        ...reading,
        skipInvalid: opts.flags.skipInvalid,
      },
      renderer: undefined,
      quota: undefined,
      memory: undefined,
    });
  }

  /** Settings, flags and the input, checked as far as they can be before the input is read. */
  static async open(ctx: Context, opts: ItemRunOptions): Promise<ItemRun> {
    const settings = await ctx.settings();
    const flags = opts.flags;
    let mapping: ColumnMapping | undefined;
    let delimiter: Delimiter | undefined;
    try {
      const named = [...(flags.columns ?? []), ...(flags.ignoreColumns ?? [])];
      mapping = named.length > 0 ? parseColumnMapping(flags.columns ?? [], flags.ignoreColumns) : undefined;
      delimiter = flags.delimiter === undefined ? undefined : parseDelimiter(flags.delimiter);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const version = opts.client?.version ?? settings.apiVersion;
    if (opts.defaults) {
      checkDefaults(opts.defaults, { operation: opts.operation, version, resolveCarrier: opts.resolveCarrier });
    }
    const state = stateDir(ctx.env);
    // A file or a pipe needs the state folder (a pipe's copy, a write's journal): one clear line before anything.
    if (flags.numbers.length === 0) writableFolder(state, ensureFolder);
    const spool = path.join(state, 'spool');
    const source = await openSource(flags, ctx.io, spool);
    return new ItemRun(ctx, opts, settings, { mapping, delimiter, tempDir: spool }, state, source);
  }

  async close(): Promise<void> {
    await this.source.cleanup();
  }

  async run(): Promise<ItemReport> {
    const source = this.source;
    if (source.kind === 'arguments') refuseFileOnlyFlags(this.flags);
    if (this.flags.rejects !== undefined && source.isSameFile(this.flags.rejects)) {
      throw new UsageError(
        `--rejects ${this.flags.rejects} is the input file`,
        'write the rejects to another file; nothing was sent',
      );
    }
    if (this.flags.rejects !== undefined) {
      refuseOwnFile(this.flags.rejects, this.ctx.env, '--rejects');
    }
    // Arguments show no progress, and `trk stop N` does not load its renderer.
    const quiet = this.opts.progress === 'none' || (this.opts.progress === undefined && source.kind === 'arguments');
    this.renderer = quiet ? undefined : await import('./progress.js');
    // Journals and the records of runs are for files and pipes: arguments are neither resumed nor remembered.
    if (!isReadOnly(this.op) && source.kind !== 'arguments') this.memory = await this.#recall();
    let scan = await this.#check();
    let standing: Standing | undefined;
    if (this.memory) {
      standing = await this.memory.stand(this.ctx, this.#identity(scan.digest), this.flags, this.source);
      if (standing.replaced.length > 0 && !this.flags.restart) scan = await this.#giveWay(standing);
      else if (standing.leaveNothingOut) scan = await this.#checkWithoutSkip();
    }
    const plan = this.#plan(scan, standing);
    if (this.flags.dryRun) return this.#dryRun(plan, scan, standing);
    const nothing = this.#nothingToSend(plan, scan, standing);
    if (nothing) return nothing;
    await this.opts.confirm?.(plan);
    if (this.ctx.signal.aborted) {
      throw new InterruptedError('interrupted before sending; nothing was sent', stopExitCode(this.ctx.signal));
    }
    return new RunSender(this.fields()).send(plan, scan, standing);
  }

  // ---- before sending ----

  async #recall(): Promise<RunMemory> {
    const memory = await RunMemory.recall(this.state, this.source, this.flags, this.#identity(''));
    const record = memory.record;
    if (record.state === 'sound') this.scanOpts = { ...this.scanOpts, skip: (digest) => record.rows.has(digest) };
    return memory;
  }

  /** The checking pass: its problems refuse the input (or are set aside); meanwhile, the quota is asked for. */
  async #check(): Promise<ScanResult> {
    // A long input is still being checked when the quota is asked for (it costs nothing), so that the answer is
    // there when the check ends; a short one, or one with a problem so far, sends nothing before it is checked.
    const scanStarted = clock().monotonic();
    const overlapQuota = this.#asksQuota()
      ? (items: number, problems: number) => {
          if (problems === 0 && items % 1000 === 0 && clock().monotonic() - scanStarted > QUOTA_OVERLAP_AFTER_MS) {
            this.#askQuota();
          }
        }
      : undefined;
    const checking = this.progressFor(commandName(this.op));
    checking.phase(`checking ${this.source.display}`);
    let scan: ScanResult;
    try {
      scan = await scanInput(this.source, { ...this.scanOpts, onRow: overlapQuota });
    } finally {
      checking.stop();
    }
    reportLayout(this.ctx, this.source, this.op, scan);
    reportProblems(this.ctx, this.source, scan, this.flags);
    if (this.ctx.signal.aborted) {
      throw new InterruptedError(
        'interrupted while reading the input; nothing was sent',
        stopExitCode(this.ctx.signal),
      );
    }
    return scan;
  }

  #asksQuota(): boolean {
    return isCharging(this.op) && this.version !== 'v1';
  }

  #askQuota(): void {
    if (this.#asksQuota()) this.quota ??= readQuota(this.ctx, this.opts.client);
  }

  #identity(digest: string): RunIdentity {
    const s = this.settings;
    const source = this.source;
    return {
      op: this.op,
      command: commandName(this.op),
      account: { profile: s.profile, baseUrl: s.sandbox ? 'sandbox' : s.baseUrl, version: this.version },
      input: { kind: source.kind, display: source.display, name: source.name, digest },
      options: runOptions(this.opts),
    };
  }

  /** The input checked again leaving nothing out, as the interrupted run of it did. */
  async #checkWithoutSkip(): Promise<ScanResult> {
    const { skip: _skip, ...opts } = this.scanOpts;
    this.scanOpts = opts;
    return scanInput(this.source, opts);
  }

  /**
   * Interrupted runs of the file with other requests give way to this one: on a terminal the user is asked
   * first (never elsewhere); the input is checked again leaving out what they confirmed, and learning which of
   * the numbers they never sent it still holds.
   */
  async #giveWay(standing: Standing): Promise<ScanResult> {
    const first = standing.replaced[0]!.journal;
    if (!this.flags.dryRun && !standing.same && this.ctx.io.canPrompt() && !this.ctx.global.yes) {
      const question =
        `${this.source.display} changed since an interrupted run of it ` +
        `(${when(first.modified)}, ${plural(first.doneItems, 'number')} done). ` +
        'Start a new run of the file as it is now?';
      if (!(await this.ctx.prompter.confirm(question, true))) {
        throw new TrkError('nothing was sent: the interrupted run is kept', {
          hint: 'run the same command again to choose again, or see "trk runs"',
        });
      }
    }
    for (const { journal, left } of standing.replaced) {
      if (left.known) continue;
      // A journal without a rows log (an older trk's): its rows cannot be told; the new file's are all sent.
      say(
        this.ctx,
        `the interrupted run of ${when(journal.modified)} did not keep its rows: what it never sent is not known`,
      );
    }
    const confirmed = standing.replaced.map(({ left }) => left.confirmed.sortedUnique());
    const record = this.memory?.record;
    const sent = record?.state === 'sound' ? record.rows : undefined;
    const skip = (digest: bigint) => (sent?.has(digest) ?? false) || confirmed.some((c) => sortedHas(c, digest));
    const onValid = (row: Chunk['rows'][number]) => {
      for (const { left } of standing.replaced) {
        left.notSent.delete(row.key);
        left.maybeSent.delete(row.key);
      }
    };
    this.scanOpts = { ...this.scanOpts, skip };
    const checking = this.progressFor(commandName(this.op));
    checking.phase(`checking ${this.source.display} against the interrupted run`);
    try {
      return await scanInput(this.source, { ...this.scanOpts, onValid });
    } finally {
      checking.stop();
    }
  }

  #plan(scan: ScanResult, standing: Standing | undefined): ItemPlan {
    const doneBefore = standing?.same && !this.flags.restart ? standing.same.doneChunks : undefined;
    const plan = makePlan(this.op, this.version, this.source.display, scan, doneBefore);
    // An interrupted run of this very input (say, one sent --again) is resumed rather than called finished.
    const finished = standing?.finished;
    // An interrupted run of the file still to give way to (and name what it left) is not skipped.
    if (finished && !this.flags.again && !standing?.same && (standing?.replaced.length ?? 0) === 0) {
      plan.finishedBefore = { finished: finished.finished, counts: finished.counts };
    }
    const record = this.memory?.record;
    if (scan.skipped > 0 && record?.state === 'sound') {
      plan.sentBefore = { rows: scan.skipped, when: record.rows.updated };
    }
    const replaced = standing?.replaced[0];
    if (replaced && !this.flags.restart) {
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
    const q = this.quota ? await quotaForPlan(this.quota) : undefined;
    if (q) plan.quota = q;
    if (q && this.op === 'register' && !plan.finishedBefore && scan.items > 0) {
      const client = this.opts.client ?? (await this.ctx.api());
      const paid = await this.alreadyPaid(
        scan,
        plan.done.requests > 0 ? (standing?.same?.doneChunks ?? new Set()) : new Set(),
        client,
      );
      if (paid) plan.registered = { items: paid.items, units: paid.units };
    }
    for (const line of [...planLines(plan), ...scan.notes]) tell(this.ctx.io, line);
    // A real run that cannot look up what is registered warns and sends: no refusal to predict then.
    const lookedUp = plan.registered !== undefined || this.op !== 'register';
    if (!plan.finishedBefore && q && lookedUp) {
      refuseShortQuota(
        plan.units - plan.done.units - (plan.registered?.units ?? 0),
        q,
        this.source.display,
        plan.registered,
      );
    }
    if (this.ctx.global.output === 'json') this.ctx.io.out(`${JSON.stringify(plan, null, 2)}\n`);
    return { plan, results: EMPTY, exitCode: EXIT.ok, source: this.source.kind };
  }

  /** The report of a run with nothing to send (sent before, or no numbers), after saying so. */
  #nothingToSend(plan: ItemPlan, scan: ScanResult, standing: Standing | undefined): ItemReport | undefined {
    const report = (exitCode: ExitCode): ItemReport => ({ plan, results: EMPTY, exitCode, source: this.source.kind });
    if (plan.finishedBefore) {
      say(this.ctx, finishedLine(this.source.display, this.op, plan.finishedBefore));
      return report(EXIT.ok);
    }
    if (scan.items > 0 || (standing?.replaced.length ?? 0) > 0) return undefined;
    if (plan.sentBefore) {
      say(
        this.ctx,
        `${this.source.display}: ${sentBeforeText(plan.sentBefore, 0)}: ` +
          'nothing was sent: pass --again to send them again',
      );
      return report(EXIT.ok);
    }
    if (scan.problems.count === 0) say(this.ctx, `no tracking numbers in ${this.source.display}: nothing to do`);
    return report(scan.problems.count > 0 ? EXIT.failure : EXIT.ok);
  }
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
  if (layout.detail) ctx.debug(layout.detail);
  if (layout.note) say(ctx, layout.note);
  if (layout.ignored.length > 0) {
    say(ctx, `${source.display}: ignored ${listSome(layout.ignored)}: not used by trk ${commandName(op)}`);
  }
  for (const c of layout.passedOver ?? [])
    say(
      ctx,
      `${source.display}: ${c.column} not read: ${c.read} gives ${c.field} (or --column '${c.column}=${c.field}')`,
    );
  for (const since of new Set(layout.laterVersion.map((c) => c.since))) {
    const columns = layout.laterVersion.filter((c) => c.since === since).map((c) => `${c.column} (${c.field})`);
    say(
      ctx,
      `${source.display}: ${listSome(columns)} not sent: API ${since} takes ${columns.length === 1 ? 'it' : 'them'} ` +
        `(--api-version ${since}, or trk config set api-version ${since})`,
    );
  }
}

function reportProblems(ctx: Context, source: ItemSource, scan: ScanResult, flags: ItemFlags): void {
  const { problems } = scan;
  if (problems.count === 0) return;
  if (flags.skipInvalid) {
    say(
      ctx,
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
  for (const line of lines) tell(ctx.io, line);
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
