// The rate budget shared by the trk processes of one machine on one key (budget.ts), in a small file of the state
// folder (budget-file.ts): each start reads and updates it under a lock, by the rule of budget-window.ts. A start
// that has to wait for a hold (set here or by another process after a 429) says so once (`onHold`): nothing waits
// silently.
//
// When the file cannot be used (a full disk, a read-only state folder, a directory in its place), admissions fail
// with a BudgetFileError naming the path; `withLocalFallback` (budget.ts) lets reads go on at this process's pace.
//
// A start is recorded when it is admitted, and moved to when its request is written to its connection
// (Admission.sent, see pacer.ts): a request waiting for a connection counts from when it leaves. After a stall of
// the event loop (stalls.ts), the starts of the requests admitted and not yet written are moved to its end, so
// that other processes see them as late as they will leave; a request already written is not delayed by this
// process's stall, and is left as it is (moving it would hold back the next starts for nothing). Whenever the next
// start is reckoned, those not written yet are moved to then as well: they leave no earlier. After a 429 this
// process widens its margin for a while, as the in-process pacer does (Margin, pacer.ts). A hold says why the
// service refused what the budget allowed (HoldCause): a stall of this process just before its 429, a 429 of
// another process (its hold in the file), else something the budget does not count.

import { clock } from '../core/clock.js';
import { SHARED_MARGIN_MS } from './budget.js';
import { BudgetFile, BudgetFileError } from './budget-file.js';
import {
  admit,
  movedByStall,
  movedToSent,
  withHold,
  type Admit,
  type BudgetState,
  type Hold,
} from './budget-window.js';
import {
  holdAnnouncer,
  Margin,
  MAX_HOLD_MS,
  UNSENT_LEAVES_LATER_MS,
  type AcquireOptions,
  type Admission,
  type HoldCause,
  type HoldListener,
  type Pacer,
  type WaitReason,
} from './pacer.js';
import { StallWatch } from './stalls.js';
import { Turns } from './turns.js';

export interface FilePacerOptions {
  /** The budget file; its folder must exist. `<file>.lock` is the lock. */
  file: string;
  /** Starts allowed in any window of one second plus the margin. */
  perSecond: number;
  /** Added to the one-second window; default SHARED_MARGIN_MS. */
  marginMs?: number;
  /** A lock older than this is stale. */
  staleLockMs?: number;
  /** Event-loop stalls longer than this move the latest starts forward; 0 turns the watch off. Default 15. */
  stallMs?: number;
  /** Wall-clock milliseconds: the only clock processes share. */
  now?: () => number;
  /** Told once per hold a start has to wait for (set here or by another process). */
  onHold?: HoldListener;
}

/** A request admitted this long ago and not written yet never will be (aborted): no stall can delay it. */
const FORGET_UNSENT_MS = 60_000;

/**
 * A 429 this soon after a stall ended is put down to it: requests written after the stall, or already on their
 * way when it began, reach the service within a window or two of it (the 429's answer takes a round trip more).
 */
export const STALL_EXPLAINS_MS = 3_000;

/**
 * Why the service refused a request of this process at `now` (a 429): its latest stall, when it ended just before
 * (STALL_EXPLAINS_MS), else something the budget does not count.
 */
export function causeOfLimit(now: number, stall: { end: number; ms: number }): HoldCause {
  return now - stall.end <= STALL_EXPLAINS_MS ? { kind: 'stall', ms: stall.ms } : { kind: 'outside' };
}

export class FilePacer implements Pacer {
  readonly #file: BudgetFile;
  readonly #perSecond: number;
  readonly #margin: Margin;
  readonly #now: () => number;
  readonly #announce: ReturnType<typeof holdAnnouncer>;
  readonly #turns = new Turns();
  readonly #watch: StallWatch | undefined;
  /** The hold in force when the file was last read, or set here since. */
  #lastHold = 0;
  /** A hold set by this process: kept even when it could not be written (lock busy). */
  #localHold: Hold = { until: 0, reason: 'rate-limited' };
  /** Why this process's hold was set (a 429 only). */
  #localCause: HoldCause | undefined;
  /** The latest stall of this process: when it ended (wall-clock) and how long it was. */
  #lastStall = { end: -Infinity, ms: 0 };
  /** The starts of this process's requests not yet written: what a stall delays. */
  readonly #unsent = new Set<Unsent>();

  constructor(opts: FilePacerOptions) {
    if (!Number.isInteger(opts.perSecond) || opts.perSecond < 1) throw new RangeError(`invalid rate ${opts.perSecond}`);
    this.#perSecond = opts.perSecond;
    this.#margin = new Margin(opts.marginMs ?? SHARED_MARGIN_MS);
    this.#now = opts.now ?? (() => clock().now());
    const staleLockMs = opts.staleLockMs;
    this.#file = new BudgetFile(opts.file, { ...(staleLockMs === undefined ? {} : { staleLockMs }), now: this.#now });
    this.#announce = holdAnnouncer(opts.onHold);
    const stallMs = opts.stallMs ?? 15;
    this.#watch = stallMs > 0 ? new StallWatch(stallMs, (ms, since) => this.#stalled(ms, since)) : undefined;
  }

  acquire(signal?: AbortSignal, _opts?: AcquireOptions): Promise<Admission> {
    return this.#turns.take(() => this.#acquireNow(signal), signal);
  }

  backoff(ms: number, reason: WaitReason = 'rate-limited'): void {
    this.#margin.held(reason, this.#now());
    if (!(ms > 0)) return;
    const hold = { until: this.#now() + Math.min(ms, MAX_HOLD_MS), reason };
    this.#lastHold = Math.max(this.#lastHold, hold.until);
    if (hold.until > this.#localHold.until) {
      this.#localHold = hold;
      this.#localCause = reason === 'rate-limited' ? this.#causeOfLimit() : undefined;
    }
    // Recorded for every process to see; if the lock stays busy, the hold still applies to this one.
    this.#file.update((state) => withHold(state, hold));
  }

  #causeOfLimit(): HoldCause {
    return causeOfLimit(this.#now(), this.#lastStall);
  }

  /** Wall-clock ms until which starts are held (after a 429 here or in another process), or 0. */
  heldUntil(): number {
    return this.#lastHold > this.#now() ? this.#lastHold : 0;
  }

  /** This caller's turn: takes a start as soon as the budget allows one. */
  async #acquireNow(signal: AbortSignal | undefined): Promise<Admission> {
    this.#watch?.touch();
    for (;;) {
      signal?.throwIfAborted();
      const got = this.#attempt();
      if (got && 'start' in got) return this.#admission(got.start);
      if (got?.hold) this.#announce(got.hold.until, this.#now(), got.hold.reason, this.#causeOf(got.hold));
      // Lock busy: try again in a moment. Else sleep until the window opens (re-checked: others may take it).
      const ms = got === undefined ? 2 + Math.random() * 3 : Math.min(got.wait, 1000);
      await clock().sleep(Math.max(1, Math.ceil(ms)), signal);
    }
  }

  /** This process's hold carries its cause; a longer one in the file was set by another process's 429. */
  #causeOf(hold: Hold): HoldCause | undefined {
    if (hold.reason !== 'rate-limited') return undefined;
    return hold.until <= this.#localHold.until ? this.#localCause : { kind: 'shared' };
  }

  /** One look at the budget under its lock; undefined while another process holds the lock. */
  #attempt(): Admit | undefined {
    try {
      return this.#file.tryLocked(() => {
        const now = this.#now();
        const read = this.#file.read();
        const state = this.#unsentLeavingNow(read, now);
        const window = { perSecond: this.#perSecond, windowMs: 1000 + this.#margin.at(now) };
        const got = admit(state, now, window, this.#localHold);
        this.#lastHold = got.held;
        if ('start' in got) this.#file.write(got.next);
        else if (state !== read) this.#file.write(state);
        return got;
      });
    } catch (err) {
      throw new BudgetFileError(this.#file.path, err);
    }
  }

  /** The state with this process's starts admitted and not yet written moved to `now`: they leave no earlier. */
  #unsentLeavingNow(state: BudgetState, now: number): BudgetState {
    const late = [...this.#unsent].filter((e) => e.start < now && now - e.admitted < UNSENT_LEAVES_LATER_MS);
    if (late.length === 0) return state;
    const starts = movedByStall(
      state.starts,
      late.map((e) => e.start),
      now,
    );
    for (const e of late) e.start = now;
    return { ...state, starts };
  }

  /** The admission of a start recorded at `admitted`: sent() moves it to when the request left. */
  #admission(admitted: number): Admission {
    // Where its start is now: moved by stalls, or by later admissions, until the request is written.
    const entry = { admitted, start: admitted };
    // One admitted long ago and never written was aborted: forgotten, so that a long run keeps no list of them.
    for (const e of this.#unsent) if (e.admitted < admitted - FORGET_UNSENT_MS) this.#unsent.delete(e);
    this.#unsent.add(entry);
    return {
      sent: () => {
        this.#unsent.delete(entry);
        const t = this.#now();
        if (t <= entry.start) return;
        this.#file.update((state) => {
          const starts = movedToSent(state.starts, entry.start, t);
          return starts && { ...state, starts };
        });
      },
    };
  }

  #stalled(ms: number, since: number): void {
    const end = since + ms;
    this.#lastStall = { end, ms };
    const delayed = [...this.#unsent].filter((e) => e.start < end);
    if (delayed.length === 0) return;
    const unsent = delayed.map((e) => e.start);
    this.#file.update((state) => ({ ...state, starts: movedByStall(state.starts, unsent, end) }));
    // Found from there by the next stall, or by sent(), rather than another start between.
    for (const e of delayed) e.start = end;
  }
}

/** A start admitted here whose request is not written yet: when it was admitted, and where its start is now. */
interface Unsent {
  admitted: number;
  start: number;
}
