// The journal of a bulk run: one JSON line per event, appended and flushed to disk as it happens, so that a
// run killed at any moment (Ctrl-C, kill -9, the machine going down) can be resumed without sending anything
// twice. Before a request of a chunk is sent, a `send` line is written; when the chunk's outcome is complete, a
// `done` line with the service's accepted and rejected items. On resume:
//   - a chunk with a `done` line is not sent again (its outcome is read back for the summary and rejects);
//   - a chunk with a `send` line but no `done` may have been processed: it is verified first;
//   - any other chunk is sent normally.
// A kill during a write leaves a last line without its newline: it is dropped (and cut off the file). A
// dropped `send` line is harmless, because the request is only sent after the line is on disk.
//
// Journals live in `<state dir>/journals/<key>.jsonl`, keyed by everything that makes two runs the same run
// (profile, base URL, version, operation, the input's identity, the flags applied to every row). A run that
// completes removes its journal: running the same command again then starts afresh (the service answers
// "already registered" for what is there), which is what a daily cron import of a fixed file expects. An
// interrupted or failed run keeps it. `--restart` discards it. Journals untouched for 30 days are pruned.
//
// One run at a time per journal: a lock file holding the owner's pid refuses a second process (a cron job
// overlapping the previous one) and is taken over when that pid is gone.

import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { RejectedItem } from '../api/types.js';
import { ensurePrivateDir } from '../config/paths.js';
import { TrkError } from '../errors.js';

export const JOURNAL_FORMAT = 1;
const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;

/** What the service answered for a chunk, merged over its attempts. */
export interface ChunkOutcome {
  /** Accepted items as the service sent them; found by verification: `verified: true`. */
  accepted: Record<string, unknown>[];
  /** Rejected items that need attention. */
  rejected: RejectedItem[];
  /** Rejected items whose code means the work was already done (e.g. -18019901 already registered). */
  already: RejectedItem[];
  /** gettracklist: numbers of the chunk with no record. */
  notFound?: number;
}

/** The parts that make two runs the same run. */
export function journalKey(parts: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

export interface JournalOpenOptions {
  dir: string;
  key: string;
  /** Written as the first line, for a person reading the file. */
  describe: Record<string, unknown>;
  /** Discard an existing journal. */
  restart?: boolean;
}

export class Journal {
  readonly file: string;
  readonly #lockFile: string;
  #fd: number;
  /** Chunk → byte range of its `done` line. */
  readonly #done = new Map<number, { at: number; length: number }>();
  /** Chunks with a `send` line and no `done` line. */
  readonly #sent = new Set<number>();
  /** True when the journal existed with chunks in it. */
  readonly resumed: boolean;
  #closed = false;

  private constructor(file: string, lockFile: string, fd: number, resumed: boolean) {
    this.file = file;
    this.#lockFile = lockFile;
    this.#fd = fd;
    this.resumed = resumed;
  }

  static open(opts: JournalOpenOptions): Journal {
    ensurePrivateDir(opts.dir);
    pruneOld(opts.dir);
    const file = path.join(opts.dir, `${opts.key}.jsonl`);
    const lockFile = `${file}.lock`;
    takeRunLock(lockFile);
    try {
      if (opts.restart) rmSync(file, { force: true });
      const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND, 0o600);
      const journal = new Journal(file, lockFile, fd, fstatSync(fd).size > 0);
      journal.#load();
      if (fstatSync(fd).size === 0) journal.#append({ t: 'head', format: JOURNAL_FORMAT, ...opts.describe });
      return journal;
    } catch (err) {
      rmSync(lockFile, { force: true });
      throw err;
    }
  }

  /** The chunks an existing journal records as done, without taking it over (for --dry-run). */
  static inspect(dir: string, key: string): Set<number> | undefined {
    const file = path.join(dir, `${key}.jsonl`);
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return undefined;
    }
    try {
      const done = new Set<number>();
      scanLines(fd, fstatSync(fd).size, (line) => {
        try {
          const e = JSON.parse(line.toString('utf8')) as { t?: unknown; c?: unknown };
          if (e.t === 'done' && typeof e.c === 'number') done.add(e.c);
        } catch {
          // a damaged line: the real run reports it
        }
      });
      return done;
    } finally {
      closeSync(fd);
    }
  }

  /** Created by this run, and nothing sent through it yet. */
  get isFresh(): boolean {
    return !this.resumed && this.#done.size === 0 && this.#sent.size === 0;
  }

  isDone(chunk: number): boolean {
    return this.#done.has(chunk);
  }

  /** A request of this chunk was (or may have been) sent without its outcome being recorded. */
  wasSent(chunk: number): boolean {
    return this.#sent.has(chunk);
  }

  /** The recorded outcome of a done chunk, read back from the file. */
  outcome(chunk: number): ChunkOutcome | undefined {
    const where = this.#done.get(chunk);
    if (!where) return undefined;
    const buf = Buffer.alloc(where.length);
    readSync(this.#fd, buf, 0, where.length, where.at);
    const e = JSON.parse(buf.toString('utf8')) as { a?: unknown; r?: unknown; k?: unknown; nf?: unknown };
    return {
      accepted: Array.isArray(e.a) ? (e.a as Record<string, unknown>[]) : [],
      rejected: Array.isArray(e.r) ? (e.r as RejectedItem[]) : [],
      already: Array.isArray(e.k) ? (e.k as RejectedItem[]) : [],
      ...(typeof e.nf === 'number' ? { notFound: e.nf } : {}),
    };
  }

  /** Before a request of `chunk` leaves: on disk before the request can be. */
  markSent(chunk: number): void {
    if (this.#sent.has(chunk)) return;
    this.#append({ t: 'send', c: chunk });
    this.#sent.add(chunk);
  }

  /** The chunk's request never left (interrupted while waiting for its turn): no need to verify it later. */
  markUnsent(chunk: number): void {
    if (!this.#sent.has(chunk)) return;
    this.#append({ t: 'unsent', c: chunk });
    this.#sent.delete(chunk);
  }

  markDone(chunk: number, outcome: ChunkOutcome): void {
    const entry: Record<string, unknown> = { t: 'done', c: chunk, a: outcome.accepted, r: outcome.rejected, k: outcome.already };
    if (outcome.notFound !== undefined) entry.nf = outcome.notFound;
    const range = this.#append(entry);
    this.#done.set(chunk, range);
    this.#sent.delete(chunk);
  }

  /** The run finished: the journal has served its purpose. */
  complete(): void {
    this.close();
    rmSync(this.file, { force: true });
  }

  /** Keep the journal for a later resume; release the run lock. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
    rmSync(this.#lockFile, { force: true });
  }

  #append(entry: Record<string, unknown>): { at: number; length: number } {
    const text = `${JSON.stringify(entry)}\n`;
    const buf = Buffer.from(text, 'utf8');
    const at = fstatSync(this.#fd).size;
    writeSync(this.#fd, buf);
    // Flushed per line: a few lines a second, each of which may stand between a quota unit and a second charge.
    fdatasyncSync(this.#fd);
    return { at, length: buf.length - 1 };
  }

  /** Read the existing lines: byte ranges of `done` lines, the set of sent chunks; cut a torn last line. */
  #load(): void {
    const size = fstatSync(this.#fd).size;
    const end = scanLines(this.#fd, size, (line, at, lineNo) => this.#take(line, at, lineNo));
    if (end < size) ftruncateSync(this.#fd, end);
  }

  #take(line: Buffer, at: number, lineNo: number): void {
    let e: { t?: unknown; c?: unknown };
    try {
      e = JSON.parse(line.toString('utf8')) as { t?: unknown; c?: unknown };
    } catch {
      throw new TrkError(`the journal ${this.file} is damaged at line ${lineNo}`, {
        hint: 'move it away and run again with --restart (numbers already registered are then answered as such)',
      });
    }
    if (typeof e.c !== 'number') return;
    if (e.t === 'send') this.#sent.add(e.c);
    else if (e.t === 'unsent') this.#sent.delete(e.c);
    else if (e.t === 'done') {
      this.#done.set(e.c, { at, length: line.length });
      this.#sent.delete(e.c);
    }
  }
}

/**
 * Call `take` for every complete line of the file (`at`: byte offset); returns the end of the last complete
 * line. Lines are split on newline bytes: JSON text never holds a raw one.
 */
function scanLines(fd: number, size: number, take: (line: Buffer, at: number, lineNo: number) => void): number {
  const block = Buffer.alloc(1 << 20);
  let carry = Buffer.alloc(0);
  let offset = 0; // file offset of the first byte of `carry`
  let lineNo = 0;
  let read = 0;
  let end = 0;
  while (read < size) {
    const n = readSync(fd, block, 0, Math.min(block.length, size - read), read);
    if (n <= 0) break;
    read += n;
    const data = carry.length > 0 ? Buffer.concat([carry, block.subarray(0, n)]) : block.subarray(0, n);
    let start = 0;
    for (let nl = data.indexOf(10, start); nl >= 0; nl = data.indexOf(10, start)) {
      lineNo += 1;
      take(data.subarray(start, nl), offset + start, lineNo);
      start = nl + 1;
      end = offset + start;
    }
    offset += start;
    // `block` is reused: keep a copy of the unfinished line.
    carry = Buffer.from(data.subarray(start));
  }
  return end;
}

/** Take the run lock of a journal, or say who holds it. */
function takeRunLock(lockFile: string): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number.parseInt(readText(lockFile), 10);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      throw new TrkError(`another trk process (pid ${pid}) is running this same import`, {
        hint: 'wait for it to finish; it resumes where an interrupted run stopped',
      });
    }
    // Its owner is gone (killed): take it over.
    rmSync(lockFile, { force: true });
  }
  throw new TrkError(`cannot take the lock ${lockFile}`, { hint: 'remove it if no trk process is running' });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function pruneOld(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const cutoff = Date.now() - PRUNE_AFTER_MS;
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const file = path.join(dir, name);
    try {
      if (statSync(file).mtimeMs < cutoff && !existsLock(`${file}.lock`)) rmSync(file, { force: true });
    } catch {
      // raced with another process: nothing to do
    }
  }
}

function existsLock(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
