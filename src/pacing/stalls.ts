// A request is written when the event loop gets to it. When the process stalls (a long garbage collection, the
// CPU taken by other processes, a long synchronous write), requests admitted just before the stall leave only
// after it, later than recorded, and the request admitted one window after them can arrive less than a second
// after them: a 429. So the event loop is watched while requests are being admitted, and a stall is told to the
// budget, which moves the starts of the requests not yet written to its end (movedByStall in budget-window.ts).
// A stall is the machine's, measured on its own clock (a test's clock that skips waits is no stall), and told in
// the time of clock(), which the budget keeps.

import { clock, systemClock } from '../core/clock.js';

const WATCH_EVERY_MS = 10;
/** The watch stops this long after the last admission, so an idle process has no timer running. */
const WATCH_IDLE_MS = 3000;

/** Told of a stall longer than the threshold: its length and its wall-clock start. */
export type StallListener = (ms: number, since: number) => void;

export class StallWatch {
  readonly #thresholdMs: number;
  readonly #onStall: StallListener;
  #timer: NodeJS.Timeout | undefined;
  #last = 0;
  #lastTouch = 0;

  constructor(thresholdMs: number, onStall: StallListener) {
    this.#thresholdMs = thresholdMs;
    this.#onStall = onStall;
  }

  /** An admission: watch from now until WATCH_IDLE_MS after the last one. */
  touch(): void {
    this.#lastTouch = systemClock.monotonic();
    if (this.#timer) return;
    this.#last = this.#lastTouch;
    this.#timer = setInterval(() => this.#tick(), WATCH_EVERY_MS);
    this.#timer.unref();
  }

  get watching(): boolean {
    return this.#timer !== undefined;
  }

  #tick(): void {
    const t = systemClock.monotonic();
    const late = t - this.#last - WATCH_EVERY_MS;
    if (late > this.#thresholdMs) this.#onStall(Math.ceil(late), clock().now() - Math.ceil(t - this.#last));
    this.#last = t;
    if (t - this.#lastTouch > WATCH_IDLE_MS) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
