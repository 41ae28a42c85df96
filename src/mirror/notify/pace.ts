// The pace of a run per target (mail servers and chat webhooks limit senders: Slack takes about one message a
// second): at most `perSecond` messages a second to each, waited for on trk's clock (src/clock.ts).

import { clock } from '../../core/clock.js';

export class TargetPace {
  readonly #gapMs: number;
  readonly #next = new Map<string, number>();

  /** `perSecond` undefined: no pace, as fast as each target takes them. */
  constructor(perSecond: number | undefined) {
    this.#gapMs = perSecond ? 1000 / perSecond : 0;
  }

  /** Waits for `target`'s turn. */
  async wait(target: string, signal?: AbortSignal): Promise<void> {
    if (this.#gapMs === 0) return;
    const now = clock().monotonic();
    const at = Math.max(now, this.#next.get(target) ?? now);
    this.#next.set(target, at + this.#gapMs);
    if (at > now) await clock().sleep(at - now, signal);
  }
}
