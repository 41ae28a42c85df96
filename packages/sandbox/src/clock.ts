// The emulator's simulated clock. Simulated time runs at `speed` times real time from an anchor, and can be
// pushed forward by hand (advance) so that tests and rehearsals see days of tracking in milliseconds.
// Simulated time never runs backwards: the account's schedules assume a monotonic clock.

/** What is persisted so that simulated time continues across restarts. */
export interface ClockState {
  /** Simulated time (ms since the epoch) when the state was taken. */
  time: number;
  /** Real time (ms since the epoch) when the state was taken. */
  savedAt: number;
  speed: number;
}

export interface SimClockOptions {
  /** Simulated milliseconds per real millisecond; default 1. 3600 = one simulated hour per real second. */
  speed?: number;
  /** Simulated time to start from (ms since the epoch); default the real time now. */
  start?: number;
  /** Source of real time; replaceable in tests. Default Date.now. */
  realNow?: () => number;
}

export class SimClock {
  #speed: number;
  /** Simulated time at the anchor. */
  #anchorSim: number;
  /** Real time at the anchor. */
  #anchorReal: number;
  readonly #realNow: () => number;

  constructor(opts: SimClockOptions = {}) {
    this.#realNow = opts.realNow ?? Date.now;
    this.#speed = checkSpeed(opts.speed ?? 1);
    this.#anchorReal = this.#realNow();
    this.#anchorSim = opts.start ?? this.#anchorReal;
  }

  /**
   * A clock continuing from a saved state. The time the emulator was down is added multiplied by
   * `catchUp` (0 = simulated time paused while down, the default), capped at `catchUpMaxMs`.
   */
  static resume(
    state: ClockState,
    opts: { speed?: number; catchUp?: number; catchUpMaxMs?: number; realNow?: () => number } = {},
  ): SimClock {
    const realNow = opts.realNow ?? Date.now;
    const down = Math.max(0, realNow() - state.savedAt);
    const caughtUp = Math.min(down * Math.max(0, opts.catchUp ?? 0), opts.catchUpMaxMs ?? Number.POSITIVE_INFINITY);
    return new SimClock({ speed: opts.speed ?? state.speed, start: state.time + caughtUp, realNow });
  }

  /** Simulated milliseconds since the epoch. */
  now(): number {
    return Math.floor(this.#anchorSim + (this.#realNow() - this.#anchorReal) * this.#speed);
  }

  get speed(): number {
    return this.#speed;
  }

  /** Change the speed from now on; time already elapsed is kept. */
  set speed(value: number) {
    this.#reanchor();
    this.#speed = checkSpeed(value);
  }

  /** Move simulated time forward by `ms` (>= 0). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance the clock by ${ms} ms`);
    this.#reanchor();
    this.#anchorSim += ms;
  }

  /** Move simulated time forward to `time`; a time in the past is refused (the clock never runs back). */
  advanceTo(time: number): void {
    const now = this.now();
    if (!Number.isFinite(time) || time < now) {
      throw new RangeError(
        `cannot move the clock back to ${Number.isFinite(time) ? new Date(time).toISOString() : time}`,
      );
    }
    this.advance(time - now);
  }

  toJSON(): ClockState {
    return { time: this.now(), savedAt: this.#realNow(), speed: this.#speed };
  }

  #reanchor(): void {
    const sim = this.now();
    this.#anchorReal = this.#realNow();
    this.#anchorSim = sim;
  }
}

function checkSpeed(speed: number): number {
  // Speed 0 freezes simulated time (only advance moves it), which is what deterministic tests want.
  if (!Number.isFinite(speed) || speed < 0) throw new RangeError(`invalid clock speed ${speed}`);
  return speed;
}

export function isClockState(value: unknown): value is ClockState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.time === 'number' &&
    Number.isFinite(v.time) &&
    typeof v.savedAt === 'number' &&
    Number.isFinite(v.savedAt) &&
    typeof v.speed === 'number' &&
    Number.isFinite(v.speed) &&
    v.speed >= 0
  );
}
