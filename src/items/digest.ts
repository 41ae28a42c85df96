// What a row asks of the service, as text and as digests. A run is named by its requests, not by the bytes of its
// file or a list of flags: a column the operation does not read, a trailing blank line or a reordered header
// change nothing, while anything that changes what is sent (a `--column`, a carrier default, a carrier map, a
// tag) makes another run (src/items/runs.ts). The same digests say, chunk by chunk, that the sending pass reads
// what the checking pass read (src/items/scan.ts), and, row by row, which requests an earlier run of a file
// already had confirmed (src/items/sent.ts).
//
// A row's digest is the first 64 bits of the SHA-256 of its request text: two different requests among the rows
// of the largest files trk reads (a few million) share one with a probability below one in a million. A chunk's
// digest is made of cheaper 32-bit hashes of its rows, kept by line while the input is checked.

import { ITEM_FIELDS } from '@trk/service/fields.js';
import type { Item } from './fields.js';
import path from 'node:path';
import { nodeCrypto, nodeFs } from '../core/node.js';
import { scratchDir, scratchWrite } from './scratch.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';

/** The request of one row, field by field in the one order of ITEM_FIELDS (wire names are the body's business). */
export function requestText(item: Item): string {
  let text = '';
  for (const field of ITEM_FIELDS) {
    const value = item[field];
    if (value !== undefined) text += `${field}=${String(value)}\u001f`;
  }
  return text;
}

const crypto = () => nodeCrypto();

/** The digest of one row's request (`text`: its requestText, where known already). */
export function rowDigest(item: Item, text?: string): bigint {
  return crypto()
    .createHash('sha256')
    .update(text ?? requestText(item))
    .digest()
    .readBigUInt64BE(0);
}

/**
 * A row's request as 32 bits (FNV-1a, over its requestText): what a chunk's digest is made of. Kept for every
 * line of a long input (4 bytes a line), it is cheaper than a cryptographic digest; a chunk that changed and
 * still matched would need all its changed rows to collide at once.
 */
export function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The digest of a chunk: its rows' textHash, in order. */
export function chunkDigest(hashes: readonly number[]): bigint {
  const words = Buffer.alloc(hashes.length * 4);
  for (const [i, h] of hashes.entries()) words.writeUInt32BE(h, i * 4);
  return crypto().createHash('sha256').update(words).digest().readBigUInt64BE(0);
}

/**
 * textHash by line, 4 bytes a line in blocks of 64 Ki lines. The first blocks stay in memory; the later ones go to
 * a private temporary file as they fill, so that memory stays flat in the row count (5,000,000 lines would hold
 * 20 MB). Lines are set in increasing order, and read back in nearly increasing order (a chunk's lines), so one
 * block read back is kept. `dispose` removes the file.
 */
export class LineHashes {
  static readonly #BLOCK = 1 << 16;
  /** Blocks kept in memory: inputs of up to 256 Ki lines never touch the disk. */
  static readonly #IN_MEMORY = 4;
  readonly #blocks: Uint32Array[] = [];
  /** The block being filled past the ones in memory, its index, and the file it goes to. */
  #filling: { index: number; hashes: Uint32Array } | undefined;
  #readBack: { index: number; hashes: Uint32Array } | undefined;
  #file: { dir: string; fd: number } | undefined;

  /** `dir`: where the temporary file goes; default the system's temporary folder. */
  constructor(private readonly dir?: string) {}

  set(line: number, hash: number): void {
    const b = Math.floor(line / LineHashes.#BLOCK);
    const at = line % LineHashes.#BLOCK;
    if (b < LineHashes.#IN_MEMORY) {
      while (this.#blocks.length <= b) this.#blocks.push(new Uint32Array(LineHashes.#BLOCK));
      this.#blocks[b]![at] = hash;
      return;
    }
    if (this.#filling?.index !== b) {
      if (this.#filling) this.#write(this.#filling);
      // The block written last is reused: a block once left is never set again.
      const hashes = this.#filling?.hashes.fill(0) ?? new Uint32Array(LineHashes.#BLOCK);
      this.#filling = { index: b, hashes };
    }
    this.#filling.hashes[at] = hash;
  }

  get(line: number): number {
    const b = Math.floor(line / LineHashes.#BLOCK);
    const at = line % LineHashes.#BLOCK;
    if (b < LineHashes.#IN_MEMORY) return this.#blocks[b]?.[at] ?? 0;
    if (this.#filling?.index === b) return this.#filling.hashes[at]!;
    if (this.#readBack?.index !== b) this.#readBack = this.#read(b, this.#readBack?.hashes);
    return this.#readBack.hashes[at]!;
  }

  /** Removes the temporary file, if there is one. */
  dispose(): void {
    if (!this.#file) return;
    const { closeSync, rmSync } = nodeFs();
    closeSync(this.#file.fd);
    rmSync(this.#file.dir, { recursive: true, force: true });
    this.#file = undefined;
  }

  #write(block: { index: number; hashes: Uint32Array }): void {
    if (!this.#file) {
      const dir = scratchDir(this.dir, 'lines');
      this.#file = { dir, fd: nodeFs().openSync(path.join(dir, 'hashes.bin'), 'w+', PRIVATE_FILE_MODE) };
    }
    scratchWrite(this.#file.dir, this.#file.fd, block.hashes, block.hashes.byteLength, this.#offset(block.index));
  }

  /** A block from the file; a block never written (no row in its lines) reads as zeros. */
  #read(index: number, reuse: Uint32Array | undefined): { index: number; hashes: Uint32Array } {
    const hashes = reuse?.fill(0) ?? new Uint32Array(LineHashes.#BLOCK);
    if (this.#file) nodeFs().readSync(this.#file.fd, hashes, 0, hashes.byteLength, this.#offset(index));
    return { index, hashes };
  }

  #offset(index: number): number {
    return (index - LineHashes.#IN_MEMORY) * LineHashes.#BLOCK * 4;
  }
}

/** Digests in the order they came, 8 bytes each, in one growing array (no object per digest). */
export class DigestList {
  #values = new BigUint64Array(1024);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(digest: bigint): void {
    if (this.#length === this.#values.length) {
      const grown = new BigUint64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#length++] = digest;
  }

  at(index: number): bigint | undefined {
    return index >= 0 && index < this.#length ? this.#values[index] : undefined;
  }

  /** Sorted, each digest once: the form kept on disk and searched. */
  sortedUnique(): BigUint64Array {
    const sorted = this.#values.slice(0, this.#length).sort();
    let kept = 0;
    for (let i = 0; i < sorted.length; i++)
      if (i === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i] as bigint;
    return sorted.subarray(0, kept);
  }
}

/** Whether `digest` is in a sorted array of digests. */
export function sortedHas(sorted: BigUint64Array, digest: bigint): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const value = sorted[mid] as bigint;
    if (value === digest) return true;
    if (value < digest) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** A running digest of every row's request, in order: what names a run. */
export class RunDigest {
  readonly #hash = crypto().createHash('sha256');
  // Texts are handed to the hash some 64 KiB at a time: one call per row would cost more than the hashing.
  #pending = '';

  /** Adds a row's requestText. */
  add(text: string): void {
    this.#pending += `${text}\n`;
    if (this.#pending.length > 65_536) this.#flush();
  }

  hex(): string {
    this.#flush();
    return this.#hash.digest('hex');
  }

  #flush(): void {
    this.#hash.update(this.#pending);
    this.#pending = '';
  }
}
