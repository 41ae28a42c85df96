// The rule of a rate budget shared by processes, over what its file holds: the start times of the latest
// requests and a "hold until" time set after a 429. Pure: no file, no clock; the file pacer (file-pacer.ts)
// applies it under the file's lock, and redis-scripts.ts states the same rule for Redis.
//
// Times are wall-clock milliseconds, the only clock processes share. Start times more than a window in the future
// (the clock was set back) are dropped, so a clock change costs at most one window; a hold further ahead than
// MAX_HOLD_MS cannot have been made by a trk of this clock (an older trk honoured a day-long Retry-After; the clock
// was set back) and is dropped too, so that no such file stops every process on the key.

import { MAX_HOLD_MS, type WaitReason } from './pacer.js';
import { spacedAfter } from './spacing.js';

export interface BudgetState {
  starts: number[];
  /**
   * When the latest start was due by the spacing (spacing.ts): the next is spaced from it, not from when the latest
   * left. Absent in files of older versions and before any start.
   */
  due?: number;
  holdUntil: number;
  /** Why starts are held; absent in files of older versions (then a 429). */
  holdReason?: WaitReason;
}

export interface Hold {
  until: number;
  reason: WaitReason;
}

/**
 * No more than `perSecond` starts in any `windowMs` (a second and the margin), and those spread through it: each
 * start is due `windowMs / perSecond` after the one before was due (spacing.ts).
 */
export interface BudgetWindow {
  perSecond: number;
  windowMs: number;
}

/** What the budget says to a start at some time: take it (and write `next`), or wait. */
export type Admit =
  | { start: number; next: BudgetState; held: number }
  /** `hold`: when a hold (rather than the window) is what the start waits for. */
  | { wait: number; hold?: Hold; held: number };

const HOLD_REASONS: readonly WaitReason[] = ['rate-limited', 'unavailable', 'network'];

/** The state a budget file's text holds at `now`; nothing (a fresh budget) when the text is torn or not JSON. */
export function parseBudget(text: string, now: number): BudgetState {
  let parsed: Partial<BudgetState>;
  try {
    parsed = JSON.parse(text) as Partial<BudgetState>;
  } catch {
    // Torn by a kill in the middle of a write: start from nothing.
    return { starts: [], holdUntil: 0 };
  }
  const hold = typeof parsed?.holdUntil === 'number' ? parsed.holdUntil : 0;
  const reason = HOLD_REASONS.find((r) => r === parsed?.holdReason);
  return {
    starts: Array.isArray(parsed?.starts) ? parsed.starts.filter((t): t is number => typeof t === 'number') : [],
    ...(typeof parsed?.due === 'number' ? { due: parsed.due } : {}),
    holdUntil: hold > now + MAX_HOLD_MS ? 0 : hold,
    ...(reason ? { holdReason: reason } : {}),
  };
}

/**
 * A start at `t`, against the budget's `state` and a hold this process set (`local`, kept even when it could not
 * be written). `held` is the hold in force at `t` (wall-clock ms; 0: none).
 */
export function admit(state: BudgetState, t: number, window: BudgetWindow, local: Hold): Admit {
  const { perSecond, windowMs } = window;
  const starts = state.starts.filter((s) => s > t - windowMs && s <= t + windowMs).sort((a, b) => a - b);
  const heldUntil = Math.max(state.holdUntil, local.until);
  const held = heldUntil > t ? heldUntil : 0;
  const spacing = windowMs / perSecond;
  // A due time more than a window ahead was written before the clock was set back.
  const due = state.due !== undefined && state.due <= t + windowMs ? state.due : undefined;
  let until = Math.max(heldUntil, due === undefined ? 0 : due + spacing);
  if (starts.length >= perSecond) until = Math.max(until, (starts[starts.length - perSecond] as number) + windowMs);
  if (until > t) {
    if (!held) return { wait: until - t, held };
    const reason = local.until > state.holdUntil ? local.reason : (state.holdReason ?? 'rate-limited');
    return { wait: until - t, hold: { until: heldUntil, reason }, held };
  }
  starts.push(t);
  const keepHold = state.holdUntil > t;
  const next: BudgetState = {
    starts: starts.slice(-2 * perSecond),
    due: spacedAfter(due, t, spacing),
    holdUntil: keepHold ? state.holdUntil : 0,
    ...(keepHold && state.holdReason ? { holdReason: state.holdReason } : {}),
  };
  return { start: t, next, held };
}

/**
 * The starts once the start admitted at `admitted` left at `t`: it counts from then. A stall (stalls.ts) may have
 * moved it meanwhile, and another process may have recorded a start at the same millisecond: the earliest start
 * from `admitted` on that is still before `t` is taken for it. Moving any start later only holds later ones back,
 * so taking another's is never a risk to the budget. Undefined when there is none (gone from the file as older
 * than any start that still counts, or moved past `t` by a stall).
 */
export function movedToSent(starts: readonly number[], admitted: number, t: number): number[] | undefined {
  let i = -1;
  starts.forEach((s, k) => {
    if (s >= admitted && s < t && (i < 0 || s < (starts[i] as number))) i = k;
  });
  if (i < 0) return undefined;
  return starts.map((s, k) => (k === i ? t : s)).sort((a, b) => a - b);
}

/**
 * The starts after the event loop stalled until `end` (wall-clock): a request this process admitted but had not
 * written yet (`unsent`, the admission times) leaves no earlier than the stall's end, and counts from then. A
 * request already written is on its way: a stall of this process does not delay it (the service is another
 * process; the embedded emulator, which lives in this one, is paced by the in-process pacer). Each start is found
 * as sent() finds it (movedToSent).
 */
export function movedByStall(starts: readonly number[], unsent: readonly number[], end: number): number[] {
  let out = [...starts];
  for (const admitted of unsent) out = movedToSent(out, admitted, end) ?? out;
  return out;
}

/** The state with `hold`, or undefined when a hold as long is already set: a longer hold wins. */
export function withHold(state: BudgetState, hold: Hold): BudgetState | undefined {
  if (state.holdUntil >= hold.until) return undefined;
  return { ...state, holdUntil: hold.until, holdReason: hold.reason };
}
