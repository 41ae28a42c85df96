// What a run of a file or a pipe knows of the runs before it, and what it leaves for the next (`trk stop N` with
// arguments has none of it, and loads none of its modules): the record of requests the file's runs confirmed,
// where a checked input stands against earlier runs (finished, this very run interrupted, interrupted runs of the
// file with other requests, damaged records), the journal opened or resumed, and a finished run's record.

import type { Context } from '../context/context.js';
import { TrkError } from '../core/errors.js';
import { DigestList } from './digest.js';
import type { Journal, JournalSummary, RunIdentity } from './journal.js';
import { when } from './plan.js';
import { clock } from '../core/clock.js';
import { say } from './notices.js';
import type { RunSummary } from './results.js';
import type { ItemFlags } from './run-options.js';
import type { FinishedRun, LeftBehind, RunFolders } from './runs.js';
import type { ScanResult } from './scan.js';
import type { SentRecord } from './sent.js';
import type { ItemSource } from './source.js';

/** Where a checked input stands against the runs before it. */
export interface Standing {
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

export class RunMemory {
  readonly runs: typeof import('./runs.js');
  readonly journals: typeof import('./journal.js');
  readonly sent: typeof import('./sent.js');
  readonly folders: RunFolders;
  /** Requests earlier runs of this file confirmed (a file, without --again). */
  readonly record: SentRecord;

  private constructor(modules: Pick<RunMemory, 'runs' | 'journals' | 'sent'>, folders: RunFolders, record: SentRecord) {
    this.runs = modules.runs;
    this.journals = modules.journals;
    this.sent = modules.sent;
    this.folders = folders;
    this.record = record;
  }

  /** The runs' folders of the state folder, and for a file (without --again) the record of what it confirmed. */
  static async recall(state: string, source: ItemSource, flags: ItemFlags, identity: RunIdentity): Promise<RunMemory> {
    const [runs, journals, sent] = await Promise.all([
      import('./runs.js'),
      import('./journal.js'),
      import('./sent.js'),
    ]);
    const folders = runs.runFolders(state);
    const record: SentRecord =
      source.kind === 'file' && !flags.again ? sent.readSent(sent.sentFile(folders.sent, identity)) : { state: 'none' };
    return new RunMemory({ runs, journals, sent }, folders, record);
  }

  /** The runs before this one of the same input: finished, interrupted (this very run, or others), damaged. */
  async stand(ctx: Context, identity: RunIdentity, flags: ItemFlags, source: ItemSource): Promise<Standing> {
    const { runs, folders, record } = this;
    const found = runs.findInterrupted(folders, identity);
    const running = found.others.find((j) => j.running);
    if (running) {
      const command = running.identity?.command ?? identity.command;
      throw new TrkError(
        `another trk process is running trk ${command} on ${source.display} (since ${when(running.modified)})`,
        {
          hint: 'run again once it has finished; nothing was sent',
        },
      );
    }
    const replaced = flags.restart
      ? found.others.map((journal) => ({ journal, left: emptyLeft() }))
      : await Promise.all(found.others.map(async (journal) => ({ journal, left: await runs.leftBehind(journal) })));
    // Named by what it leaves out: the record of sent rows, and the interrupted runs whose confirmed rows join it.
    const joining = flags.restart ? [] : replaced.map((r) => r.journal.key).sort();
    let sentId =
      record.state === 'sound' || joining.length > 0
        ? [record.state === 'sound' ? record.rows.id : 'none', ...joining].join('+')
        : null;
    // A resume must read its input as the interrupted run did: leaving nothing out (it was sent --again) can be
    // done again; leaving out another record's rows cannot, and that journal is started over, looking up first.
    const madeWith = found.same === undefined || flags.restart ? sentId : (found.same.sentId ?? null);
    const leaveNothingOut = madeWith !== sentId && madeWith === null && joining.length === 0;
    const sameUnusable = madeWith !== sentId && !leaveNothingOut;
    if (leaveNothingOut) sentId = null;
    const damaged = record.state === 'damaged' || runs.finishedRecordDamaged(folders, identity);
    if (damaged) {
      say(
        ctx,
        `the record of an earlier run of ${source.display} is damaged: ` +
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

  /** The journal of this run, opened or resumed (`--restart`: started over, the old runs' journals retired). */
  openJournal(ctx: Context, standing: Standing, flags: ItemFlags): Journal {
    const restart = flags.restart === true || standing.sameUnusable;
    const journal = this.journals.Journal.open({
      dir: this.folders.journals,
      identity: standing.identity,
      restart,
      sentId: standing.sentId ?? undefined,
      // A resumed journal keeps what its head says; a new one looks up what a damaged record may have sent.
      unknownPast: standing.unknownPast,
      warn: ctx.warn,
    });
    // --restart after other requests: the old runs' journals go too, without a word about them.
    if (flags.restart) for (const { journal: old } of standing.replaced) this.runs.retireJournal(old);
    if (journal.damagedAt !== undefined) {
      say(
        ctx,
        `the saved progress of this run is damaged (line ${journal.damagedAt}): ` +
          'what it does not show is looked up before anything is sent again',
      );
    }
    return journal;
  }

  /** A finished run's record, the file's confirmed requests, and the interrupted runs it replaced retired. */
  remember(
    ctx: Context,
    standing: Standing,
    scan: ScanResult,
    summary: RunSummary,
    confirmed: DigestList | undefined,
  ): void {
    const { runs, journals, sent, folders } = this;
    const finished = new Date(clock().now()).toISOString();
    const counts = {
      total: summary.total,
      sentBefore: scan.skipped,
      accepted: summary.accepted,
      already: summary.already,
      rejected: summary.rejected,
      invalid: summary.invalid,
    };
    const key = journals.runKey(standing.identity);
    runs.recordFinished(folders, { key, identity: standing.identity, finished, counts }, ctx.warn);
    if (confirmed) {
      const file = sent.sentFile(folders.sent, standing.identity);
      sent.writeSent(file, confirmed.sortedUnique(), finished, ctx.warn);
    }
    for (const { journal } of standing.replaced) runs.retireJournal(journal);
  }
}

/** What an interrupted run left behind, not looked at (--restart). */
function emptyLeft(): LeftBehind {
  return { confirmed: new DigestList(), notSent: new Map(), maybeSent: new Map(), known: false };
}
