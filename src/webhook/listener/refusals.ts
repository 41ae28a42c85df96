// Refusals are logged one line each, REFUSALS_SHOWN a minute; a flood is summed up rather than echoed.

/** Refusals logged one line each per minute; the rest are counted and told in one line. */
export const REFUSALS_SHOWN = 20;
const WINDOW_MS = 60_000;

export class RefusalLog {
  private windowStart = 0;
  private shown = 0;
  private hidden = 0;

  constructor(
    private readonly err: (line: string) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Show `line`, unless REFUSALS_SHOWN were shown in this minute already: then count it. */
  log(line: string): void {
    const t = this.clock();
    if (t - this.windowStart >= WINDOW_MS) {
      this.tellHidden();
      this.windowStart = t;
      this.shown = 0;
    }
    if (this.shown < REFUSALS_SHOWN) {
      this.shown += 1;
      this.err(line);
    } else {
      this.hidden += 1;
    }
  }

  /** One line for the refusals not shown so far, if any. */
  tellHidden(): void {
    if (this.hidden === 0) return;
    this.err(`${this.hidden} more refused notification${this.hidden === 1 ? '' : 's'} not shown`);
    this.hidden = 0;
  }
}
