// The forward sink (--forward-to URL): each notification is kept in the forward queue before the answer, sent on
// to the app once the sender has its answer, and sent again with backoff while the app fails; what the app never
// took stays on disk for `trk webhook replay`, and the summary counts it. Bounds and decisions: limits.ts.

import type { IO } from '../../../io/io.js';
import { fmt, plural } from '../../../core/text.js';
import { forwarded, Forwarder, type ForwardResult } from '../../forward.js';
import { readSaved, type SavedNotification } from '../../saved.js';
import { clean, eventLabel, forwardLine, type ForwardReport } from '../lines.js';
import { RetrySchedule, type Retry } from '../retry.js';
import { Spool, type SpoolEntry } from '../spool.js';
import type { QueueLimits, ReceivedEvent } from '../types.js';
import { requestHead, savedName } from './save.js';
import { settleWithin, type Sink } from './sink.js';

export interface ForwardOptions {
  target: string;
  timeoutMs: number;
  queueRoot: string;
  queue: QueueLimits;
  writeDeadlineMs: number;
  now: () => number;
}

/** A notification waiting in the queue to be forwarded again. */
interface Waiting extends Retry {
  entry: SpoolEntry;
  label: string;
}

/** Where the notification is kept: its entry, `full` at the queue's bound, or the disk's refusal. */
type Kept = SpoolEntry | 'full' | Error;

const MIB = 1024 * 1024;

/** `30 ms`, `4 s`, `5 min`: when the next attempt comes. */
function inTime(ms: number): string {
  return ms < 1000
    ? `${Math.round(ms)} ms`
    : ms < 60_000
      ? `${Math.round(ms / 1000)} s`
      : `${Math.round(ms / 60_000)} min`;
}

export class ForwardSink implements Sink {
  private readonly forwarder: Forwarder;
  private readonly spool: Spool;
  private readonly retries: RetrySchedule<Waiting>;
  private readonly kept = new WeakMap<ReceivedEvent, Promise<Kept>>();
  private readonly counts = { forwarded: 0, afterRetries: 0, lostFull: 0, lostUnkept: 0 };
  private stopping = false;

  constructor(
    private readonly io: IO,
    private readonly opts: ForwardOptions,
  ) {
    this.forwarder = new Forwarder(opts.target, opts.timeoutMs);
    this.spool = new Spool(opts.queueRoot, opts.queue, (line) => io.err(clean(line)));
    this.retries = new RetrySchedule(
      opts.queue,
      (w) => this.retry(w),
      (w) => this.giveUp(w),
    );
  }

  /** Kept on disk before the answer, as long as the disk answers within the deadline. */
  async write(ev: ReceivedEvent): Promise<void> {
    const kept = this.spool.put(savedName(ev), ev.raw, requestHead(ev)).catch((e: unknown) => e as Error);
    this.kept.set(ev, kept);
    await settleWithin(kept, this.opts.writeDeadlineMs);
  }

  /** The first attempt, once the sender has its answer. */
  async afterAnswer(ev: ReceivedEvent): Promise<void> {
    const kept = (await this.kept.get(ev)) ?? new Error('not written');
    const number = clean(ev.summary.number ?? 'the notification');
    if (kept === 'full')
      this.io.err(`the forward queue is full (${this.bound()}): ${number} is forwarded once, not kept`);
    else if (kept instanceof Error)
      this.io.err(`could not keep ${number} in the forward queue: ${kept.message}; it is forwarded once`);
    const started = this.opts.now();
    ev.forward = await this.forwarder.send(ev.raw, ev.request.rawHeaders);
    const label = eventLabel(ev);
    if (forwarded(ev.forward)) {
      this.tookIt(label, ev.forward, started, 1);
      if (!(kept === 'full' || kept instanceof Error)) await this.spool.remove(kept);
      return;
    }
    if (kept === 'full' || kept instanceof Error) return this.lost(label, ev.forward, started, kept);
    this.failed(label, ev.forward, started, 1);
    this.retries.add({ entry: kept, label, attempts: 1 });
  }

  stop(): void {
    this.stopping = true;
    this.retries.stop();
    this.forwarder.stop();
  }

  async close(): Promise<void> {
    await this.retries.settled();
    await this.forwarder.close();
    await this.spool.close();
  }

  summary(): { counts: string; notes: string[] } {
    const { forwarded: ok, afterRetries, lostFull, lostUnkept } = this.counts;
    const kept = this.spool.size;
    const retried = afterRetries > 0 ? ` (${fmt(afterRetries)} after retries)` : '';
    const notes: string[] = [];
    const dir = this.spool.dir;
    if (kept > 0 && dir !== undefined) {
      const what = `${plural(kept, 'notification')} not forwarded ${kept === 1 ? 'is' : 'are'} kept in ${dir}`;
      notes.push(`${what}: trk webhook replay ${dir} --forward-to ${this.opts.target}`);
    }
    const again = 'trk push NUMBER has the service send it again';
    const lost = (n: number, why: string) =>
      `${plural(n, 'notification')} not forwarded ${n === 1 ? 'was' : 'were'} lost to the app: ${why}; ${again}`;
    if (lostFull > 0) notes.push(lost(lostFull, `the forward queue was full (${this.bound()})`));
    if (lostUnkept > 0) notes.push(lost(lostUnkept, 'the forward queue could not be written'));
    return { counts: `${fmt(ok)} forwarded${retried}, ${fmt(kept + lostFull + lostUnkept)} failed`, notes };
  }

  /** Another attempt from the queue: true when the app took it, or the notification is gone from the queue. */
  private async retry(w: Waiting): Promise<boolean> {
    let saved: SavedNotification;
    try {
      saved = await readSaved(w.entry.file);
    } catch (e) {
      this.io.err(`  → ${w.label} cannot be forwarded again: ${(e as Error).message}`);
      // Removed by hand (or replayed): nothing is left to forward.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return false;
      await this.spool.remove(w.entry);
      return true;
    }
    const started = this.opts.now();
    const result = await this.forwarder.send(saved.body, saved.rawHeaders ?? []);
    if (!forwarded(result)) {
      this.failed(w.label, result, started, w.attempts);
      return false;
    }
    this.tookIt(w.label, result, started, w.attempts);
    await this.spool.remove(w.entry);
    return true;
  }

  private giveUp(w: Waiting): void {
    this.io.err(
      `  → ${w.label} not forwarded after ${w.attempts} attempts: left in ${this.spool.dir} for trk webhook replay`,
    );
  }

  private tookIt(label: string, result: ForwardResult, started: number, attempt: number): void {
    this.counts.forwarded += 1;
    if (attempt > 1) this.counts.afterRetries += 1;
    this.report({ label, result, ms: this.opts.now() - started, attempt });
    this.retries.appBack();
  }

  private failed(label: string, result: ForwardResult, started: number, attempt: number): void {
    const next = this.stopping
      ? `kept in ${this.spool.dir}`
      : attempt >= this.opts.queue.maxAttempts
        ? 'no more attempts'
        : `again in ${inTime(attempt > 1 ? this.retries.delayAfterFailureMs : this.retries.nextDelayMs)}`;
    this.report({ label, result, ms: this.opts.now() - started, attempt, next });
  }

  private lost(label: string, result: ForwardResult, started: number, kept: 'full' | Error): void {
    if (kept === 'full') this.counts.lostFull += 1;
    else this.counts.lostUnkept += 1;
    this.report({ label, result, ms: this.opts.now() - started, next: 'lost to the app (not kept)' });
  }

  private report(r: Omit<ForwardReport, 'target'>): void {
    this.io.err(forwardLine(this.io.colorErr, { ...r, target: this.opts.target }));
  }

  private bound(): string {
    const { maxCount, maxBytes } = this.opts.queue;
    return `${plural(maxCount, 'notification')} or ${fmt(maxBytes / MIB)} MiB`;
  }
}
