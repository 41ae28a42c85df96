// When notifications are forwarded again: one at a time, oldest first, after a delay that doubles with each failed
// attempt (up to a ceiling) and starts over as soon as the app takes one, since it is back then and what waits
// goes at once. A notification that keeps failing goes to the back, so that it holds up no other, and after
// `maxAttempts` is left alone (it stays on disk for `trk webhook replay`).

import { clock } from '../../core/clock.js';

export interface RetryLimits {
  firstDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
}

export interface Retry {
  /** Attempts so far, the first (before the queue) included. */
  attempts: number;
}

export class RetrySchedule<T extends Retry> {
  private readonly waiting: T[] = [];
  private delay: number;
  /** Ends the wait before the next attempt. */
  private pause: AbortController | undefined;
  private busy: Promise<boolean> | undefined;
  private stopped = false;

  constructor(
    private readonly limits: RetryLimits,
    /** One attempt: true when the app took it. */
    private readonly attempt: (item: T) => Promise<boolean>,
    /** Called for an item that has had its attempts. */
    private readonly giveUp: (item: T) => void,
  ) {
    this.delay = limits.firstDelayMs;
  }

  /** The delay before the next attempt, as things stand. */
  get nextDelayMs(): number {
    return this.delay;
  }

  /** The delay before the next attempt once the one in flight has failed. */
  get delayAfterFailureMs(): number {
    return Math.min(this.delay * 2, this.limits.maxDelayMs);
  }

  /** An item whose attempt failed: tried again later, or given up when it has had its attempts. */
  add(item: T): void {
    if (this.stopped) return;
    if (item.attempts >= this.limits.maxAttempts) {
      this.giveUp(item);
      return;
    }
    this.waiting.push(item);
    this.schedule();
  }

  /** The app took a notification: what waits is tried now, at the first pace again. */
  appBack(): void {
    this.delay = this.limits.firstDelayMs;
    if (this.busy !== undefined || this.stopped || this.waiting.length === 0) return;
    this.pause?.abort();
    this.pause = undefined;
    void this.next();
  }

  /** No more attempts; an attempt in flight finishes (the caller aborts it). */
  stop(): void {
    this.stopped = true;
    this.pause?.abort();
    this.pause = undefined;
  }

  /** Resolves once the attempt in flight, if any, has ended. */
  async settled(): Promise<void> {
    await this.busy;
  }

  private schedule(): void {
    if (this.pause !== undefined || this.busy !== undefined || this.stopped || this.waiting.length === 0) return;
    const pause = new AbortController();
    this.pause = pause;
    clock()
      .sleep(this.delay, pause.signal)
      .then(() => {
        this.pause = undefined;
        void this.next();
      }, noop);
  }

  private async next(): Promise<void> {
    const item = this.waiting.shift();
    if (item === undefined) return;
    item.attempts += 1;
    this.busy = this.attempt(item);
    const ok = await this.busy;
    this.busy = undefined;
    if (this.stopped) return;
    if (ok) {
      this.delay = this.limits.firstDelayMs;
      if (this.waiting.length > 0) void this.next();
      return;
    }
    this.delay = Math.min(this.delay * 2, this.limits.maxDelayMs);
    this.add(item);
    this.schedule();
  }
}

// An ended wait: appBack() tried at once, or stop().
const noop = (): void => {};
