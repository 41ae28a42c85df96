// One rate budget for every trk process on the same key. The service counts requests per key, so two cron jobs
// that each pace themselves to 3 a second still reach it at 6. Processes share a small file in the state folder
// holding the start times of the latest requests and a "hold until" time set after a 429; each start reads
// and updates it under a lock file created with O_EXCL. The lock is held only for a synchronous read and write
// (well under a millisecond); a lock older than `staleLockMs` belongs to a process that was killed inside that
// window, and is removed.
//
// Times are wall-clock milliseconds (Date.now()): the only clock processes share. Start times more than a
// window in the future (the clock was set back) are dropped, so a clock change costs at most one window. No hold
// is longer than MAX_HOLD_MS (retry.ts): a hold further ahead than that, or a lock file written more than
// `staleLockMs` in the future, cannot have been made by a trk of this clock (an older trk honoured a day-long
// Retry-After; the clock was set back) and is treated as stale, so that no such file stops every process on the
// key. A start that has to wait for a hold says so once (`onHold`): nothing waits silently.
//
// When the file cannot be used (a full disk, a read-only state folder, a directory in its place), admissions
// fail with a BudgetFileError naming the path; `withLocalFallback` lets reads go on with this process's own pace.
//
// A start is recorded when it is admitted, and moved to when its request is written to its connection
// (Admission.sent, see pacer.ts): a request waiting for a connection counts from when it leaves. After a 429 this
// process widens its margin for the rest of the run, as the in-process pacer does.
//
// A written request is read by the service (and, with the emulator in the same process, by this very process)
// only when its event loop gets to it. When the process stalls (a long garbage collection, the CPU
// taken by other processes), requests admitted just before the stall arrive up to the stall's length later
// than recorded, and the request admitted one window after them can arrive less than a second after them: a
// 429. So the event loop is watched while requests are being admitted, and after a stall the starts recorded
// just before it are moved forward by its length. The margin absorbs the ordinary few milliseconds.

import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TrkError } from '../errors.js';
import {
  holdAnnouncer,
  MAX_HOLD_MS,
  monotonicMs,
  widenedMargin,
  type AcquireOptions,
  type Admission,
  type HoldListener,
  type Pacer,
  type WaitReason,
} from './pacer.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } = process.getBuiltinModule('node:fs');

export interface SharedPacerOptions {
  /** The budget file; its folder must exist. `<file>.lock` is the lock. */
  file: string;
  /** Starts allowed in any window of one second plus the margin. */
  perSecond: number;
  /**
   * Added to the one-second window. The service counts arrivals, and a request can take a few milliseconds
   * longer than the one before it to arrive. 30 ms keeps 429s away on a loaded machine and costs 3 %.
   */
  marginMs?: number;
  /** A lock older than this is stale. */
  staleLockMs?: number;
  /** Event-loop stalls longer than this move the latest starts forward; 0 turns the watch off. Default 15. */
  stallMs?: number;
  now?: () => number;
  /** Told once per hold a start has to wait for (set here or by another process). */
  onHold?: HoldListener;
}

interface BudgetState {
  starts: number[];
  holdUntil: number;
  /** Why starts are held; absent in files of older versions (then a 429). */
  holdReason?: WaitReason;
}

const HOLD_REASONS: readonly WaitReason[] = ['rate-limited', 'unavailable', 'network'];

/** The shared budget cannot be used (its file, or its Redis): reads go on at this process's own pace. */
export class BudgetError extends TrkError {}

/** The budget file (or its lock) cannot be read or written: exit 1, naming the path and the system's reason. */
export class BudgetFileError extends BudgetError {
  constructor(file: string, err: unknown) {
    const e = err as NodeJS.ErrnoException;
    const where = typeof e?.path === 'string' ? e.path : file;
    super(`cannot use the rate budget file ${where}: ${systemReason(e)}`, {
      hint: 'free space, or make the state folder writable (TRK_STATE_DIR moves it)',
      cause: err,
    });
  }
}

/** `no space left on device (ENOSPC)`: the reason without Node's repetition of the call and the path. */
function systemReason(e: NodeJS.ErrnoException | undefined): string {
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const words: Record<string, string> = {
    ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EISDIR: 'a directory is in the way',
    ENOTDIR: 'a file is in the way of a folder',
    EEXIST: 'a file is in the way of a folder',
    ENOENT: 'the folder does not exist',
  };
  if (code && words[code]) return `${words[code]} (${code})`;
  return code ?? (e?.message || 'unknown error');
}

export const SHARED_MARGIN_MS = 30;

export interface SharedPacer extends Pacer {
  /** Wall-clock ms until which starts are held (after a 429 here or in another process), or 0. */
  heldUntil(): number;
}

export function createSharedPacer(opts: SharedPacerOptions): SharedPacer {
  const perSecond = opts.perSecond;
  if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`invalid rate ${perSecond}`);
  const initialMargin = opts.marginMs ?? SHARED_MARGIN_MS;
  let windowMs = 1000 + initialMargin;
  let widenedAt = -Infinity;
  const staleMs = opts.staleLockMs ?? 2000;
  const now = opts.now ?? Date.now;
  const announce = holdAnnouncer(opts.onHold);
  const lockFile = `${opts.file}.lock`;
  const tmpFile = `${opts.file}.${process.pid}.tmp`;
  let lastHold = 0;
  /** Hold set by this process: kept even when it could not be written (lock busy). */
  let localHold = 0;
  let localReason: WaitReason = 'rate-limited';
  // Callers of this process take turns (first come, first served); only the one at the front touches the file.
  let turn: Promise<void> = Promise.resolve();
  const stallMs = opts.stallMs ?? 15;
  const watch =
    stallMs > 0
      ? watchStalls(stallMs, (ms, since) => {
          // Starts admitted shortly before the stall began may have left (or been read) that much later.
          const from = since - STALL_REACH_MS;
          retryLocked(() => {
            const state = read();
            write({ ...state, starts: state.starts.map((t) => (t > from && t <= since + ms ? t + ms : t)) });
            return true;
          });
        })
      : undefined;

  function read(): BudgetState {
    try {
      const parsed = JSON.parse(readFileSync(opts.file, 'utf8')) as Partial<BudgetState>;
      const hold = typeof parsed.holdUntil === 'number' ? parsed.holdUntil : 0;
      const reason = HOLD_REASONS.find((r) => r === parsed.holdReason);
      return {
        starts: Array.isArray(parsed.starts) ? parsed.starts.filter((t): t is number => typeof t === 'number') : [],
        // Further ahead than any hold can be: stale (see the top of this file).
        holdUntil: hold > now() + MAX_HOLD_MS ? 0 : hold,
        ...(reason ? { holdReason: reason } : {}),
      };
    } catch {
      // Missing, or torn by a kill in the middle of a write: start from nothing.
      return { starts: [], holdUntil: 0 };
    }
  }

  function write(state: BudgetState): void {
    try {
      writeFileSync(tmpFile, JSON.stringify(state), { mode: 0o600 });
      renameSync(tmpFile, opts.file);
    } catch (err) {
      // A full disk leaves a partial copy behind: it would only take more of what little space is left.
      rmSync(tmpFile, { force: true });
      throw err;
    }
  }

  /** Run `fn` under the lock file, or return undefined when someone else holds it. */
  function tryLocked<T>(fn: () => T): T | undefined {
    let fd: number;
    try {
      fd = openSync(lockFile, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        // Old, or from the future (the clock was set back): either way no live process is inside the lock.
        if (Math.abs(now() - statSync(lockFile).mtimeMs) > staleMs) rmSync(lockFile, { force: true });
      } catch {
        // released meanwhile
      }
      return undefined;
    }
    try {
      writeSync(fd, String(process.pid));
      return fn();
    } finally {
      closeSync(fd);
      rmSync(lockFile, { force: true });
    }
  }

  /**
   * Take a start if the budget allows one now: 0. Else the ms to wait, with the hold when that is what waits;
   * undefined while another process holds the lock. File errors become a BudgetFileError.
   */
  function attempt(): { wait: number; start?: number; hold?: { until: number; reason: WaitReason } } | undefined {
    try {
      return tryLocked(() => {
        const state = read();
        const t = now();
        const starts = state.starts.filter((s) => s > t - windowMs && s <= t + windowMs).sort((a, b) => a - b);
        const mine = localHold > state.holdUntil;
        const held = Math.max(state.holdUntil, localHold);
        lastHold = held > t ? held : 0;
        let until = held;
        if (starts.length >= perSecond) until = Math.max(until, (starts[starts.length - perSecond] as number) + windowMs);
        if (until > t) {
          if (held <= t) return { wait: until - t };
          return { wait: until - t, hold: { until: held, reason: mine ? localReason : (state.holdReason ?? 'rate-limited') } };
        }
        starts.push(t);
        const keepHold = state.holdUntil > t;
        write({
          starts: starts.slice(-2 * perSecond),
          holdUntil: keepHold ? state.holdUntil : 0,
          ...(keepHold && state.holdReason ? { holdReason: state.holdReason } : {}),
        });
        return { wait: 0, start: t };
      });
    } catch (err) {
      throw new BudgetFileError(opts.file, err);
    }
  }

  /**
   * `tryLocked` a few times over (the lock is held for well under a millisecond), for the best-effort updates
   * (a hold, a stall): they run from timers and failure paths, where a file error must not become a crash.
   */
  function retryLocked(fn: () => true): void {
    try {
      for (let i = 0; i < 50 && tryLocked(fn) === undefined; i++) {
        // busy: try again at once
      }
    } catch {
      // The state folder went away or is not writable: admissions will report it.
    }
  }

  /**
   * The admission of a start recorded at `admitted`: sent() moves it to now (the request left). The stall watch
   * may have moved it meanwhile, and another process may have recorded a start at the same millisecond: the
   * earliest start from `admitted` on that is still before now is taken for it. Moving any start later only
   * holds later ones back, so taking another's is never a risk to the budget.
   */
  function admission(admitted: number): Admission {
    return {
      sent() {
        const t = now();
        if (t <= admitted) return;
        retryLocked(() => {
          const state = read();
          let i = -1;
          state.starts.forEach((s, k) => {
            if (s >= admitted && s < t && (i < 0 || s < (state.starts[i] as number))) i = k;
          });
          // None: gone from the file (older than any start that still counts), or moved past now by a stall.
          if (i >= 0) write({ ...state, starts: state.starts.map((s, k) => (k === i ? t : s)).sort((a, b) => a - b) });
          return true;
        });
      },
    };
  }

  async function acquireNow(signal: AbortSignal | undefined): Promise<Admission> {
    watch?.touch();
    for (;;) {
      signal?.throwIfAborted();
      const got = attempt();
      if (got?.wait === 0) return admission(got.start as number);
      if (got?.hold) announce(got.hold.until, now(), got.hold.reason);
      // Lock busy: try again in a moment. Else sleep until the window opens (re-checked: others may take it).
      const ms = got === undefined ? 2 + Math.random() * 3 : Math.min(got.wait, 1000);
      await delay(Math.max(1, Math.ceil(ms)), undefined, signal ? { signal } : {});
    }
  }

  return {
    acquire(signal?: AbortSignal, _opts?: AcquireOptions): Promise<Admission> {
      if (signal?.aborted) return Promise.reject(signal.reason);
      const mine = turn.then(() => acquireNow(signal));
      turn = mine.then(
        () => {},
        () => {},
      );
      if (!signal) return mine;
      // An aborted caller does not wait for its turn.
      return new Promise<Admission>((resolve, reject) => {
        const onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        mine.then(
          (admitted) => {
            signal.removeEventListener('abort', onAbort);
            resolve(admitted);
          },
          (err: unknown) => {
            signal.removeEventListener('abort', onAbort);
            reject(err);
          },
        );
      });
    },
    backoff(ms: number, reason: WaitReason = 'rate-limited'): void {
      // Once a second at most: see the in-process pacer's backoff.
      if (reason === 'rate-limited' && now() - widenedAt >= 1000) {
        windowMs = 1000 + widenedMargin(windowMs - 1000, initialMargin);
        widenedAt = now();
      }
      if (!(ms > 0)) return;
      const until = now() + Math.min(ms, MAX_HOLD_MS);
      lastHold = Math.max(lastHold, until);
      if (until > localHold) {
        localHold = until;
        localReason = reason;
      }
      // Recorded for every process to see; if the lock stays busy, the hold still applies to this one.
      retryLocked(() => {
        const state = read();
        if (state.holdUntil < until) write({ ...state, holdUntil: until, holdReason: reason });
        return true;
      });
    },
    heldUntil(): number {
      return lastHold > now() ? lastHold : 0;
    },
  };
}

/** How long before a stall a start can still have been waiting to leave. */
const STALL_REACH_MS = 20;
const WATCH_EVERY_MS = 10;
/** The watch stops this long after the last admission, so an idle process has no timer running. */
const WATCH_IDLE_MS = 3000;

/** Calls `onStall(ms, since)` (wall-clock start of the stall) when the event loop was blocked longer than `thresholdMs`. */
function watchStalls(thresholdMs: number, onStall: (ms: number, since: number) => void): { touch(): void } {
  let timer: NodeJS.Timeout | undefined;
  let last = 0;
  let lastTouch = 0;
  const tick = () => {
    const t = monotonicMs();
    const late = t - last - WATCH_EVERY_MS;
    if (late > thresholdMs) onStall(Math.ceil(late), Date.now() - Math.ceil(t - last));
    last = t;
    if (t - lastTouch > WATCH_IDLE_MS) {
      clearInterval(timer);
      timer = undefined;
    }
  };
  return {
    touch() {
      lastTouch = monotonicMs();
      if (timer) return;
      last = lastTouch;
      timer = setInterval(tick, WATCH_EVERY_MS);
      timer.unref();
    },
  };
}

/**
 * The budget file of one key at one address. The service's limit is per key, so the key names the budget
 * (profiles sharing a key share it too); only a digest of it is written, never the key.
 */
export function budgetFile(stateDirectory: string, baseUrl: string, apiKey: string): string {
  // node:crypto is Node's own object, loaded here, where the first request of a process needs it.
  const digest = process.getBuiltinModule('node:crypto').hash('sha256', `${baseUrl.replace(/\/+$/, '')}\u0000${apiKey}`);
  return path.join(stateDirectory, 'budget', `${digest.slice(0, 24)}.json`);
}

/**
 * The shared budget, falling back to this process's own pace for reads when its file (or Redis) cannot be used: `trk quota`
 * or `trk list` on a full disk or with a read-only state folder still work, after one warning line. Writes fail
 * with the BudgetFileError instead: they are what runs unattended and in parallel (cron, bulk runs), where pacing
 * each process alone would send the service more than its rate, and a state folder that cannot be written is
 * better fixed before anything is changed. `shared` is the error itself when the budget could not even be set up.
 */
export function withLocalFallback(shared: Pacer | BudgetError, local: Pacer, warn: (line: string) => void): Pacer {
  const budget = shared instanceof BudgetError ? undefined : shared;
  let broken = shared instanceof BudgetError ? shared : undefined;
  let warned = false;
  const fallBack = (signal: AbortSignal | undefined, opts: AcquireOptions | undefined, err: BudgetError) => {
    if (!opts?.readOnly) return Promise.reject(err);
    if (!warned) {
      warned = true;
      warn(`warning: ${err.message}; pacing requests in this process only`);
    }
    return local.acquire(signal, opts);
  };
  return {
    async acquire(signal, opts) {
      if (broken || !budget) return fallBack(signal, opts, broken as BudgetError);
      try {
        return await budget.acquire(signal, opts);
      } catch (err) {
        if (!(err instanceof BudgetError)) throw err;
        broken = err;
        return fallBack(signal, opts, err);
      }
    },
    backoff(ms, reason) {
      local.backoff(ms, reason);
      budget?.backoff(ms, reason);
    },
  };
}
