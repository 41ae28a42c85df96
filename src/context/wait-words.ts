// What a command run says when requests wait: a retry after a failure, or a hold of the rate budget. A 429 says
// why the service refused what the budget allowed (the pacer's HoldCause), since trk keeps to the service's pace:
// the machine was busy, another trk process on the key was refused, or something the budget does not count uses the
// key. One 429 in a run is said only with -v (the budget rides it out at the cost of a second or two); from the
// second on it is shown, for what causes them is worth fixing, and so is a longer hold: nothing waits long silently.

import type { HoldCause, WaitReason } from '../pacing/pacer.js';

const WAIT_WORDS: Readonly<Record<WaitReason, string>> = {
  'rate-limited': 'rate limited by the service',
  unavailable: 'service unavailable',
  network: 'network error',
};

function causeWords(cause: HoldCause): string {
  switch (cause.kind) {
    case 'stall':
      return `this machine was busy (trk stalled ${cause.ms} ms), so requests reached it closer together than paced`;
    case 'shared':
      return 'another trk process on this key was refused';
    case 'outside':
      return "something else uses this API key (another host or program), which trk's pace does not count";
  }
}

/** `rate limited by the service: this machine was busy (...)`; `again` for a second 429 or more of a run. */
export function waitWords(reason: WaitReason, cause?: HoldCause, again = false): string {
  const words = `${WAIT_WORDS[reason]}${again ? ' again' : ''}`;
  return cause === undefined ? words : `${words}: ${causeWords(cause)}`;
}

/** `60 s`: whole seconds, at least 1, for waits announced to people. */
export function seconds(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}

/** The longest hold of a first 429 that passes without a word (-v says it): the service asks for a second. */
export const QUIET_HOLD_MS = 3_000;

/** Counts a run's 429 holds: whether this one passes quietly (said only with -v): the first, and short. */
export class RateLimits {
  #count = 0;

  /** 429 holds told so far. */
  get count(): number {
    return this.#count;
  }

  quiet(reason: WaitReason, ms: number): boolean {
    if (reason !== 'rate-limited') return false;
    return this.#count++ === 0 && ms <= QUIET_HOLD_MS;
  }
}
