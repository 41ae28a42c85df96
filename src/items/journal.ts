// The journal of an item run: one JSON line per event, appended and flushed to disk as it happens, so that a
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
// (the account: profile, base URL and version; the operation; the input's name and digest; the options applied
// to every row). The first line names them (see RunIdentity), so that a run with other options, or of a file
// edited since, can be told apart from a resume (src/items/runs.ts). A run that completes removes its journal and
// leaves a small record of what it did instead. An interrupted or failed run keeps it. `--restart` discards it.
// Journals untouched for 30 days are pruned.
//
// Every line is checked as it is read back: a `done` line whose fields have the wrong type is not believed.
// A damaged journal is not a reason to send everything again (and pay twice): every chunk without a sound
// `done` line is then treated as maybe sent, which makes the runner look its numbers up before sending them. A run
// that starts where the record of an earlier one is damaged (src/items/runs.ts, sent.ts) is made the same way
// (`unknownPast`, kept in the head line so that a resume of it looks up as well).
//
// Beside each journal, its rows log (src/items/rows-log.ts) says which rows each chunk held, for the day its
// file is rewritten before the run is finished.
//
// One run at a time per journal: a lock file holding the owner's pid and start time refuses a second process (a
// cron job overlapping the previous one) and is taken over when that process is gone, even if its pid now
// belongs to another process.

import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { RejectedItem } from '@trk/service/types.js';
import { keepPrivate, ownFolder, PRIVATE_FILE_MODE, type Warn } from '../core/private-files.js';
import { TrkError } from '../core/errors.js';
import type { ItemOperation } from './fields.js';
import { isAlive, processStartTime, pruneFiles } from './leftovers.js';
import { rowsLogFile } from './rows-log.js';
import type { SourceKind } from './source.js';
import { nodeCrypto } from '../core/node.js';
import { clock } from '../core/clock.js';

export const JOURNAL_FORMAT = 3;
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
  /**
   * Numbers (as keys) of the chunk not done because the account refused them (quota exhausted, daily limit, no
   * webhook URL): certainly not processed, sent again by the next run.
   */
  pending?: string[];
}

/** What names a run: written as a journal's first line and kept in the record of a finished run. */
export interface RunIdentity {
  op: ItemOperation;
  /** The trk command, for people reading `trk runs`. */
  command: string;
  account: { profile: string; baseUrl: string; version: ApiVersion };
  input: { kind: SourceKind; display: string; name: string; digest: string };
  /** Values applied to every row (flags), list filters, column mappings: runs with other options differ. */
  options: Record<string, unknown>;
}

/** The key of a run: every part of its identity. */
export function runKey(id: RunIdentity): string {
  const identity = JSON.stringify([id.op, id.account, id.input.name, id.input.digest, id.options]);
  return nodeCrypto().hash('sha256', identity).slice(0, 32);
}

export interface JournalOpenOptions {
  dir: string;
  identity: RunIdentity;
  /** Discard an existing journal. */
  restart?: boolean;
  now?: number;
  /** The id of the record of rows sent before that the run left out (src/items/sent.ts), if any. */
  sentId?: string | undefined;
  /** Nothing is known of what was sent before (a damaged record): every chunk is taken as maybe sent. */
  unknownPast?: boolean | undefined;
  /** Says when the folder or a journal found open to others was made private. */
  warn: Warn;
}

/** A journal read without taking it over: for --dry-run and `trk runs`. */
export interface JournalSummary {
  file: string;
  key: string;
  identity?: RunIdentity;
  created?: string;
  /** Items with a sound `done` line (not counting their pending ones). */
  doneItems: number;
  doneChunks: Set<number>;
  modified: number;
  /** Locked by a live process. */
  running: boolean;
  /** The id of the record of rows sent before that the run left out; null for none. */
  sentId?: string | null;
}

/** What a journal says of each chunk: outcomes of the done ones, and the ones sent without an outcome. */
export interface JournalChunks {
  done: Map<number, ChunkOutcome>;
  sent: Set<number>;
  /** Damaged, or made with nothing known of the past: a chunk not done may have been sent. */
  doubtful: boolean;
}

export class Journal {
  readonly file: string;
  readonly #lockFile: string;
  #fd: number;
  /** Chunk → byte range of its last sound `done` line. */
  readonly #done = new Map<number, { at: number; length: number }>();
  /** Chunks with a `send` line and no `done` line. */
  readonly #sent = new Set<number>();
  /** True when the journal existed with chunks in it. */
  readonly resumed: boolean;
  /** The line where damage was found: every chunk not soundly done is then taken as maybe sent. */
  damagedAt: number | undefined;
  /** Made with nothing known of what was sent before: every chunk not soundly done is taken as maybe sent. */
  #unknownPast = false;
  #closed = false;

  private constructor(file: string, lockFile: string, fd: number, resumed: boolean) {
    this.file = file;
    this.#lockFile = lockFile;
    this.#fd = fd;
    this.resumed = resumed;
  }

  static open(opts: JournalOpenOptions): Journal {
    ownFolder(opts.dir, 'journals folder', opts.warn);
    pruneOld(opts.dir);
    const file = path.join(opts.dir, `${runKey(opts.identity)}.jsonl`);
    const lockFile = `${file}.lock`;
    takeRunLock(lockFile);
    try {
      if (opts.restart) rmSync(file, { force: true });
      keepPrivate(file, 'journal', opts.warn);
      const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND, PRIVATE_FILE_MODE);
      const journal = new Journal(file, lockFile, fd, fstatSync(fd).size > 0);
      journal.#load();
      if (fstatSync(fd).size === 0) {
        journal.#unknownPast = opts.unknownPast === true;
        journal.#append({
          t: 'head',
          format: JOURNAL_FORMAT,
          ...opts.identity,
          created: new Date(opts.now ?? clock().now()).toISOString(),
          sent: opts.sentId ?? null,
          unknownPast: journal.#unknownPast,
        });
      }
      return journal;
    } catch (err) {
      rmSync(lockFile, { force: true });
      throw err;
    }
  }

  /** Every journal in `dir`, read without taking any over. */
  static list(dir: string): JournalSummary[] {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const out: JournalSummary[] = [];
    for (const name of names) {
      const summary = Journal.inspect(path.join(dir, name));
      if (summary) out.push(summary);
    }
    return out;
  }

  /** One journal's identity and what it records as done, without taking it over; undefined if absent. */
  static inspect(file: string): JournalSummary | undefined {
    return readJournal(file, undefined, (fd) => {
      const st = fstatSync(fd);
      const summary: JournalSummary = {
        file,
        key: path.basename(file, '.jsonl'),
        doneItems: 0,
        doneChunks: new Set(),
        modified: st.mtimeMs,
        running: lockOwnerAlive(`${file}.lock`),
      };
      const items = new Map<number, number>();
      scanLines(fd, st.size, (line) => {
        const e = parseLine(line);
        if (e?.t === 'head') {
          summary.identity = identityOf(e);
          if (typeof e.created === 'string') summary.created = e.created;
          summary.sentId = typeof e.sent === 'string' ? e.sent : null;
        }
        const done = e ? doneEntry(e) : undefined;
        if (done) {
          summary.doneChunks.add(done.c);
          items.set(done.c, done.outcome.accepted.length + done.outcome.rejected.length + done.outcome.already.length);
        }
      });
      for (const n of items.values()) summary.doneItems += n;
      return summary;
    });
  }

  /** Each chunk's state as the journal at `file` records it, read without taking it over. */
  static chunks(file: string): JournalChunks {
    const out: JournalChunks = { done: new Map(), sent: new Set(), doubtful: false };
    return readJournal(file, out, (fd) => {
      scanLines(fd, fstatSync(fd).size, (line) => {
        const e = parseLine(line);
        const done = e ? doneEntry(e) : undefined;
        if (done) {
          out.done.set(done.c, done.outcome);
          out.sent.delete(done.c);
        } else if (e?.t === 'head') {
          if (e.unknownPast === true) out.doubtful = true;
        } else if (e?.t === 'send' && typeof e.c === 'number') out.sent.add(e.c);
        else if (e?.t === 'unsent' && typeof e.c === 'number') out.sent.delete(e.c);
        else out.doubtful = true;
      });
      return out;
    });
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
    return this.#sent.has(chunk) || ((this.damagedAt !== undefined || this.#unknownPast) && !this.#done.has(chunk));
  }

  /** The recorded outcome of a done chunk, read back from the file. */
  outcome(chunk: number): ChunkOutcome | undefined {
    const where = this.#done.get(chunk);
    if (!where) return undefined;
    const buf = Buffer.alloc(where.length);
    readSync(this.#fd, buf, 0, where.length, where.at);
    const e = parseLine(buf);
    return e ? doneEntry(e)?.outcome : undefined;
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
    const entry: Record<string, unknown> = {
      t: 'done',
      c: chunk,
      a: outcome.accepted,
      r: outcome.rejected,
      k: outcome.already,
    };
    if (outcome.notFound !== undefined) entry.nf = outcome.notFound;
    if (outcome.pending !== undefined && outcome.pending.length > 0) entry.p = outcome.pending;
    const range = this.#append(entry);
    this.#done.set(chunk, range);
    this.#sent.delete(chunk);
  }

  /** The run finished: the journal has served its purpose. */
  complete(): void {
    this.close();
    rmSync(this.file, { force: true });
    rmSync(rowsLogFile(this.file), { force: true });
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
    const e = parseLine(line);
    const damaged = () => {
      this.damagedAt ??= lineNo;
    };
    if (!e) {
      damaged();
      return;
    }
    if (e.t === 'head') {
      if (e.unknownPast === true) this.#unknownPast = true;
      return;
    }
    const c = e.c;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 0) {
      damaged();
      return;
    }
    if (e.t === 'send') this.#sent.add(c);
    else if (e.t === 'unsent') this.#sent.delete(c);
    else if (e.t === 'done') {
      if (!doneEntry(e)) {
        // Not believed: the chunk may have been sent, so it is looked up (or re-sent if that is harmless).
        this.#sent.add(c);
        this.#done.delete(c);
        damaged();
        return;
      }
      this.#done.set(c, { at, length: line.length });
      this.#sent.delete(c);
    } else damaged();
  }
}

/** `read` of the journal at `file`, opened for reading and closed after; `absent` when there is no such file. */
function readJournal<T>(file: string, absent: T, read: (fd: number) => T): T {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return absent;
  }
  try {
    return read(fd);
  } finally {
    closeSync(fd);
  }
}

type Line = Record<string, unknown>;

function parseLine(line: Buffer): Line | undefined {
  try {
    const e = JSON.parse(line.toString('utf8')) as unknown;
    return typeof e === 'object' && e !== null && !Array.isArray(e) ? (e as Line) : undefined;
  } catch {
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRejected = (v: unknown): v is RejectedItem =>
  isRecord(v) &&
  (typeof v.number === 'string' || typeof v.number === 'number') &&
  isRecord(v.error) &&
  typeof v.error.code === 'number';

/** A `done` line's chunk and outcome when every field has its type; undefined for a line not to be believed. */
function doneEntry(e: Line): { c: number; outcome: ChunkOutcome } | undefined {
  const { c, a, r, k, nf, p } = e;
  if (e.t !== 'done' || typeof c !== 'number' || !Number.isInteger(c) || c < 0) return undefined;
  if (
    !Array.isArray(a) ||
    !a.every((x) => isRecord(x) && (typeof x.number === 'string' || typeof x.number === 'number'))
  )
    return undefined;
  if (!Array.isArray(r) || !r.every(isRejected) || !Array.isArray(k) || !k.every(isRejected)) return undefined;
  if (nf !== undefined && (typeof nf !== 'number' || !Number.isInteger(nf) || nf < 0)) return undefined;
  if (p !== undefined && (!Array.isArray(p) || !p.every((x) => typeof x === 'string'))) return undefined;
  const outcome: ChunkOutcome = {
    accepted: a as Record<string, unknown>[],
    rejected: r as RejectedItem[],
    already: k as RejectedItem[],
  };
  if (typeof nf === 'number') outcome.notFound = nf;
  if (Array.isArray(p)) outcome.pending = p as string[];
  return { c, outcome };
}

function identityOf(e: Line): RunIdentity | undefined {
  const { op, command, account, input, options } = e;
  if (
    typeof op !== 'string' ||
    typeof command !== 'string' ||
    !isRecord(account) ||
    !isRecord(input) ||
    !isRecord(options)
  )
    return undefined;
  return {
    op: op as ItemOperation,
    command,
    account: account as RunIdentity['account'],
    input: input as RunIdentity['input'],
    options,
  };
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
      writeSync(fd, JSON.stringify({ pid: process.pid, started: processStartTime(process.pid) ?? null }));
      closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = lockOwner(lockFile);
    if (owner !== undefined) {
      throw new TrkError(`another trk process (pid ${owner}) is running this same import`, {
        hint: 'wait for it to finish; it resumes where an interrupted run stopped',
      });
    }
    // Its owner is gone (killed): take it over.
    rmSync(lockFile, { force: true });
  }
  throw new TrkError(`cannot take the lock ${lockFile}`, { hint: 'remove it if no trk process is running' });
}

/** What a lock file holds. */
interface LockText {
  pid: number;
  /** processStartTime of the owner; null where it could not be read. */
  started?: unknown;
}

/**
 * The pid of the live process holding the lock, if any. A lock names its owner by pid and start time (older
 * trk wrote the pid alone): a live pid that started at another time is another process, and the lock is stale.
 */
function lockOwner(lockFile: string): number | undefined {
  const text = readText(lockFile).trim();
  let pid: number;
  let started: unknown;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'number') pid = parsed;
    else if (typeof parsed === 'object' && parsed !== null) ({ pid, started } = parsed as LockText);
    else return undefined;
  } catch {
    return undefined;
  }
  if (pid === process.pid || !isAlive(pid)) return undefined;
  const now = processStartTime(pid);
  if (typeof started === 'string' && now !== undefined && now !== started) return undefined;
  return pid;
}

function lockOwnerAlive(lockFile: string): boolean {
  return lockOwner(lockFile) !== undefined;
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function pruneOld(dir: string): void {
  const cutoff = Date.now() - PRUNE_AFTER_MS;
  pruneFiles(
    dir,
    (name, st, file) => name.endsWith('.jsonl') && st.mtimeMs < cutoff && !lockOwnerAlive(`${file}.lock`),
  );
  // A rows log goes with its journal (written once, it is older than the journal it serves).
  pruneFiles(dir, (name, _st, file) => name.endsWith('.rows') && !existsSync(`${file.slice(0, -5)}.jsonl`));
}
