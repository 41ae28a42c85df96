// Turns to read a body: a few at once, a waiting room for more, and a refusal past that. A request waiting for
// its turn is not read (its socket stays paused, so the kernel holds back its sender): what waits costs nothing.

import type { EventEmitter } from 'node:events';

/** `go`: read the body now; `busy`: the waiting room is full; `gone`: the request closed while it waited. */
export type Turn = 'go' | 'busy' | 'gone';

/** What a turn watches of its request: whether it closes while waiting. */
export type Closable = Pick<EventEmitter, 'once' | 'off'>;

export class Admission {
  private reading = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxReading: number,
    private readonly maxWaiting: number,
  ) {}

  /** A turn for `req`: at once, once one is released, or never ('busy', 'gone'). Each 'go' is released once. */
  take(req: Closable): Promise<Turn> {
    if (this.reading < this.maxReading) {
      this.reading += 1;
      return Promise.resolve('go');
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.resolve('busy');
    return new Promise((resolve) => {
      const go = () => {
        req.off('close', gone);
        this.reading += 1;
        resolve('go');
      };
      const gone = () => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve('gone');
      };
      this.waiting.push(go);
      req.once('close', gone);
    });
  }

  /** The body is read (or given up): the next waiting request gets its turn. */
  release(): void {
    this.reading -= 1;
    this.waiting.shift()?.();
  }
}
