// Items held back until the end of an output: the already and rejected items of an item command come after
// every accepted one (in its JSON document as in its rows), while answers settle in any order. They are kept as
// JSON lines, in memory up to a ceiling and beyond it in a private temporary file, so that holding them back costs
// no more memory for a million rejected numbers than for ten. The items are the service's, parsed from JSON: a
// line read back is the item as it was.

import { tmpdir } from 'node:os';
import path from 'node:path';
import { nodeFs } from '../core/node.js';
import { PRIVATE_FILE_MODE } from '../core/private-files.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } = nodeFs();

/** What is kept in memory before the file is started. */
export const SPILL_MEMORY_BYTES = 1024 * 1024;

export class Spill {
  #lines: string[] = [];
  #bytes = 0;
  #dir: string | undefined;
  #fd: number | undefined;
  #count = 0;
  readonly #limit: number;

  constructor(limitBytes: number = SPILL_MEMORY_BYTES) {
    this.#limit = limitBytes;
  }

  get count(): number {
    return this.#count;
  }

  push(item: unknown): void {
    const line = `${JSON.stringify(item) ?? 'null'}\n`;
    this.#lines.push(line);
    this.#bytes += line.length;
    this.#count += 1;
    if (this.#bytes > this.#limit) this.#toFile();
  }

  /** Every item in the order pushed; the spill is empty afterwards. */
  async *drain(): AsyncGenerator<unknown> {
    try {
      if (this.#fd !== undefined) {
        closeSync(this.#fd);
        this.#fd = undefined;
        yield* readLines(path.join(this.#dir as string, 'items.ndjson'));
      }
      const rest = this.#lines;
      this.#lines = [];
      for (const line of rest) yield JSON.parse(line) as unknown;
    } finally {
      this.discard();
    }
  }

  /** Drop what is held (and the file). */
  discard(): void {
    this.#lines = [];
    this.#bytes = 0;
    this.#count = 0;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
  }

  #toFile(): void {
    if (this.#fd === undefined) {
      this.#dir = mkdtempSync(path.join(tmpdir(), 'trk-output-'));
      this.#fd = openSync(path.join(this.#dir, 'items.ndjson'), 'wx', PRIVATE_FILE_MODE);
    }
    writeSync(this.#fd, this.#lines.join(''));
    this.#lines = [];
    this.#bytes = 0;
  }
}

/** The items of a file of JSON lines, read a piece at a time. */
function* readLines(file: string): Generator<unknown> {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const decoder = new TextDecoder();
    let rest = '';
    for (;;) {
      const n = readSync(fd, buffer);
      if (n === 0) break;
      const lines = (rest + decoder.decode(buffer.subarray(0, n), { stream: true })).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) yield JSON.parse(line) as unknown;
    }
  } finally {
    closeSync(fd);
  }
}
