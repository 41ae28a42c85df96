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
import { tmpdir } from 'node:os';
import { Chunker } from './chunker.js';
import { nodeFs } from '../node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { mkdtempSync, openSync, readFileSync, rmSync, writeSync, closeSync } = nodeFs();

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
  /** Rows sent once although written more than once. */
  readonly repeats: number;
  /** Line → the earlier line a row conflicts with. */
  readonly conflicts: ReadonlyMap<number, number>;
  /**
   * `keep` (with the row's cost), `repeat`, `conflict`, `sent` (left out: an earlier run of the file had it
   * confirmed, src/items/sent.ts), or `none` for a line that held no checked row.
   */
  decision(line: number): 'keep' | 'repeat' | 'conflict' | 'sent' | 'none';
  /** Leaves a kept row out of what is sent (`sent`); false for a row that was not kept. */
  leaveOut(line: number): boolean;
  /**
   * Items and quota units of each request, in the chunks the sending pass makes; `onChunk` hears each chunk's
   * lines, in order.
   */
  chunks(size: number, onChunk?: ChunkLines): { chunkItems: number[]; chunkUnits: number[] };
}

/** Hears a chunk's index and its lines, in order. */
export type ChunkLines = (index: number, lines: number[]) => void;

export class RepeatFinder {
  readonly #buffers = Array.from({ length: PARTITIONS }, () => new Uint32Array(BUFFERED * WORDS));
  readonly #filled = new Uint32Array(PARTITIONS);
  #files: (number | undefined)[] = [];
  #dir: string | undefined;
  #lines = new Uint8Array(1024);
  #maxLine = 0;

  constructor(private readonly opts: RepeatOptions = {}) {}

  /**
   * A checked row: `number` as the service stores it, `key` the request's identity (number and carrier),
   * `content` every value sent, `cost` its quota units.
   */
  add(line: number, number: string, key: string, content: string, cost: number): void {
    this.#setLine(line, Math.min(Math.max(cost, 0), KEPT_MAX - 1) + 1);
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
    return planOf(this.#lines, this.#maxLine, repeats, conflicts, groups);
  }

  /** Removes the temporary files of a pass that ended early. */
  discard(): void {
    this.#removeFiles();
  }

  /** Decides the rows of one partition; returns how many repeat an earlier one. */
  #decide(records: Uint32Array, conflicts: Map<number, number>, groups: Map<number, string>): number {
    const count = records.length / WORDS;
    const order = Array.from({ length: count }, (_, i) => i * WORDS);
    // By number, then request key, then line: each key's first row comes first.
    order.sort(
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
        this.#lines[line] = REPEAT;
        repeats += 1;
      } else {
        this.#lines[line] = CONFLICT;
        conflicts.set(line, records[first + 6]!);
      }
    }
    this.#group(records, order, numberStart, count, keptOfNumber, groups);
    return repeats;
  }

  /** A number kept under several carriers: its rows share a chunking key, so no request carries it twice. */
  #group(
    records: Uint32Array,
    order: number[],
    from: number,
    to: number,
    kept: number,
    groups: Map<number, string>,
  ): void {
    if (kept < 2) return;
    for (let i = from; i < to; i++) {
      const r = order[i]!;
      const line = records[r + 6]!;
      if (this.#lines[line]! <= KEPT_MAX) groups.set(line, `${records[r]}:${records[r + 1]}`);
    }
  }

  #setLine(line: number, value: number): void {
    if (line >= this.#lines.length) {
      let size = this.#lines.length;
      while (size <= line) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.#lines);
      this.#lines = grown;
    }
    this.#lines[line] = value;
    if (line > this.#maxLine) this.#maxLine = line;
  }

  #spill(p: number): void {
    this.#dir ??= mkdtempSync(path.join(this.opts.dir ?? tmpdir(), 'trk-rows-'));
    const fd = (this.#files[p] ??= openSync(path.join(this.#dir, `${p}.bin`), 'w+', 0o600));
    const buf = this.#buffers[p]!;
    writeSync(fd, buf, 0, this.#filled[p]! * WORDS * 4);
    this.#filled[p] = 0;
  }

  #partition(p: number): Uint32Array {
    const inMemory = this.#buffers[p]!.subarray(0, this.#filled[p]! * WORDS);
    const fd = this.#files[p];
    if (fd === undefined) return inMemory;
    const spilled = readFileSync(path.join(this.#dir!, `${p}.bin`));
    const all = new Uint32Array(spilled.length / 4 + inMemory.length);
    all.set(new Uint32Array(spilled.buffer, spilled.byteOffset, spilled.length / 4));
    all.set(inMemory, spilled.length / 4);
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

function planOf(
  lines: Uint8Array,
  maxLine: number,
  repeats: number,
  conflicts: Map<number, number>,
  groups: Map<number, string>,
): RowPlan {
  return {
    repeats,
    conflicts,
    decision(line) {
      const v = line <= maxLine ? lines[line]! : 0;
      return v === 0 ? 'none' : v === REPEAT ? 'repeat' : v === CONFLICT ? 'conflict' : v === SENT ? 'sent' : 'keep';
    },
    leaveOut(line) {
      if (line > maxLine || lines[line] === 0 || lines[line]! > KEPT_MAX) return false;
      lines[line] = SENT;
      return true;
    },
    chunks(size, onChunk) {
      // The chunker's own rules, on keys that are equal exactly where numbers are: each row is its own key but
      // for a number kept under several carriers.
      const chunker = new Chunker(size);
      const chunkItems: number[] = [];
      const chunkUnits: number[] = [];
      const count = (chunks: ReturnType<Chunker['flush']>) => {
        for (const c of chunks) {
          chunkItems[c.index] = c.rows.length;
          chunkUnits[c.index] = c.rows.reduce((sum, r) => sum + lines[r.line]! - 1, 0);
          onChunk?.(
            c.index,
            c.rows.map((r) => r.line),
          );
        }
      };
      for (let line = 1; line <= maxLine; line++) {
        const v = lines[line]!;
        if (v === 0 || v > KEPT_MAX) continue;
        count(chunker.push({ line, cells: NO_CELLS, item: NO_ITEM, key: groups.get(line) ?? `#${line}` }));
      }
      count(chunker.flush());
      return { chunkItems, chunkUnits };
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
