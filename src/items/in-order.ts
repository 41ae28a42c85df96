// The chunks' output in the input's order. Requests answer in any order (several in flight, retries), and what a
// command prints, and its rejects file, follow the input, as gh and kubectl print in the order asked. A chunk
// answered ahead of an earlier one waits for it, up to HOLD_ITEMS items: a request held up for long (retried for
// minutes) lets those behind it go first rather than keep a growing backlog in memory.

/** Items waiting behind an unanswered chunk before they go anyway (tracking details can be 10 KB each). */
export const HOLD_ITEMS = 2_000;

export class InOrder<T> {
  readonly #held = new Map<number, { value: T; size: number }>();
  /** The chunk released next; lower ones were released (or passed over by a flush: released when they come). */
  #next = 0;
  #heldSize = 0;

  constructor(
    private readonly release: (value: T) => void,
    private readonly maxHeld = HOLD_ITEMS,
  ) {}

  /** The output of chunk `index`, of `size` items: released now, or once the chunks before it are. */
  add(index: number, value: T, size: number): void {
    // A chunk passed over by a flush, or one told twice: nothing waits for it.
    if (index < this.#next || this.#held.has(index)) {
      this.release(value);
      return;
    }
    this.#held.set(index, { value, size });
    this.#heldSize += size;
    while (this.#held.has(this.#next)) this.#take(this.#next++);
    if (this.#heldSize > this.maxHeld) this.flush();
  }

  /** Releases everything held, in order: the run ended (a chunk given up never comes), or too much waits. */
  flush(): void {
    const indexes = [...this.#held.keys()].sort((a, b) => a - b);
    for (const index of indexes) this.#take(index);
    const last = indexes.at(-1);
    if (last !== undefined) this.#next = Math.max(this.#next, last + 1);
  }

  #take(index: number): void {
    const held = this.#held.get(index) as { value: T; size: number };
    this.#held.delete(index);
    this.#heldSize -= held.size;
    this.release(held.value);
  }
}
