// Turns to read a body: a few at once, a waiting room for more, and a refusal past that. A request waiting for
// its turn is not read (its socket stays paused, so the kernel holds back its sender): what waits costs nothing.
// Bodies announced small (every notification the service sends) have a lane of their own, so that large or
// endless bodies cannot take every turn: what is read at once stays bounded by lane, 8 × 4 MiB and 128 × 64 KiB.

import type { EventEmitter } from 'node:events';

/** What a turn watches of its request: whether it closes while waiting. */
export type Closable = Pick<EventEmitter, 'once' | 'off'>;

/** `busy`: the lane's waiting room is full; `gone`: the request closed while it waited. */
export type NoTurn = 'busy' | 'gone';

/** Turns of one size of body. */
export class Lane {
  private reading = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxReading: number,
    private readonly maxWaiting: number,
  ) {}

  /** A turn for `req`: at once, once one is released, or never. Each turn is released once. */
  take(req: Closable): Promise<this | NoTurn> {
    if (this.reading < this.maxReading) {
      this.reading += 1;
      return Promise.resolve(this);
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.resolve('busy');
    return new Promise((resolve) => {
      const go = () => {
        req.off('close', gone);
        this.reading += 1;
        resolve(this);
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

export interface AdmissionLimits {
  maxConcurrentBodies: number;
  smallBodyBytes: number;
  maxConcurrentSmallBodies: number;
  maxWaiting: number;
}

export class Admission {
  private readonly small: Lane;
  private readonly large: Lane;

  constructor(private readonly limits: AdmissionLimits) {
    this.small = new Lane(limits.maxConcurrentSmallBodies, limits.maxWaiting);
    this.large = new Lane(limits.maxConcurrentBodies, limits.maxWaiting);
  }

  /**
   * A turn in the lane for a body of `announced` bytes (its Content-Length; undefined when it has none): the
   * lane, to be released once the body is read, or why there is no turn.
   */
  take(req: Closable, announced: number | undefined): Promise<Lane | NoTurn> {
    const small = announced !== undefined && announced <= this.limits.smallBodyBytes;
    return (small ? this.small : this.large).take(req);
  }
}
