// A binary min-heap on a numeric priority. The account keeps its schedules (tracking runs, expiry checks,
// retention deletions, webhook attempts) in these so that a tick with 100,000 records only touches what is
// due. Entries are never updated in place: a changed schedule pushes a new entry and the stale one is
// recognised and dropped when it surfaces (lazy deletion), which keeps every operation O(log n).

export class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #priority: (item: T) => number;

  constructor(priority: (item: T) => number, items: Iterable<T> = []) {
    this.#priority = priority;
    for (const item of items) this.#items.push(item);
    // Bottom-up heapify: O(n) for a restored state.
    for (let i = (this.#items.length >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    this.#items.push(item);
    this.#up(this.#items.length - 1);
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.#down(0);
    }
    return top;
  }

  /** Every entry, in no particular order (for snapshots). */
  values(): readonly T[] {
    return this.#items;
  }

  clear(): void {
    this.#items.length = 0;
  }

  #up(i: number): void {
    const items = this.#items;
    const item = items[i] as T;
    const p = this.#priority(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pItem = items[parent] as T;
      if (this.#priority(pItem) <= p) break;
      items[i] = pItem;
      i = parent;
    }
    items[i] = item;
  }

  #down(i: number): void {
    const items = this.#items;
    const n = items.length;
    const item = items[i] as T;
    const p = this.#priority(item);
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      let cp = this.#priority(items[left] as T);
      if (right < n) {
        const rp = this.#priority(items[right] as T);
        if (rp < cp) {
          child = right;
          cp = rp;
        }
      }
      if (cp >= p) break;
      items[i] = items[child] as T;
      i = child;
    }
    items[i] = item;
  }
}
