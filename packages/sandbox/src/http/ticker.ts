// The tick loop: the account processes what fell due (tracking runs, expiry, retention, webhooks) from a timer and
// after every clock jump. Ticks run one at a time, in order; the timer skips while one is queued, so a slow tick
// (a jump of weeks over 100,000 records) never piles up others behind it.

/** What a tick drives: the account, seen through what the loop needs. */
export interface Tickable {
  tick(): Promise<void>;
  /** Statistics that change whenever a tick did something visible. */
  stats(): Record<string, unknown>;
}

export class Ticker {
  readonly #target: Tickable;
  /** Told when a tick changed something (the state saver), if anyone needs to know. */
  readonly #changed: (() => void) | undefined;
  readonly #onError: (err: unknown) => void;
  #queue: Promise<void> = Promise.resolve();
  #pending = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(target: Tickable, changed: (() => void) | undefined, onError: (err: unknown) => void) {
    this.#target = target;
    this.#changed = changed;
    this.#onError = onError;
  }

  /** Queue a tick; resolves when it (and every tick before it) is done. Never rejects. */
  tick(): Promise<void> {
    this.#pending += 1;
    this.#queue = this.#queue.then(() => this.#run());
    return this.#queue;
  }

  /** Tick every `everyMs` real ms (the timer does not keep the process alive). */
  start(everyMs: number): void {
    this.stop();
    this.#timer = setInterval(() => {
      if (this.#pending === 0) void this.tick();
    }, everyMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Resolves once the ticks queued so far are done. */
  idle(): Promise<void> {
    return this.#queue;
  }

  async #run(): Promise<void> {
    // A tick that changed nothing the statistics show (no run, stop, deletion or delivery) is not worth
    // rewriting a state file of several MB for; closing saves the clock position anyway.
    const before = this.#changed && JSON.stringify(this.#target.stats());
    try {
      await this.#target.tick();
    } catch (err) {
      this.#onError(err);
    } finally {
      this.#pending -= 1;
      if (this.#changed && JSON.stringify(this.#target.stats()) !== before) this.#changed();
    }
  }
}
