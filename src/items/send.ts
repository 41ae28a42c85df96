// The sending half of an item run (the checking half is src/items/run.ts): the journal opened or resumed, the
// quota checked against what is left, the rows log written for a new run, the rejects file started (what an
// interrupted run of the file left behind named in it first), the chunks sent by the runner, and then the rows
// left undone named, the summary, and what a finished run leaves for the next: its record, the file's confirmed
// requests, and the interrupted runs it replaced retired.

import path from 'node:path';
import type { ApiClient } from '../api/client.js';
import { commandName, doneWord, itemOperationSpec } from '@trk/service/operations/index.js';
import { callDeadlineMs } from '../api/retry.js';
import { requestTimeoutMs } from '../config/timeout.js';
import type { Pacer } from '../pacing/pacer.js';
import type { Context } from '../context/context.js';
import { InterruptedError, stopExitCode, TrkError } from '../core/errors.js';
import { fmt } from '../core/text.js';
import type { Chunk } from './chunker.js';
import { type DigestList, rowDigest } from './digest.js';
import { isReadOnly, type ItemOperation } from './fields.js';
import type { Journal } from './journal.js';
import { quotaForPlan, quotaShort, refuseShortQuota, sentBeforeText, sumOver, when, type ItemPlan } from './plan.js';
import { exitCodeOf, leftBehindText, ResultSink, setAsideLine, summaryLines, type RunSummary } from './results.js';
import { countRows, RunBase, type RunFields } from './run-base.js';
import type { Standing } from './run-memory.js';
import type { ItemReport, ItemRunOptions } from './run-options.js';
import { runChunks, type RunnerResult } from './runner.js';
import type { InputLayout } from './read.js';
import type { LeftBehind } from './runs.js';
import type { ScanResult } from './scan.js';
import { ownFolder } from '../core/private-files.js';
import { say, tell } from './notices.js';
import { clock } from '../core/clock.js';

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

export class RunSender extends RunBase {
  constructor(f: RunFields) {
    super(f);
  }

  async send(plan: ItemPlan, scan: ScanResult, standing: Standing | undefined): Promise<ItemReport> {
    const runtime = await itemRuntime(this.ctx, this.opts);
    let journal = standing ? this.memory?.openJournal(this.ctx, standing, this.flags) : undefined;
    try {
      const doneNow = new Set<number>();
      if (journal) for (let c = 0; c < scan.chunkItems.length; c++) if (journal.isDone(c)) doneNow.add(c);
      this.#sayWhereFrom(journal, scan, doneNow, plan);
      await this.#checkQuota(scan, doneNow, runtime.client);
      if (journal && !journal.resumed) await this.#logRows(journal, scan);
      this.source.assertUnchanged();
      const sending = await this.#startSink(scan, standing);
      sending.journalFile = journal?.file;
      const result = await this.#runChunks(scan, runtime, journal, sending);
      const summary = await this.#finishOutput(scan, result, sending);
      if (journal && standing && this.memory) {
        this.memory.remember(this.ctx, standing, scan, summary, sending.confirmed);
        journal.complete();
        journal = undefined;
      }
      return { plan, summary, results: sending.sink.results, exitCode: exitCodeOf(summary), source: this.source.kind };
    } finally {
      // Kept for a resume when anything was sent; a journal this run created and never used goes.
      if (journal?.isFresh) journal.complete();
      else journal?.close();
    }
  }

  /** Resuming, leaving out what was sent before, replacing an interrupted run: said before anything is sent. */
  #sayWhereFrom(journal: Journal | undefined, scan: ScanResult, doneNow: ReadonlySet<number>, plan: ItemPlan): void {
    if (journal?.resumed && doneNow.size > 0) {
      const left = scan.items - sumOver(scan.chunkItems, doneNow);
      say(this.ctx, `resuming an interrupted run: ${fmt(scan.items - left)} done, ${fmt(left)} to go`);
    }
    if (plan.sentBefore) say(this.ctx, `${this.source.display}: ${sentBeforeText(plan.sentBefore, scan.items)}`);
    if (plan.replaces) {
      say(
        this.ctx,
        `${this.source.display} changed since an interrupted run of it (${when(plan.replaces.when)}): ` +
          'starting a new run of the file as it is now',
      );
    }
  }

  /**
   * The quota and today's cap must cover what is left. Before refusing, the numbers registered already are
   * looked up (they cost nothing); if that cannot be done, the run warns and sends.
   */
  async #checkQuota(scan: ScanResult, doneNow: ReadonlySet<number>, client: ApiClient): Promise<void> {
    if (!this.quota) return;
    const needed = scan.units - sumOver(scan.chunkUnits, doneNow);
    const q = await quotaForPlan(this.quota);
    if (!q || !quotaShort(needed, q)) return;
    const paid = this.op === 'register' ? await this.alreadyPaid(scan, doneNow, client) : undefined;
    if (this.op === 'register' && !paid) return;
    refuseShortQuota(
      needed - (paid?.units ?? 0),
      q,
      this.source.display,
      paid && { items: paid.items, units: paid.units },
    );
  }

  /** The rows of a new run, beside its journal, for the day its file is rewritten before it is finished. */
  async #logRows(journal: Journal, scan: ScanResult): Promise<void> {
    const { rowsLogFile, writeRowsLog } = await import('./rows-log.js');
    await writeRowsLog(rowsLogFile(journal.file), this.reread(scan));
  }

  /** The results: counts, output, and the rejects file (--rejects, or trk's own when nothing else shows them). */
  async #startSink(scan: ScanResult, standing: Standing | undefined): Promise<Sending> {
    const leftBehind = standing && !this.flags.restart ? standing.replaced.map((r) => r.left) : [];
    const named = leftBehind.reduce((n, left) => n + countRows(left.notSent) + countRows(left.maybeSent), 0);
    // trk's own rejects file where nothing else shows what was set aside: a write of a file or a pipe without an
    // output format (reads and arguments print their results), or rows of an interrupted run that no output holds.
    const printed = isReadOnly(this.op) || this.ctx.global.output !== undefined;
    const own = this.flags.rejects === undefined && this.source.kind !== 'arguments' && (!printed || named > 0);
    const sink = new ResultSink({
      operation: this.op,
      layout: scan.layout,
      total: scan.items,
      collect: this.opts.collect ?? true,
      rejectsFile: this.flags.rejects ?? (own ? await this.#ownRejectsFile(scan.layout) : undefined),
      rejectsOnDemand: this.flags.rejects === undefined,
      rawCsv: this.ctx.io.rawCsv,
      locate: this.source.locate,
      onItems: this.opts.onItems,
      warn: this.ctx.warn,
    });
    await sink.open();
    const then = standing?.replaced[0]?.journal.modified ?? Date.now();
    for (const left of leftBehind) this.#nameLeftBehind(sink, left, then);
    if (named > 0) {
      say(this.ctx, `${leftBehindText(named)}: they are named in ${sink.rejectsFile ?? 'the rejects file'}`);
    }
    // What the file's runs confirmed: the rows left out as sent before, and those this run gets done.
    const confirmed = this.source.kind === 'file' && this.memory ? scan.skippedDigests : undefined;
    return { sink, confirmed, settled: new Map() };
  }

  /**
   * `<state>/rejects/2026-11-25T02-00-00-register-orders.csv` (`.tsv` when it is tab-separated, as its input:
   * a spreadsheet opens a `.csv` by its own delimiter); rejects files older than 30 days go.
   */
  async #ownRejectsFile(layout: InputLayout): Promise<string> {
    const { pruneFiles } = await import('./leftovers.js');
    const dir = ownFolder(path.join(this.state, 'rejects'), 'rejects folder', this.ctx.warn);
    const cutoff = Date.now() - 30 * 24 * 3600 * 1000;
    pruneFiles(dir, (name, st) => /\.[ct]sv$/.test(name) && st.mtimeMs < cutoff);
    const extension = layout.dialect?.delimiter === '\t' ? 'tsv' : 'csv';
    const stamp = new Date(this.started).toISOString().slice(0, 19).replace(/:/g, '-');
    const input =
      this.source.kind === 'file' ? path.basename(this.source.display).replace(/\.[^.]*$/, '') : this.source.kind;
    return path.join(dir, `${stamp}-${commandName(this.op)}-${input.replace(/[^\w.-]+/g, '_')}.${extension}`);
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
    const progress = this.progressFor(commandName(this.op));
    progress.phase('waiting for the first answer');
    // A bar shows the client's waits in place; status lines between its redraws would only repeat them.
    if (progress.inPlace) this.ctx.showWaits?.((words, ms) => progress.waiting(words, clock().now() + ms));
    let first = true;
    try {
      return await runChunks({
        operation: this.op,
        version: this.version,
        client: runtime.client,
        pacer: runtime.pacer,
        journal,
        chunks: this.reread(scan, (row, message) => sink.invalid(row, message)),
        concurrency: this.opts.concurrency,
        listFilter: this.opts.listFilter,
        alsoAlready: this.opts.alsoAlready,
        // A chunk failing for as long as a one-shot call may take (--timeout, three times over) is given up.
        maxChunkMs: callDeadlineMs(requestTimeoutMs(this.ctx.global.timeout, this.ctx.env)),
        stop: this.ctx.signal,
        verifyDelayMs: this.opts.verifyDelayMs,
        retryBaseMs: this.opts.retryBaseMs,
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
          progress.waiting(why, clock().now() + ms);
          this.ctx.debug(`${why}: every start paused for ${Math.round(ms)} ms`);
        },
        onDebug: (line) => this.ctx.debug(line),
      });
    } finally {
      progress.stop();
      this.ctx.showWaits?.(undefined);
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
    // A rejects file that could not be written fails the run once the summary says what was done.
    let rejectsFailure: unknown;
    try {
      // What waits for a chunk that never came goes out before the rows left undone are named.
      sink.flush();
      if (unsettled + pending > 0) await this.#nameUndone(sink, sending, result);
    } finally {
      rejectsFailure = await sink.close().then(
        () => undefined,
        (err: unknown) => err,
      );
    }
    const summary = sink.summary(clock().now() - this.started);
    const failed = result.error !== undefined || summary.unsettled > 0;
    if (!failed) await this.opts.beforeSummary?.();
    // A rejects file that could not be written is not named as written.
    this.#summarise(summary, rejectsFailure === undefined ? sink.rejectsFile : undefined, scan, sink, result);
    // Not recorded as finished: the same command again writes the rejects file from the journal, sending nothing.
    if (!failed && rejectsFailure !== undefined) throw rejectsFailure;
    if (!failed) return summary;
    if (this.memory) {
      say(
        this.ctx,
        result.error instanceof TrkError && /changed since it was checked/.test(result.error.message)
          ? 'progress is saved'
          : 'progress is saved: run the same command again to resume',
      );
    }
    if (result.error !== undefined) throw result.error;
    const stopped = `${fmt(summary.unsettled)} of ${fmt(summary.total)} not done`;
    if (result.interrupted) throw new InterruptedError(`interrupted: ${stopped}`, stopExitCode(this.ctx.signal));
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

  #summarise(
    summary: RunSummary,
    rejectsFile: string | undefined,
    scan: ScanResult,
    sink: ResultSink,
    result: RunnerResult,
  ): void {
    const failedOutright = result.error !== undefined && summary.settled === 0;
    // A handful of arguments whose first request failed as a whole: the error line says it all.
    const lines =
      this.source.kind !== 'arguments'
        ? summaryLines(summary, rejectsFile)
        : failedOutright
          ? []
          : [compactSummary(summary)];
    for (const line of [...lines, ...scan.notes]) say(this.ctx, line);
    if (this.ctx.global.quiet) {
      const line = setAsideLine(summary, rejectsFile);
      if (line) tell(this.ctx.io, line);
    } else for (const line of sink.invalidLines) tell(this.ctx.io, `${line} (set aside)`);
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
  return itemOperationSpec(op).already?.words ?? 'already done';
}
