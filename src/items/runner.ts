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
// register with a tag, of a number registered already (-18019901): the registration costs nothing and changes
// nothing, so the tag is applied as `trk update --tag` applies it (free: only the tag is sent) before the chunk is
// settled, and the item says so (`tag_applied`); where the service refuses it, the item is rejected with a message
// that says the tag was not applied and how to apply it. A number found registered by a lookup, under another tag,
// alike.
//
// Ctrl-C (the `stop` signal): no request starts any more; requests in flight finish and are recorded.

import type { ApiClient } from '../api/client.js';
import { codeInfo, formatCodeMessage, isAccountRefusal } from '../service/codes.js';
import { EnvelopeError, RateLimitError, RequestAbortedError, ServiceError, formatSeconds } from '../api/errors.js';
import { itemsPerRequest, itemOperationSpec, operationOfCommand } from '../service/operations/index.js';
import { trackListPages, type TrackListPage, type TrackListQuery } from '../api/pages.js';
import type { Pacer, WaitReason } from '../pacing/pacer.js';
import { shouldRetry, waitReason } from '../api/retry.js';
import { LIMITS, type ApiVersion } from '../service/vocabulary.js';
import type { Envelope, ItemError, RejectedItem, TrackListFilter } from '../service/types.js';
import { TrkError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { requestBody } from '../api/request-body.js';
import type { Chunk, ChunkRow } from './chunker.js';
import { isCharging, isReadOnly, type ItemOperation } from './fields.js';
import type { ChunkOutcome, Journal } from './journal.js';
import { clock } from '../clock.js';

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

const MAX_PAUSE_MS = 30_000;
const DEFAULT_MAX_FAILURES = 8;
const DEFAULT_MAX_CHUNK_MS = 10 * 60_000;
/** A chunk may meet this many times more 429s in a row than other failures before the run gives up. */
const MAX_LIMITED_FACTOR = 10;

interface Pending {
  chunk: Chunk;
  /** The rows this work settles: the whole chunk, or what an earlier run left pending. */
  part: ChunkRow[];
  open: ChunkRow[];
  accepted: Record<string, unknown>[];
  rejected: RejectedItem[];
  already: RejectedItem[];
  /** What an earlier run settled of this chunk (journaled together with this run's part). */
  prior?: ChunkOutcome;
  /** A request of this chunk may have been processed without us seeing the answer. */
  afterUnknown: boolean;
  /** Ambiguous failures so far (a 429 is not one: it says when to come back); never reset by a lookup. */
  failures: number;
  /** When the first of them happened. */
  firstFailureAt: number;
  /** 429s in a row, and since when. */
  limited: number;
  limitedSince: number;
  /** Why its last send failed: what a give-up reports, rather than a failed lookup of it. */
  sendError?: ServiceError;
  /** register: rows whose tag is still to be applied, with the item of the outcome that says what became of them. */
  retag?: Map<string, { row: ChunkRow; item: Record<string, unknown> }>;
  /** Follow-up requests of the chunk not answered yet. */
  tagsLeft?: number;
}

type Answer = Envelope<Record<string, unknown>>;

/**
 * A page of a lookup (`verify`: chunks whose answers were lost; `page`: a chunk of `trk list`), asked for by its
 * read of the list (trackListPages) and sent by a worker like any request, with the run's retries and holds.
 */
interface PageWork {
  kind: 'verify' | 'page';
  chunks: Pending[];
  body: unknown;
  /** Its read ended before it was sent: it is not sent (again). */
  dropped: boolean;
  answer(envelope: Answer): void;
  drop(reason: unknown): void;
}

type Work = { kind: 'send'; p: Pending } | PageWork | TagWork;

/** What a page still asked for hears once the run is over: the read it belongs to ends unsettled. */
class RunOver extends Error {}

/** The operation that applies the tag of a number registered already: trk update's. */
const RETAG = operationOfCommand('update');

/** register: the tags of numbers registered already, applied as trk update applies them. */
type TagWork = { kind: 'tag'; p: Pending; rows: ChunkRow[] };

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
  /** Pages the reads of the list ask for, in the order asked: taken before anything else. */
  readonly #pages: PageWork[] = [];
  /** Pages asked for and not answered yet (ended with the run, if it ends first). */
  readonly #asked = new Set<PageWork>();
  /** Reads of the list under way: the run waits for them, as they may still ask for pages. */
  readonly #reads = new Set<Promise<void>>();
  #over = false;
  readonly #unverified: { p: Pending; notBefore: number }[] = [];
  #active = 0;
  #pulling = 0;
  #halted = false;
  #error: unknown;
  #holdUntil = 0;
  #requests = 0;
  #verifications = 0;
  #wakers: (() => void)[] = [];

  constructor(opts: RunnerOptions) {
    this.#o = opts;
    this.#op = opts.operation;
    this.#now = opts.now ?? (() => clock().now());
    this.#source = opts.chunks[Symbol.asyncIterator]();
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
      await this.#endReads();
      if (!this.#sourceDone) await this.#source.return?.();
    }
    const result: RunnerResult = {
      interrupted: this.#o.stop.aborted,
      requests: this.#requests,
      verifications: this.#verifications,
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
      const ready = this.#take(this.#pages) ?? this.#take(this.#ready);
      if (ready) return ready;
      const verify = this.#takeVerify();
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
      const busy = this.#active + this.#pulling + this.#reads.size + this.#unverified.length;
      if (busy === 0) return undefined;
      const soonest = Math.min(...this.#unverified.map((u) => u.notBefore));
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
      const p: Pending = {
        chunk,
        part: chunk.rows,
        open: chunk.rows,
        accepted: [],
        rejected: [],
        already: [],
        afterUnknown: false,
        failures: 0,
        firstFailureAt: 0,
        limited: 0,
        limitedSince: 0,
      };
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
          this.#unverified.push({ p, notBefore: 0 });
          return this.#takeVerify() ?? undefined;
        }
      }
      return this.#op === 'gettracklist' ? this.#startRead(() => this.#listChunk(p)) : { kind: 'send', p };
    }
  }

  /** Chunks waiting for a lookup whose time has come, as many as one gettracklist call can check. */
  #takeVerify(): Work | undefined {
    const now = this.#now();
    const ps: Pending[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < this.#unverified.length; ) {
      const u = this.#unverified[i] as { p: Pending; notBefore: number };
      const add = new Set(u.p.open.map((r) => r.key).filter((k) => !keys.has(k)));
      if (u.notBefore > now || keys.size + add.size > LIMITS.listNumberFilterMax) {
        i++;
        continue;
      }
      for (const k of add) keys.add(k);
      ps.push(u.p);
      this.#unverified.splice(i, 1);
    }
    return ps.length > 0 ? this.#startRead(() => this.#verify(ps)) : undefined;
  }

  /** The next work of `queue` whose read still wants it. */
  #take(queue: Work[]): Work | undefined {
    let work = queue.shift();
    while (work && 'dropped' in work && work.dropped) work = queue.shift();
    return work;
  }

  // ---- reads of the list ----

  /** Starts a read of the list; the page it asks for first, when it is the next to go. */
  #startRead(read: () => Promise<void>): Work | undefined {
    const reading: Promise<void> = read()
      // Pages that cannot be right (PagingError), a body the version cannot express: the run stops.
      .catch((err) => {
        if (!(err instanceof RunOver)) this.#fail(err);
      })
      .finally(() => {
        this.#reads.delete(reading);
        this.#wake();
      });
    this.#reads.add(reading);
    return this.#take(this.#pages);
  }

  /** The pages of `query` for `chunks`, each sent by a worker; `window` pages in flight at most. */
  #pagesOf(
    kind: PageWork['kind'],
    chunks: Pending[],
    query: TrackListQuery,
    window?: number,
  ): AsyncGenerator<TrackListPage<Record<string, unknown>>> {
    const { client, version } = this.#o;
    const send = (body: unknown, stop: AbortSignal) => this.#askPage(kind, chunks, body, stop);
    return trackListPages({ client, version, query, window, send });
  }

  #askPage(kind: PageWork['kind'], chunks: Pending[], body: unknown, stop: AbortSignal): Promise<Answer> {
    if (this.#over) return Promise.reject(new RunOver());
    return new Promise((resolve, reject) => {
      const work: PageWork = {
        kind,
        chunks,
        body,
        dropped: false,
        answer: (envelope) => {
          this.#asked.delete(work);
          resolve(envelope);
        },
        drop: (reason) => {
          if (!this.#asked.delete(work)) return;
          work.dropped = true;
          reject(reason);
        },
      };
      this.#asked.add(work);
      // The read ended early (pages that cannot be right): what it still asked for is not sent.
      stop.addEventListener('abort', () => work.drop(stop.reason), { once: true });
      this.#pages.push(work);
      this.#wake();
    });
  }

  /** The run is over: pages still asked for end their reads unsettled, and the reads are let finish. */
  async #endReads(): Promise<void> {
    this.#over = true;
    for (const work of this.#asked) work.drop(new RunOver());
    await Promise.all(this.#reads);
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
    let envelope: Envelope<Record<string, unknown>>;
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
    if (work.kind === 'send') this.#answered(work.p, envelope);
    else if (work.kind === 'tag') this.#tagged(work, envelope);
    else work.answer(envelope);
  }

  #request(work: Work): { op: 'gettracklist' | ItemOperation; body: unknown; chunks: Pending[] } {
    const { version } = this.#o;
    if (work.kind === 'send') {
      return {
        op: this.#op,
        body: requestBody(
          this.#op,
          version,
          work.p.open.map((r) => r.item),
        ),
        chunks: [work.p],
      };
    }
    if (work.kind === 'tag') {
      // The tag alone: a lang or a param sent along could cost quota or change more than was asked.
      const items = work.rows.map((row) => ({
        number: row.item.number,
        carrier: this.#retagCarrier(work.p, row),
        tag: row.item.tag,
      }));
      return { op: RETAG, body: requestBody(RETAG, version, items), chunks: [work.p] };
    }
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
        this.#tagged(work, undefined, { code, message: err.message });
        return;
      }
      if (isAccountRefusal(code) || work.kind !== 'send') {
        this.#fail(err);
        return;
      }
      // The whole request was refused for what it carried: every item of it is rejected with that code.
      const p = work.p;
      for (const row of p.open) p.rejected.push({ number: row.item.number, error: { code, message: err.message } });
      p.open = [];
      this.#settle(p);
      return;
    }
    // Not transient (authentication, a wrong address, TLS): nothing will get better.
    if (!shouldRetry('gettrackinfo', err)) {
      this.#fail(err);
      return;
    }
    const limited = err instanceof RateLimitError;
    const now = this.#now();
    for (const p of chunks) {
      if (limited ? p.limited === 0 : p.failures === 0) p[limited ? 'limitedSince' : 'firstFailureAt'] = now;
    }
    const failures = Math.max(...chunks.map((p) => (limited ? (p.limited += 1) : (p.failures += 1))));
    // Ambiguous failures count over the chunk's life; a 429 streak ends with any answer.
    const since = Math.min(...chunks.map((p) => (limited ? p.limitedSince : p.firstFailureAt)));
    this.#o.onDebug?.(
      `${work.kind} chunk ${chunks.map((p) => p.chunk.index).join(',')}: ${err.message} (${err.delivery})`,
    );
    const maxFailures = this.#o.maxFailures ?? DEFAULT_MAX_FAILURES;
    const maxMs = this.#o.maxChunkMs ?? DEFAULT_MAX_CHUNK_MS;
    if (work.kind === 'send') work.p.sendError = err;
    const base = this.#o.retryBaseMs ?? 1000;
    const pause = limited
      ? Math.min(MAX_PAUSE_MS, err.retryAfterMs ?? base)
      : Math.min(MAX_PAUSE_MS, err.retryAfterMs ?? base * 2 ** (failures - 1) * (0.5 + Math.random() / 2));
    const outOfTime = now + pause - since > maxMs;
    if (failures >= maxFailures * (limited ? MAX_LIMITED_FACTOR : 1) || outOfTime) {
      // The run stops with the chunk's failure, saying it was the last; the journal keeps the chunk "maybe sent".
      const reported = chunks.find((p) => p.sendError)?.sendError ?? err;
      reported.attempts = failures;
      reported.gaveUp = outOfTime
        ? `the next attempt would come after the ${formatSeconds(maxMs)} the --timeout deadline allows`
        : `gave up after ${failures} attempts`;
      this.#fail(reported);
      return;
    }
    this.#pause(pause, waitReason(err));
    const processedMaybe = err.delivery !== 'not-sent' || err instanceof EnvelopeError;
    if (work.kind === 'send' && processedMaybe) {
      work.p.afterUnknown = true;
      if (isCharging(this.#op)) {
        this.#unverified.push({ p: work.p, notBefore: this.#now() + (this.#o.verifyDelayMs ?? 1000) });
        return;
      }
    }
    // Not sent, or harmless to repeat (a read, a lookup, a write that costs nothing).
    this.#ready.unshift(work);
  }

  // ---- answers ----

  #answered(p: Pending, envelope: Envelope<Record<string, unknown>>): void {
    const answered = new Set<string>();
    // Only the numbers this request carried: an answer naming others (a confused or hostile service) must not
    // count as work done ("registered 9" for 2 numbers). A write's item named twice, word for word, counts once;
    // a number of several records (a stop without a carrier, v1 details of each carrier) is named once per record.
    const asked = new Set(p.open.map((r) => r.key));
    const seen = isReadOnly(this.#op) ? undefined : new Set<string>();
    const takes = (item: { number?: unknown }): boolean => {
      const key = keyOf(item.number);
      const text = seen ? JSON.stringify(item) : '';
      if (!asked.has(key) || seen?.has(text)) {
        this.#o.onDebug?.(`chunk ${p.chunk.index}: ${String(item.number)} not asked, or named twice: ignored`);
        return false;
      }
      seen?.add(text);
      answered.add(key);
      return true;
    };
    for (const item of envelope.data?.accepted ?? []) if (takes(item)) p.accepted.push(item);
    const spec = itemOperationSpec(this.#op);
    const already = new Set([
      ...(spec.already?.codes ?? []),
      ...(this.#o.alsoAlready ?? []),
      ...(p.afterUnknown ? (spec.alreadyAfterResend ?? []) : []),
    ]);
    const refused: { key: string; code: number }[] = [];
    for (const item of envelope.data?.rejected ?? []) {
      if (!takes(item)) continue;
      const code = item.error?.code;
      if (typeof code === 'number' && isAccountRefusal(code)) refused.push({ key: keyOf(item.number), code });
      else if (typeof code === 'number' && already.has(code)) p.already.push(item);
      else p.rejected.push(item);
    }
    if (refused.length > 0) {
      // Not the item's fault: the rest stays to do, and the run stops with one line naming the fix.
      const pending = new Set(refused.map((r) => r.key));
      for (const row of p.open) {
        if (!answered.has(row.key))
          p.rejected.push({
            number: row.item.number,
            error: { code: 0, message: 'no answer from the service for this item' },
          });
      }
      p.open = p.open.filter((r) => pending.has(r.key));
      this.#settle(
        p,
        undefined,
        p.open.map((r) => r.key),
      );
      this.#fail(accountRefusal(refused[0]!.code));
      return;
    }
    p.open = p.open.filter((r) => !answered.has(r.key));
    if (p.open.length === 0) {
      this.#settleOrTag(p);
      return;
    }
    // Items the answer does not mention: their fate is as unknown as after a lost answer.
    if (p.failures === 0) p.firstFailureAt = this.#now();
    p.failures += 1;
    this.#o.onDebug?.(`chunk ${p.chunk.index}: ${p.open.length} items missing from the answer`);
    if (p.failures >= (this.#o.maxFailures ?? DEFAULT_MAX_FAILURES)) {
      for (const row of p.open)
        p.rejected.push({
          number: row.item.number,
          error: { code: 0, message: 'no answer from the service for this item' },
        });
      p.open = [];
      this.#settle(p);
      return;
    }
    p.afterUnknown = true;
    if (isCharging(this.#op)) this.#unverified.push({ p, notBefore: this.#now() + (this.#o.verifyDelayMs ?? 1000) });
    else this.#ready.unshift({ kind: 'send', p });
  }

  /**
   * Looks up the chunks whose answers were lost, every page one after the other: what is found registered counts as
   * accepted (`verified`), the rest is sent again.
   */
  async #verify(ps: Pending[]): Promise<void> {
    const found = new Map<string, Record<string, unknown>[]>();
    const items = ps.flatMap((p) => p.open.map((r) => r.item));
    for await (const page of this.#pagesOf('verify', ps, { items }, 1)) {
      for (const record of page.records) {
        const key = keyOf(record.number);
        const list = found.get(key);
        if (list) list.push(record);
        else found.set(key, [record]);
      }
    }
    this.#verifications += ps.length;
    for (const p of ps) {
      const still: ChunkRow[] = [];
      for (const row of p.open) {
        const record = (found.get(row.key) ?? []).find((r) => this.#matches(row, r));
        if (!record) {
          still.push(row);
          continue;
        }
        const accepted = this.#asAccepted(row, record);
        p.accepted.push(accepted);
        // Registered, but not with the tag asked for: registered before, or its tag changed since.
        const otherTag = row.item.tag !== undefined && record.tag !== row.item.tag;
        if (this.#op === 'register' && otherTag) this.#markRetag(p, row, accepted);
      }
      this.#o.onDebug?.(
        `chunk ${p.chunk.index}: ${p.open.length - still.length} of ${p.open.length} found registered after a ` +
          `lost answer`,
      );
      p.open = still;
      if (still.length === 0) this.#settleOrTag(p);
      else this.#ready.unshift({ kind: 'send', p });
    }
  }

  /** Whether a registration record shows that the row's request was processed. */
  #matches(row: ChunkRow, record: Record<string, unknown>): boolean {
    const carrier = recordCarrier(record);
    const item = row.item;
    if (this.#op === 'changecarrier') {
      if (item.carrier_new !== undefined && carrier !== item.carrier_new) return false;
      if (item.final_carrier_new !== undefined && recordFinalCarrier(record) !== item.final_carrier_new) return false;
      return true;
    }
    return item.carrier === undefined || carrier === item.carrier;
  }

  #asAccepted(row: ChunkRow, record: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { number: record.number ?? row.item.number, carrier: recordCarrier(record) };
    if (this.#op === 'register' && 'tag' in record) out.tag = record.tag;
    out.verified = true;
    return out;
  }

  /** gettracklist: the records of a chunk's numbers, every page, several in flight as a list's are. */
  async #listChunk(p: Pending): Promise<void> {
    const wanted = new Set(p.open.map((r) => r.key));
    const query = { items: p.open.map((r) => r.item), filter: this.#o.listFilter };
    for await (const page of this.#pagesOf('page', [p], query)) {
      // One number is a substring match for the service: keep the exact ones only.
      p.accepted.push(...page.records.filter((record) => wanted.has(keyOf(record.number))));
    }
    const found = new Set(p.accepted.map((r) => keyOf(r.number)));
    this.#settle(p, p.open.filter((r) => !found.has(r.key)).length);
  }

  // ---- register --tag of numbers registered already ----

  #markRetag(p: Pending, row: ChunkRow, item: Record<string, unknown>): void {
    (p.retag ??= new Map()).set(row.key, { row, item });
  }

  /** Settle the chunk, or first apply the tags its already registered numbers were asked to carry. */
  #settleOrTag(p: Pending): void {
    if (this.#op === 'register' && p.tagsLeft === undefined) {
      const rows = new Map(p.part.map((r) => [r.key, r]));
      for (const item of p.already) {
        const row = rows.get(keyOf(item.number));
        if (row?.item.tag !== undefined) this.#markRetag(p, row, item as unknown as Record<string, unknown>);
      }
    }
    const todo = [...(p.retag?.values() ?? [])].map((r) => r.row);
    if (todo.length === 0 || p.tagsLeft !== undefined) {
      this.#settle(p);
      return;
    }
    const per = itemsPerRequest(this.#o.version, RETAG);
    p.tagsLeft = 0;
    for (let i = 0; i < todo.length; i += per) {
      p.tagsLeft += 1;
      this.#ready.push({ kind: 'tag', p, rows: todo.slice(i, i + per) });
    }
    this.#wake();
  }

  /** The carrier of a follow-up: the row's, else the one the service named for the number. */
  #retagCarrier(p: Pending, row: ChunkRow): number | undefined {
    return row.item.carrier ?? recordCarrier(p.retag?.get(row.key)?.item ?? {});
  }

  /** A follow-up answered (or refused as a whole, `refusal`): each item says whether its tag was applied. */
  #tagged(work: TagWork, envelope: Envelope<Record<string, unknown>> | undefined, refusal?: ItemError): void {
    const p = work.p;
    const applied = new Set((envelope?.data?.accepted ?? []).map((a) => keyOf(a.number)));
    const refused = new Map((envelope?.data?.rejected ?? []).map((r) => [keyOf(r.number), r.error]));
    for (const row of work.rows) {
      const entry = p.retag?.get(row.key);
      if (!entry) continue;
      if (applied.has(row.key)) {
        entry.item.tag = row.item.tag;
        entry.item.tag_applied = true;
        continue;
      }
      const why = refusal ?? refused.get(row.key) ?? { code: 0, message: 'no answer from the service for this item' };
      this.#tagNotApplied(p, row, entry.item, why);
    }
    p.tagsLeft = (p.tagsLeft ?? 1) - 1;
    if (p.tagsLeft === 0) this.#settle(p);
  }

  /** The tag was refused: the item is rejected, saying so and how to apply it. */
  #tagNotApplied(p: Pending, row: ChunkRow, item: Record<string, unknown>, why: ItemError): void {
    const already = p.already.indexOf(item as unknown as RejectedItem);
    if (already >= 0) p.already.splice(already, 1);
    else p.accepted.splice(p.accepted.indexOf(item), 1);
    const message =
      `registered already, but the tag was not applied (${why.message}): apply it with ` +
      `trk update ${row.item.number} --tag ${JSON.stringify(row.item.tag)}`;
    const code = typeof why.code === 'number' ? why.code : 0;
    p.rejected.push({ number: row.item.number, error: { code, message }, tag_applied: false } as RejectedItem);
  }

  #settle(p: Pending, notFound?: number, pending?: string[]): void {
    const outcome: ChunkOutcome = { accepted: p.accepted, rejected: p.rejected, already: p.already };
    if (notFound !== undefined) outcome.notFound = notFound;
    if (pending !== undefined && pending.length > 0) outcome.pending = pending;
    if (this.#o.journal && !isReadOnly(this.#op)) {
      // The journal holds the chunk's whole outcome: what an earlier run settled and what this one did.
      const prior = p.prior;
      this.#o.journal.markDone(
        p.chunk.index,
        prior
          ? {
              ...outcome,
              accepted: [...prior.accepted, ...outcome.accepted],
              rejected: [...prior.rejected, ...outcome.rejected],
              already: [...prior.already, ...outcome.already],
            }
          : outcome,
      );
    }
    this.#o.onSettled({ index: p.chunk.index, rows: p.part }, outcome, false);
  }
}

/** The account refused what was left (quota, daily limit, webhook URL, authentication): one line, its fix. */
function accountRefusal(code: number): TrkError {
  const info = codeInfo(code);
  return new TrkError(
    `the service refused the account: ${formatCodeMessage(code).replace(/\s*\{\d\}/g, '')} (${code})`,
    {
      exitCode: info?.auth ? EXIT.auth : EXIT.failure,
      ...(info?.hint ? { hint: `${info.hint}, then run the same command again` } : {}),
    },
  );
}

function keyOf(number: unknown): string {
  return typeof number === 'string' ? number.trim().toUpperCase() : String(number ?? '');
}

/** Carrier of a list record: `carrier` in v2, `w1` in v1. */
function recordCarrier(record: Record<string, unknown>): number | undefined {
  const c = record.carrier ?? record.w1;
  return typeof c === 'number' ? c : typeof c === 'string' && /^\d+$/.test(c) ? Number(c) : undefined;
}

function recordFinalCarrier(record: Record<string, unknown>): number | undefined {
  const c = record.final_carrier ?? record.w2;
  return typeof c === 'number' ? c : undefined;
}
