// Rows that name the same number and carrier twice. An identical row (the same request: number, carrier and
// every value sent) is one intent written twice, as shop exports do with one row per line item: it is sent
// once. The same number and carrier with other values (another tag, another param) is a conflict, a problem
// of the later row. Numbers under two carriers are no repeat, but never share a request (chunker.ts).
//
// Memory stays flat however many rows an input has: every checked row leaves 28 bytes in one of 64 partitions
// (by its number's hash), kept in memory while small and written to a private temporary folder beyond that.
// Once the input is read, each partition is sorted on its own. What is decided is kept by line, one byte each
// (the row's cost, or that it repeats or conflicts), for the counts of the plan and the sending pass.

import path from 'node:path';
import { Chunker } from './chunker.js';
import { nodeFs } from '../core/node.js';
import { scratchDir, scratchWrite } from './scratch.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { openSync, readSync, rmSync, closeSync } = nodeFs();

const PARTITIONS = 64;
/** Records a partition keeps in memory before they go to its file. */
const BUFFERED = 2048;
/** u32 words of a record: number hash (2), request-key hash (2), content hash (2), line. */
const WORDS = 7;

/**
 * What is known of a line once the input is read. 0: no row that passed its checks; 1..KEPT_MAX: kept, its cost + 1.
 */
const SENT = 253;
const REPEAT = 254;
const CONFLICT = 255;
const KEPT_MAX = 200;

export interface RepeatOptions {
  /** gettracklist: a repeated number is dropped whatever else its row holds (a lookup has nothing to conflict). */
  anyRepeat?: boolean;
  /** Where partitions go when they outgrow memory; default the system's temporary folder. */
  dir?: string | undefined;
}

/** The decisions of the checking pass, by line. */
export interface RowPlan {
  /** Rows this run reads anew that repeat an earlier row (sent once); not those an earlier run went past. */
  readonly repeats: number;
  /** Line → the earlier line a row conflicts with. */
  readonly conflicts: ReadonlyMap<number, number>;
  /**
   * `keep` (with the row's cost), `repeat`, `conflict`, `sent` (left out: an earlier run of the file had it
   * confirmed, src/items/sent.ts), or `none` for a line that held no checked row.
   */
  decision(line: number): 'keep' | 'repeat' | 'conflict' | 'sent' | 'none';
  /** Rows left out (`sent`): confirmed, or passed over as repeats, by an earlier run of the file. */
  readonly sent: number;
  /**
   * Items and quota units of each request, in the chunks the sending pass makes; `onChunk` hears each chunk's
   * lines, in order.
   */
  chunks(size: number, onChunk?: ChunkLines): { chunkItems: Uint32Array; chunkUnits: Uint32Array };
}

/** Hears a chunk's index and its lines, in order. */
export type ChunkLines = (index: number, lines: number[]) => void;

export class RepeatFinder {
  readonly #buffers = Array.from({ length: PARTITIONS }, () => new Uint32Array(BUFFERED * WORDS));
  readonly #filled = new Uint32Array(PARTITIONS);
  /** Bytes of each partition's file. */
  readonly #spilled = new Float64Array(PARTITIONS);
  #files: (number | undefined)[] = [];
  #dir: string | undefined;
  readonly #lines = new LineBytes();
  #maxLine = 0;
  #sent = 0;
  /** A partition's records and their order while it is decided: one buffer each, reused for every partition. */
  #sorting: Uint32Array | undefined;
  #order: Uint32Array | undefined;

  constructor(private readonly opts: RepeatOptions = {}) {}

  /**
   * A checked row: `number` as the service stores it, `key` the request's identity (number and carrier),
   * `content` every value sent, `cost` its quota units; `sentBefore`: an earlier run of the file had its request
   * confirmed, so that it is left out (and not counted as a repeat) unless it conflicts with an earlier row.
   */
  add(line: number, number: string, key: string, content: string, cost: number, sentBefore = false): void {
    this.#setLine(line, sentBefore ? SENT : Math.min(Math.max(cost, 0), KEPT_MAX - 1) + 1);
    if (sentBefore) this.#sent += 1;
    hash64(number);
    const [n1, n2] = [H1, H2];
    const p = n1 % PARTITIONS;
    const buf = this.#buffers[p]!;
    let at = this.#filled[p]! * WORDS;
    buf[at++] = n1;
    buf[at++] = n2;
    hash64(key);
    buf[at++] = H1;
    buf[at++] = H2;
    hash64(content);
    buf[at++] = H1;
    buf[at++] = H2;
    buf[at] = line;
    this.#filled[p]! += 1;
    if (this.#filled[p] === BUFFERED) this.#spill(p);
  }

  /** Sort every partition and decide each row; removes the temporary files. */
  finish(): RowPlan {
    const conflicts = new Map<number, number>();
    const groups = new Map<number, string>();
    let repeats = 0;
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const records = this.#partition(p);
        repeats += this.#decide(records, conflicts, groups);
      }
    } finally {
      this.#removeFiles();
    }
    return planOf(this.#lines, this.#maxLine, { repeats, sent: this.#sent, conflicts }, groups);
  }

  /** Removes the temporary files of a pass that ended early. */
  discard(): void {
    this.#removeFiles();
  }

  /** Decides the rows of one partition; returns how many repeat an earlier one. */
  #decide(records: Uint32Array, conflicts: Map<number, number>, groups: Map<number, string>): number {
    const count = records.length / WORDS;
    if (!this.#order || this.#order.length < count) this.#order = new Uint32Array(Math.ceil(count * 1.1));
    const order = this.#order.subarray(0, count);
    for (let i = 0; i < count; i++) order[i] = i * WORDS;
    // By number, then request key, then line: each key's first row comes first.
    sortInPlace(
      order,
      (a, b) =>
        cmp(records, a, b, 0) ||
        cmp(records, a, b, 1) ||
        cmp(records, a, b, 2) ||
        cmp(records, a, b, 3) ||
        cmp(records, a, b, 6),
    );
    let repeats = 0;
    let first = -1;
    let numberStart = 0;
    let keptOfNumber = 0;
    for (let i = 0; i < count; i++) {
      const r = order[i]!;
      const sameNumber = first >= 0 && records[r] === records[first] && records[r + 1] === records[first + 1];
      if (!sameNumber) {
        this.#group(records, order, numberStart, i, keptOfNumber, groups);
        numberStart = i;
        keptOfNumber = 0;
      }
      const sameKey = sameNumber && records[r + 2] === records[first + 2] && records[r + 3] === records[first + 3];
      if (!sameKey) {
        first = r;
        keptOfNumber += 1;
        continue;
      }
      const line = records[r + 6]!;
      if (this.opts.anyRepeat || (records[r + 4] === records[first + 4] && records[r + 5] === records[first + 5])) {
        // A repeat an earlier run of the file already went past stays among the rows it sent: this run's
        // notes speak of the rows this run reads anew.
        if (this.#lines.get(line) === SENT) continue;
        this.#decided(line, REPEAT);
        repeats += 1;
      } else {
        this.#decided(line, CONFLICT);
        conflicts.set(line, records[first + 6]!);
      }
    }
    this.#group(records, order, numberStart, count, keptOfNumber, groups);
    return repeats;
  }

  /** A number kept under several carriers: its rows share a chunking key, so no request carries it twice. */
  #group(
    records: Uint32Array,
    order: Uint32Array,
    from: number,
    to: number,
    kept: number,
    groups: Map<number, string>,
  ): void {
    if (kept < 2) return;
    for (let i = from; i < to; i++) {
      const r = order[i]!;
      const line = records[r + 6]!;
      if (this.#lines.get(line) <= KEPT_MAX) groups.set(line, `${records[r]}:${records[r + 1]}`);
    }
  }

  /** A row found to repeat or conflict with an earlier one: no longer counted as left out. */
  #decided(line: number, value: typeof REPEAT | typeof CONFLICT): void {
    if (this.#lines.get(line) === SENT) this.#sent -= 1;
    this.#lines.set(line, value);
  }

  #setLine(line: number, value: number): void {
    this.#lines.set(line, value);
    if (line > this.#maxLine) this.#maxLine = line;
  }

  #spill(p: number): void {
    this.#dir ??= scratchDir(this.opts.dir, 'rows');
    const fd = (this.#files[p] ??= openSync(path.join(this.#dir, `${p}.bin`), 'w+', PRIVATE_FILE_MODE));
    const buf = this.#buffers[p]!;
    scratchWrite(this.#dir, fd, buf, this.#filled[p]! * WORDS * 4, this.#spilled[p]!);
    this.#spilled[p]! += this.#filled[p]! * WORDS * 4;
    this.#filled[p] = 0;
  }

  /** A partition's records, its spilled ones read into one buffer used for every partition in turn. */
  #partition(p: number): Uint32Array {
    const inMemory = this.#buffers[p]!.subarray(0, this.#filled[p]! * WORDS);
    const fd = this.#files[p];
    if (fd === undefined) return inMemory;
    const spilledBytes = this.#spilled[p]!;
    const words = spilledBytes / 4 + inMemory.length;
    if (!this.#sorting || this.#sorting.length < words) this.#sorting = new Uint32Array(Math.ceil(words * 1.1));
    const all = this.#sorting.subarray(0, words);
    readSync(fd, all, 0, spilledBytes, 0);
    all.set(inMemory, spilledBytes / 4);
    return all;
  }

  #removeFiles(): void {
    for (const fd of this.#files) if (fd !== undefined) closeSync(fd);
    this.#files = [];
    if (this.#dir) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }
}

function cmp(records: Uint32Array, a: number, b: number, word: number): number {
  return records[a + word]! - records[b + word]!;
}

/**
 * Sorts `order` in place by `compare`, which holds no two entries equal: a quicksort that allocates nothing, where
 * Array.prototype.sort copies what it sorts into work arrays (some 40 MB of garbage over the partitions of
 * 5,000,000 rows).
 */
export function sortInPlace(order: Uint32Array, compare: (a: number, b: number) => number): void {
  const swap = (i: number, j: number) => {
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  };
  const ranges = [0, order.length - 1];
  while (ranges.length > 0) {
    let hi = ranges.pop()!;
    let lo = ranges.pop()!;
    while (hi - lo > 16) {
      const mid = (lo + hi) >>> 1;
      if (compare(order[mid]!, order[lo]!) < 0) swap(lo, mid);
      if (compare(order[hi]!, order[lo]!) < 0) swap(lo, hi);
      if (compare(order[hi]!, order[mid]!) < 0) swap(mid, hi);
      const pivot = order[mid]!;
      let i = lo;
      let j = hi;
      while (i <= j) {
        while (compare(order[i]!, pivot) < 0) i++;
        while (compare(order[j]!, pivot) > 0) j--;
        if (i <= j) swap(i++, j--);
      }
      // The larger side waits; the smaller is sorted first, so that at most log2(n) ranges wait.
      if (j - lo < hi - i) {
        ranges.push(i, hi);
        hi = j;
      } else {
        ranges.push(lo, j);
        lo = i;
      }
    }
    for (let k = lo + 1; k <= hi; k++) {
      const v = order[k]!;
      let m = k - 1;
      while (m >= lo && compare(order[m]!, v) > 0) {
        order[m + 1] = order[m]!;
        m--;
      }
      order[m + 1] = v;
    }
  }
}

/** A byte by line, in blocks of 64 Ki lines: no array doubled and copied as the input grows. */
class LineBytes {
  readonly #blocks: Uint8Array[] = [];

  get(line: number): number {
    return this.#blocks[line >>> 16]?.[line & 0xffff] ?? 0;
  }

  set(line: number, value: number): void {
    const b = line >>> 16;
    while (this.#blocks.length <= b) this.#blocks.push(new Uint8Array(1 << 16));
    this.#blocks[b]![line & 0xffff] = value;
  }
}

/** A line's byte says its row is to be sent. */
function isKept(value: number): boolean {
  return value > 0 && value <= KEPT_MAX;
}

/** Items and quota units by chunk index. */
class ChunkCounts {
  #items: Uint32Array;
  #units: Uint32Array;
  #length = 0;

  constructor(expected: number) {
    this.#items = new Uint32Array(expected);
    this.#units = new Uint32Array(expected);
  }

  set(index: number, items: number, units: number): void {
    if (index >= this.#items.length) {
      const grow = (from: Uint32Array) => {
        const to = new Uint32Array(Math.max(index + 1, from.length * 2));
        to.set(from);
        return to;
      };
      this.#items = grow(this.#items);
      this.#units = grow(this.#units);
    }
    this.#items[index] = items;
    this.#units[index] = units;
    this.#length = Math.max(this.#length, index + 1);
  }

  done(): { chunkItems: Uint32Array; chunkUnits: Uint32Array } {
    return { chunkItems: this.#items.subarray(0, this.#length), chunkUnits: this.#units.subarray(0, this.#length) };
  }
}

function planOf(
  lines: LineBytes,
  maxLine: number,
  counts: Pick<RowPlan, 'repeats' | 'sent' | 'conflicts'>,
  groups: Map<number, string>,
): RowPlan {
  return {
    ...counts,
    decision(line) {
      const v = lines.get(line);
      return v === 0 ? 'none' : v === REPEAT ? 'repeat' : v === CONFLICT ? 'conflict' : v === SENT ? 'sent' : 'keep';
    },
    chunks(size, onChunk) {
      // The chunker's own rules, on keys that are equal exactly where numbers are: each row is its own key but
      // for a number kept under several carriers.
      const chunker = new Chunker(size);
      let kept = 0;
      for (let line = 1; line <= maxLine; line++) if (isKept(lines.get(line))) kept += 1;
      // Typed, and sized once: chunks are full but where a number under several carriers moves a row on.
      const counts = new ChunkCounts(Math.ceil(kept / size) + 1);
      const count = (chunks: ReturnType<Chunker['flush']>) => {
        for (const c of chunks) {
          counts.set(
            c.index,
            c.rows.length,
            c.rows.reduce((sum, r) => sum + lines.get(r.line) - 1, 0),
          );
          onChunk?.(
            c.index,
            c.rows.map((r) => r.line),
          );
        }
      };
      for (let line = 1; line <= maxLine; line++) {
        if (!isKept(lines.get(line))) continue;
        count(chunker.push({ line, cells: NO_CELLS, item: NO_ITEM, key: groups.get(line) ?? `#${line}` }));
      }
      count(chunker.flush());
      return counts.done();
    },
  };
}

const NO_CELLS: string[] = [];
const NO_ITEM = { number: '' };

let H1 = 0;
let H2 = 0;

/**
 * Two independent 32-bit string hashes (cyrb53's mixing), left in H1/H2 to spare an allocation per row. Two
 * different keys sharing both (about 1 in 10^7 for a million rows) would be taken for one; the number's hash
 * is compared as well, which makes that rarer still.
 */
function hash64(text: string): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  H1 = h1 >>> 0;
  H2 = h2 >>> 0;
}
