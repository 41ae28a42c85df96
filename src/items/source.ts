// Where an item command's numbers come from: arguments, a file (`-f FILE`), or standard input (`-f -`, or a
// pipe with neither). Whatever the way in, the run gets one ItemSource it can read as often as it needs: the
// engine reads its input twice (a checking pass, then the sending pass). A file is opened again for each pass;
// standard input (or a named pipe, `-f <(cmd)`) is first copied to a private spool file, checked as it comes
// and bounded in size; arguments are kept as they are. Anything else (a device, a socket) is refused: `-f
// /dev/urandom` would never end.

import type { Stats } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ownFolder, PRIVATE_FILE_MODE, type Warn } from '../core/private-files.js';
import { TrkError, UsageError } from '../core/errors.js';
import type { IO } from '../io/io.js';
import { sanitizeTerminalText } from '../io/terminal-text.js';
import { detectEncoding, hasNul, LineGuard, MAX_LINE_BYTES } from './read-text.js';
import { nodeFs, nodeFsPromises } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { closeSync, createReadStream, createWriteStream, openSync, realpathSync, rmSync, statSync } = nodeFs();

export type SourceKind = 'arguments' | 'stdin' | 'file';

export interface ItemSource {
  kind: SourceKind;
  /** How messages name it: the path as given, `stdin`, or `the arguments`. */
  display: string;
  /**
   * What names the same input on another day, to find an interrupted run of it: the file's real path, or
   * `stdin`. Arguments are never journaled.
   */
  name: string;
  /** Bytes (0 for arguments). */
  size: number;
  /** The arguments, for a source of arguments. */
  args?: readonly string[];
  /** A fresh stream of the input's bytes, for one pass (not for arguments). */
  open(): Readable;
  /** The first few KiB, to tell the encoding and the format. */
  head(): Promise<Buffer>;
  /** Where a row is, for messages: `numbers.csv line 7`, `stdin line 7`, or `argument 2`. */
  locate(line: number): string;
  /** Throws when a file changed since it was opened: chunk numbers of a journal would not hold. */
  assertUnchanged(): void;
  /** Whether `file` is this input (same device and inode, or the same real path). */
  isSameFile(file: string): boolean;
  /** Removes the spool copy of stdin; nothing for the others. */
  cleanup(): Promise<void>;
}

export interface SourceFlags {
  numbers: readonly string[];
  /** `-f FILE`; `-` is stdin. */
  file?: string | undefined;
}

const NO_NUMBERS_HINT = 'pass them as arguments, with -f FILE, or on stdin';
/** Spool copies older than this, or of a process that is gone, are removed when a new one is made. */
const SPOOL_PRUNE_MS = 24 * 3600 * 1000;

/** Bytes of stdin (or a named pipe) kept at most: some 16 million rows of number, carrier, tag and e-mail. */
export const MAX_SPOOL_BYTES = 1024 * 1024 * 1024;

export interface SpoolLimits {
  /** Default MAX_SPOOL_BYTES. */
  maxBytes?: number;
  /** Default MAX_LINE_BYTES (read-text.ts). */
  maxLineBytes?: number;
}

/** The source the flags name. A terminal on stdin with nothing else given is a usage error, not a silent wait. */
export async function openSource(
  flags: SourceFlags,
  io: IO,
  spoolDir: string,
  limits: SpoolLimits = {},
): Promise<ItemSource> {
  if (flags.file !== undefined && flags.numbers.length > 0) {
    throw new UsageError('give the numbers as arguments or with -f, not both', 'put them all in the file');
  }
  if (flags.numbers.length > 0) return argumentsSource(flags.numbers);
  const spool = { dir: spoolDir, warn: (line: string) => io.err(sanitizeTerminalText(line)), limits };
  if (flags.file === '-' || (flags.file === undefined && !io.stdinIsTTY)) return spoolStream(io.stdin, 'stdin', spool);
  if (flags.file === undefined) throw new UsageError('no tracking numbers given', NO_NUMBERS_HINT);
  const file = flags.file;
  if (statOf(file)?.isFIFO()) return spoolStream(createReadStream(path.resolve(file)), file, spool);
  return fileSource(file);
}

function statOf(file: string): Stats | undefined {
  try {
    return statSync(path.resolve(file));
  } catch {
    return undefined; // fileSource says why
  }
}

export function argumentsSource(args: readonly string[]): ItemSource {
  return {
    kind: 'arguments',
    display: args.length === 1 ? 'the argument' : 'the arguments',
    name: '',
    size: 0,
    args,
    open: () => Readable.from([]),
    head: async () => Buffer.alloc(0),
    locate: (n) => `argument ${n}`,
    assertUnchanged: () => {},
    isSameFile: () => false,
    cleanup: async () => {},
  };
}

function fileSource(file: string): ItemSource {
  const abs = path.resolve(file);
  const cannot = (why: string) =>
    new UsageError(`cannot read ${file}: ${why}`, 'give a readable CSV or JSON file, or - for stdin; nothing was sent');
  let st: Stats;
  try {
    st = statSync(abs);
    if (st.isDirectory()) throw cannot('it is a directory');
    if (!st.isFile()) throw cannot('it is neither a regular file nor a pipe');
    // Opened once now, so that a file without read permission is refused here rather than mid-run.
    closeSync(openSync(abs, 'r'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw cannot(fsReason(err));
  }
  const real = safeRealpath(abs);
  const stamp = (s: Stats) => `${s.size} ${Math.trunc(s.mtimeMs)}`;
  const opened = stamp(st);
  return {
    kind: 'file',
    display: file,
    name: real,
    size: st.size,
    open: () => createReadStream(abs),
    head: () => headOf(abs),
    locate: (n) => `${file} line ${n}`,
    assertUnchanged() {
      let now: Stats;
      try {
        now = statSync(abs);
      } catch (err) {
        throw new TrkError(`cannot read ${file}: ${fsReason(err)}`);
      }
      if (stamp(now) !== opened)
        throw new UsageError(`${file} changed while trk was reading it`, 'run again once the file is complete');
    },
    isSameFile: (other) => sameFile(st, real, other),
    cleanup: async () => {},
  };
}

/**
 * Copy stdin (or a named pipe) to a private spool file (the run reads it twice) and prune copies left by killed
 * runs. The bytes are checked as they come: a line over the bound, a NUL byte in text that is not UTF-16, or more
 * than the spool's bound stops the copy at once (exit 2), so that an endless pipe neither fills the disk nor
 * waits for an end that never comes.
 */
async function spoolStream(
  input: Readable,
  display: string,
  { dir: spoolDir, warn, limits }: { dir: string; warn: Warn; limits: SpoolLimits },
): Promise<ItemSource> {
  ownFolder(spoolDir, 'spool folder', warn);
  await pruneSpool(spoolDir);
  const { uniqueStamp } = await import('./leftovers.js');
  const spool = path.join(spoolDir, `stdin-${uniqueStamp()}.csv`);
  const check = new SpoolCheck(display, limits);
  try {
    await pipeline(
      input,
      async function* (chunks: AsyncIterable<Buffer | string>) {
        for await (const chunk of chunks) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          check.feed(buf);
          yield buf;
        }
      },
      createWriteStream(spool, { mode: PRIVATE_FILE_MODE }),
    );
  } catch (err) {
    rmSync(spool, { force: true });
    // Stop reading: an endless pipe's writer gets EPIPE rather than trk waiting on it.
    input.destroy();
    if (err instanceof UsageError) throw err;
    throw new TrkError(`cannot keep a copy of ${display} in ${spoolDir}: ${fsReason(err)}`, {
      hint: 'free some space there, or set TRK_STATE_DIR to another folder',
    });
  }
  return {
    kind: 'stdin',
    display,
    name: display === 'stdin' ? 'stdin' : safeRealpath(path.resolve(display)),
    size: check.size,
    open: () => createReadStream(spool),
    head: () => headOf(spool),
    locate: (n) => `${display} line ${n}`,
    assertUnchanged: () => {},
    isSameFile: () => false,
    cleanup: () => fsPromises().rm(spool, { force: true }),
  };
}

/** The checks of bytes being spooled: size, line length, and (from the first bytes) that they are text. */
class SpoolCheck {
  size = 0;
  readonly #lines: LineGuard;
  readonly #maxBytes: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #textChecked = false;
  #utf16 = false;

  constructor(
    private readonly display: string,
    limits: SpoolLimits,
  ) {
    this.#maxBytes = limits.maxBytes ?? MAX_SPOOL_BYTES;
    this.#lines = new LineGuard((line) => `${display} line ${line}`, limits.maxLineBytes ?? MAX_LINE_BYTES);
  }

  feed(buf: Buffer): void {
    this.size += buf.length;
    if (this.size > this.#maxBytes) {
      throw new UsageError(
        `${this.display} is larger than ${Math.round(this.#maxBytes / 1024 / 1024)} MiB, the most trk keeps of a pipe`,
        'write it to a file and pass -f FILE (a file is read where it is); nothing was sent',
      );
    }
    this.#checkText(buf);
    // UTF-16 has a zero byte beside every line feed; its lines are bounded when the spool is read.
    if (!this.#utf16) this.#lines.feed(buf);
  }

  /** Once the first bytes are in: UTF-16, or text without NUL bytes (checked in every chunk after). */
  #checkText(buf: Buffer): void {
    if (!this.#textChecked) {
      this.#head.push(buf);
      this.#headBytes += buf.length;
      if (this.#headBytes < 4) return;
      const head = Buffer.concat(this.#head);
      this.#head = [];
      this.#textChecked = true;
      const encoding = detectEncoding(head);
      this.#utf16 = encoding === 'utf-16le' || encoding === 'utf-16be';
      if (hasNul(head, encoding)) throw notText(this.display);
      return;
    }
    if (!this.#utf16 && buf.includes(0)) throw notText(this.display);
  }
}

function notText(display: string): UsageError {
  return new UsageError(
    `${display} is not text (it holds NUL bytes)`,
    'give a CSV, TSV or JSON file, or one number a line; nothing was sent',
  );
}

const HEAD_BYTES = 4096;

/** node:fs/promises, loaded by the first file or pipe: `trk info N` does not need it (0.5 ms of a start). */
const fsPromises = () => nodeFsPromises();

async function headOf(file: string): Promise<Buffer> {
  const handle = await fsPromises().open(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function pruneSpool(dir: string): Promise<void> {
  const { isAlive, pruneFiles } = await import('./leftovers.js');
  const cutoff = Date.now() - SPOOL_PRUNE_MS;
  pruneFiles(dir, (name, st) => {
    const owner = /^stdin-(\d+)-/.exec(name);
    return owner !== null && (!isAlive(Number(owner[1])) || st.mtimeMs < cutoff);
  });
}

/** Whether `other` names the file whose stat is `st` (hard links and symbolic links included). */
function sameFile(st: Stats, real: string, other: string): boolean {
  const abs = path.resolve(other);
  try {
    const o = statSync(abs);
    if (o.dev === st.dev && o.ino === st.ino) return true;
  } catch {
    // does not exist yet: compare paths
  }
  return safeRealpath(abs) === real;
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    // A file not there yet: its folder's real path and its name.
    try {
      return path.join(realpathSync(path.dirname(p)), path.basename(p));
    } catch {
      return p;
    }
  }
}

/** A file-system error as a few words: `no such file`, `permission denied`. */
export function fsReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOTDIR':
      return 'a file is in the way of a folder';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
