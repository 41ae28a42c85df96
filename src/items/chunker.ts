// Rows into requests. Chunks are numbered in input order and are the same on every pass over the same input,
// which is what lets the journal name a chunk by its index. One chunk never carries the same number twice
// (under two carriers): the service's answer names rejected items by number, so two of them in one answer
// could not be told apart. Such a row moves on to the next chunk.

import type { Item } from './fields.js';

export interface ChunkRow {
  line: number;
  /** Cells as read, for the rejects file. */
  cells: string[];
  item: Item;
  /** The number as the service stores it (upper case): how answers are matched to rows. */
  key: string;
}

export interface Chunk {
  index: number;
  rows: ChunkRow[];
}

export class Chunker {
  readonly #size: number;
  #index = 0;
  #rows: ChunkRow[] = [];
  #keys = new Set<string>();
  /** Rows whose number was already in the chunk being filled. */
  #carry: ChunkRow[] = [];

  constructor(size: number) {
    if (!(size >= 1)) throw new RangeError(`chunk size must be at least 1, got ${size}`);
    this.#size = size;
  }

  /** Add a row; returns the chunks it completed (usually none or one). */
  push(row: ChunkRow): Chunk[] {
    const out: Chunk[] = [];
    this.#add(row, out);
    return out;
  }

  /** The chunks still open at the end of the input. */
  flush(): Chunk[] {
    const out: Chunk[] = [];
    while (this.#rows.length > 0 || this.#carry.length > 0) {
      if (this.#rows.length > 0) this.#emit(out);
      else this.#refill(out);
    }
    return out;
  }

  #add(row: ChunkRow, out: Chunk[]): void {
    if (this.#keys.has(row.key)) {
      this.#carry.push(row);
      return;
    }
    this.#rows.push(row);
    this.#keys.add(row.key);
    if (this.#rows.length >= this.#size) this.#emit(out);
  }

  #emit(out: Chunk[]): void {
    out.push({ index: this.#index++, rows: this.#rows });
    this.#rows = [];
    this.#keys = new Set();
    this.#refill(out);
  }

  /** Carried rows go first into the next chunk. */
  #refill(out: Chunk[]): void {
    if (this.#carry.length === 0) return;
    const carried = this.#carry;
    this.#carry = [];
    // The first carried row always fits the fresh chunk, so this makes progress.
    for (const row of carried) this.#add(row, out);
  }
}
