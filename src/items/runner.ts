// The chunk runner: sends the chunks of a bulk run at the service's ceiling, exactly once.
//
// Throughput. A pool of workers (8 by default) each takes the next piece of work and hands its request to the
// client, whose pacer admits no more than 3 request starts in any second while several are in flight: with one
// second of latency, ~3 requests are on the wire and the rest wait for their turn, and the import runs at the
// ceiling instead of one request per round trip.
//
// Exactly once. Requests are sent with the client's own retries off: every failure comes back here with what is
// known about it (`delivery`):
//   - not sent (429, 503, connection refused): sent again after a pause; a 429 pauses every start;
//   - maybe processed (answer lost, timeout, 500) of an operation that costs quota: the chunk's numbers are
//     looked up with gettracklist (the exact number filter, up to 200 numbers a call) before any of them is
//     sent again; what is found counts as accepted (`verified: true`), the rest is sent again;
//   - maybe processed, other writes: sent again; a rejection that then means "already in that state"
//     (-18019906 already stopped, ...) counts as such, not as a failure;
//   - refused as a whole (an envelope error): every item of the chunk is rejected with that code, except
//     refusals of the account (quota exhausted, daily limit, no webhook URL, authentication), which stop the
//     run; the same refusals met item by item stop it too, and those items stay "not done" (journaled as
//     pending, so that the next run sends them once the account is fixed);
//   - an answer trk cannot read (cut off, not JSON, the wrong shape) is as ambiguous as a lost one;
//   - authentication, a wrong address: the run stops.
// A chunk that keeps failing ambiguously is given up after a bounded number of attempts and time: the run stops
// with what is left "not done" (its journal still says "maybe sent", so the next run looks it up first).
// Every request of a chunk is preceded by a `send` line in the journal and its outcome followed by a `done` line,
// so a run killed at any point resumes by verifying exactly the chunks whose fate it did not see.
//
// register with a tag, of a number registered already: the tag is applied as `trk update --tag` applies it before
// the chunk is settled (src/items/registered-tags.ts).
//
// Ctrl-C (the `stop` signal): no request starts any more; requests in flight finish and are recorded.
//
// The runner schedules and sends; its parts do the rest: the reads of the list whose pages its workers send
// (src/items/list-reads.ts), the lookups after lost answers (src/items/lost-answers.ts), the tags of numbers
// registered already (src/items/registered-tags.ts), what an answer means and how a chunk is settled
// (src/items/chunk-answers.ts).

import type { ApiClient } from '../api/client.js';
import { isAccountRefusal } from '@trk/service/codes.js';
import { EnvelopeError, RequestAbortedError, ServiceError } from '../api/errors.js';
import type { Pacer, WaitReason } from '../pacing/pacer.js';
import { shouldRetry, waitReason } from '../api/retry.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { TrackListFilter } from '@trk/service/types.js';
import { requestBody } from '../api/request-body.js';
import type { Chunk } from './chunker.js';
import { isCharging, type ItemOperation } from './fields.js';
import type { ChunkOutcome, Journal } from './journal.js';
import { clock } from '../core/clock.js';
import { ChunkAnswers } from './chunk-answers.js';
import { nextAttempt } from './chunk-retries.js';
import { pendingOf, takeWanted, type Answer, type Pending, type RunnerCalls, type Work } from './chunk-work.js';
import { ListReads } from './list-reads.js';
import { LostAnswers } from './lost-answers.js';
import { RegisteredTags, RETAG } from './registered-tags.js';

export interface RunnerOptions {
  operation: ItemOperation;
  version: ApiVersion;
  client: ApiClient;
  /**
   * The pacer the client admits its requests with: told to hold every start after a failure (the client
   * itself does so after a 429). For Ctrl-C to hold back requests still waiting for their turn, the client's
   * pacer should reject on the same `stop` signal (see `stoppablePacer` in src/pacing/pacer.ts; the context's
   * client is built so).
   */
  pacer?: Pacer | undefined;
  /** Records every send and outcome; none for reads, which are simply run again. */
  journal?: Journal | undefined;
  chunks: AsyncIterable<Chunk>;
  /** Pieces of work in progress at once (requests in flight or waiting for their turn); default 8. */
  concurrency?: number | undefined;
  /** gettracklist: the filter the numbers are added to. */
  listFilter?: TrackListFilter | undefined;
  /** Aborted: start nothing more. */
  stop: AbortSignal;
  /** Wait before looking up a chunk whose answer was lost, so the service has finished with it; default 1000. */
  verifyDelayMs?: number | undefined;
  /** First pause after a failure; doubles per failure of the same chunk up to 30 s. Default 1000. */
  retryBaseMs?: number | undefined;
  /** Ambiguous failures of one chunk (lookups of it do not reset the count) before the run stops; default 8. */
  maxFailures?: number | undefined;
  /** Time from a chunk's first failure after which it is given up; default 10 minutes. */
  maxChunkMs?: number | undefined;
  /** Rejection codes also counted as "already done" (delete --ignore-missing: -18019902). */
  alsoAlready?: readonly number[] | undefined;
  /** A chunk's outcome is complete (`replayed`: read back from the journal of an earlier run). */
  onSettled(chunk: Chunk, outcome: ChunkOutcome, replayed: boolean): void;
  /** The runner pauses every start for `ms` (shown as "rate limited, resuming in Ns"). */
  onWait?: ((reason: WaitReason, ms: number) => void) | undefined;
  onDebug?: ((line: string) => void) | undefined;
  now?: () => number;
}

export interface RunnerResult {
  /** What stopped the run before the end (authentication, quota, a service that kept failing). */
  error?: unknown;
  /** Stopped by the signal. */
  interrupted: boolean;
  /** Requests made (sends, verifications, pages). */
  requests: number;
  /** Lost answers whose chunk was looked up. */
  verifications: number;
}

export async function runChunks(opts: RunnerOptions): Promise<RunnerResult> {
  return new Runner(opts).run();
}

class Runner {
  readonly #o: RunnerOptions;
  readonly #op: ItemOperation;
  readonly #now: () => number;
  readonly #source: AsyncIterator<Chunk>;
  #sourceDone = false;
  readonly #ready: Work[] = [];
  readonly #reads: ListReads;
  readonly #lost: LostAnswers;
  readonly #tags: RegisteredTags;
  readonly #answers: ChunkAnswers;
  #active = 0;
  #pulling = 0;
  #halted = false;
  #error: unknown;
  #holdUntil = 0;
  #requests = 0;
  #wakers: (() => void)[] = [];

  constructor(opts: RunnerOptions) {
    this.#o = opts;
    this.#op = opts.operation;
    this.#now = opts.now ?? (() => clock().now());
    this.#source = opts.chunks[Symbol.asyncIterator]();
    const runner: RunnerCalls = {
      now: () => this.#now(),
      wake: () => this.#wake(),
      fail: (err) => this.#fail(err),
      first: (work) => this.#ready.unshift(work),
      later: (work) => this.#ready.push(work),
      settle: (p, notFound, pending) => this.#answers.settle(p, notFound, pending),
      debug: (line) => this.#o.onDebug?.(line),
    };
    this.#reads = new ListReads(opts.client, opts.version, runner);
    this.#tags = new RegisteredTags(this.#op, opts.version, runner);
    const delayMs = opts.verifyDelayMs ?? 1000;
    this.#lost = new LostAnswers(this.#op, { runner, reads: this.#reads, tags: this.#tags, delayMs });
    this.#answers = new ChunkAnswers(opts, { runner, lost: this.#lost, tags: this.#tags });
  }

  async run(): Promise<RunnerResult> {
    const onStop = () => {
      this.#halted = true;
      this.#wake();
    };
    if (this.#o.stop.aborted) onStop();
    this.#o.stop.addEventListener('abort', onStop, { once: true });
    try {
      const n = Math.max(1, this.#o.concurrency ?? 8);
      await Promise.all(Array.from({ length: n }, () => this.#worker()));
    } finally {
      this.#o.stop.removeEventListener('abort', onStop);
      await this.#reads.end();
      if (!this.#sourceDone) await this.#source.return?.();
    }
    const result: RunnerResult = {
      interrupted: this.#o.stop.aborted,
      requests: this.#requests,
      verifications: this.#lost.verifications,
    };
    if (this.#error !== undefined) result.error = this.#error;
    return result;
  }

  // ---- scheduling ----

  async #worker(): Promise<void> {
    for (;;) {
      let work: Work | undefined;
      try {
        work = await this.#next();
      } catch (err) {
        // The input could not be read on (changed, unreadable): stop, but let the requests in flight land.
        this.#fail(err);
        return;
      }
      if (!work) return;
      this.#active += 1;
      try {
        await this.#execute(work);
      } catch (err) {
        this.#fail(err);
      } finally {
        this.#active -= 1;
        this.#wake();
      }
    }
  }

  /** The next piece of work: retries first, then lookups, then new chunks. Undefined: nothing left. */
  async #next(): Promise<Work | undefined> {
    for (;;) {
      if (this.#halted) return undefined;
      const hold = this.#holdUntil - this.#now();
      if (hold > 0) {
        await this.#changed(hold);
        continue;
      }
      const ready = this.#reads.nextPage() ?? takeWanted(this.#ready);
      if (ready) return ready;
      const verify = this.#lost.next();
      if (verify) return verify;
      if (!this.#sourceDone) {
        // A worker waiting for the input counts as busy: it may bring work the others must stay for.
        this.#pulling += 1;
        let work: Work | undefined;
        try {
          work = await this.#pull();
        } finally {
          this.#pulling -= 1;
        }
        if (work) return work;
        this.#wake();
        continue;
      }
      const busy = this.#active + this.#pulling + this.#reads.size + this.#lost.size;
      if (busy === 0) return undefined;
      const soonest = this.#lost.soonest;
      await this.#changed(Number.isFinite(soonest) ? Math.max(1, soonest - this.#now()) : undefined);
    }
  }

  /** The next chunk of the input that needs work; chunks done in an earlier run are reported and skipped. */
  async #pull(): Promise<Work | undefined> {
    for (;;) {
      const r = await this.#source.next();
      if (r.done) {
        this.#sourceDone = true;
        return undefined;
      }
      const chunk = r.value;
      const journal = this.#o.journal;
      const p = pendingOf(chunk);
      if (journal?.isDone(chunk.index)) {
        const outcome = journal.outcome(chunk.index) as ChunkOutcome;
        this.#o.onSettled(chunk, outcome, true);
        const pending = new Set(outcome.pending ?? []);
        if (pending.size === 0) continue;
        // Refused by the account last time, so certainly not processed: sent now.
        p.prior = outcome;
        p.part = chunk.rows.filter((row) => pending.has(row.key));
        p.open = p.part;
        return { kind: 'send', p };
      }
      if (journal?.wasSent(chunk.index)) {
        p.afterUnknown = true;
        if (isCharging(this.#op)) {
          this.#lost.add(p, 'now');
          return this.#lost.next() ?? undefined;
        }
      }
      if (this.#op !== 'gettracklist') return { kind: 'send', p };
      return this.#reads.start(() => this.#reads.listChunk(p, this.#o.listFilter));
    }
  }

  #changed(timeoutMs?: number): Promise<void> {
    return new Promise((resolve) => {
      const woken = new AbortController();
      const done = () => {
        woken.abort();
        resolve();
      };
      this.#wakers.push(done);
      if (timeoutMs !== undefined)
        clock()
          .sleep(timeoutMs, woken.signal)
          .then(done, () => {});
    });
  }

  #wake(): void {
    for (const w of this.#wakers.splice(0)) w();
  }

  #fail(err: unknown): void {
    if (this.#error === undefined) this.#error = err;
    this.#halted = true;
    this.#wake();
  }

  /** Pause every start (a 429 or a failing service). */
  #pause(ms: number, reason: WaitReason): void {
    const until = this.#now() + ms;
    if (until <= this.#holdUntil) return;
    this.#holdUntil = until;
    this.#o.pacer?.backoff(ms, reason);
    this.#o.onWait?.(reason, ms);
  }

  // ---- one request ----

  async #execute(work: Work): Promise<void> {
    const { body, op, chunks } = this.#request(work);
    const journal = this.#o.journal;
    // On disk before the request can leave (the client's pacer may hold it a moment longer).
    if (journal && work.kind === 'send') journal.markSent(work.p.chunk.index);
    this.#requests += 1;
    let envelope: Answer;
    try {
      envelope = await this.#o.client.call<Record<string, unknown>>(op, body, { retry: false });
    } catch (err) {
      if (err instanceof RequestAbortedError && err.delivery === 'not-sent') {
        // Stopped while waiting for its turn: it never left.
        this.#requests -= 1;
        this.#requeue(work);
        return;
      }
      this.#failed(work, err, chunks);
      return;
    }
    // A 429 streak ends with any answer; ambiguous failures are counted over the chunk's whole life (a lookup
    // that works says nothing about the next send of the chunk).
    for (const p of chunks) p.limited = 0;
    if (work.kind === 'send') this.#answers.answered(work.p, envelope);
    else if (work.kind === 'tag') this.#tags.tagged(work, envelope);
    else work.answer(envelope);
  }

  #request(work: Work): { op: 'gettracklist' | ItemOperation; body: unknown; chunks: Pending[] } {
    if (work.kind === 'send') {
      const items = work.p.open.map((r) => r.item);
      return { op: this.#op, body: requestBody(this.#op, this.#o.version, items), chunks: [work.p] };
    }
    if (work.kind === 'tag') return { op: RETAG, body: this.#tags.body(work), chunks: [work.p] };
    // A page of a lookup, as its read wrote it.
    return { op: 'gettracklist', body: work.body, chunks: work.chunks };
  }

  #requeue(work: Work): void {
    if (work.kind === 'send' && this.#o.journal && !work.p.afterUnknown) this.#o.journal.markUnsent(work.p.chunk.index);
    this.#ready.unshift(work);
  }

  #failed(work: Work, err: unknown, chunks: Pending[]): void {
    // Its read is over already, with what ended it.
    if ((work.kind === 'verify' || work.kind === 'page') && work.dropped) return;
    if (!(err instanceof ServiceError)) {
      this.#fail(err);
      return;
    }
    const code = err.serviceCode;
    if (err instanceof EnvelopeError && code !== undefined && !shouldRetry('gettrackinfo', err)) {
      if (work.kind === 'tag' && !isAccountRefusal(code)) {
        this.#tags.tagged(work, undefined, { code, message: err.message });
        return;
      }
      if (isAccountRefusal(code) || work.kind !== 'send') {
        this.#fail(err);
        return;
      }
      // The whole request was refused for what it carried: every item of it is rejected with that code.
      this.#answers.rejectAll(work.p, code, err.message);
      return;
    }
    // Not transient (authentication, a wrong address, TLS): nothing will get better.
    if (!shouldRetry('gettrackinfo', err)) {
      this.#fail(err);
      return;
    }
    this.#o.onDebug?.(
      `${work.kind} chunk ${chunks.map((p) => p.chunk.index).join(',')}: ${err.message} (${err.delivery})`,
    );
    if (work.kind === 'send') work.p.sendError = err;
    const pause = nextAttempt(chunks, err, this.#now(), this.#o);
    if (pause instanceof ServiceError) {
      // The run stops with the chunk's failure, saying it was the last; the journal keeps the chunk "maybe sent".
      this.#fail(pause);
      return;
    }
    this.#pause(pause, waitReason(err));
    const processedMaybe = err.delivery !== 'not-sent' || err instanceof EnvelopeError;
    if (work.kind === 'send' && processedMaybe) {
      work.p.afterUnknown = true;
      if (isCharging(this.#op)) {
        this.#lost.add(work.p);
        return;
      }
    }
    // Not sent, or harmless to repeat (a read, a lookup, a write that costs nothing).
    this.#ready.unshift(work);
  }
}
