// Where an item command's numbers come from: arguments, a file (`-f FILE`), or standard input (`-f -`, or a
// pipe with neither). Whatever the way in, the run gets one ItemSource it can read as often as it needs: the
// engine reads its input twice (a checking pass, then the sending pass). A file is opened again for each pass;
// standard input is first copied to a private spool file; arguments are kept as they are.

import type { Stats } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ensurePrivateDir } from '../config/paths.js';
import { TrkError, UsageError } from '../errors.js';
import type { IO } from '../io.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { closeSync, createReadStream, createWriteStream, openSync, realpathSync, rmSync, statSync } = process.getBuiltinModule('node:fs');

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
  /** The first few KiB as text, to tell the format. */
  head(): Promise<string>;
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

/** The source the flags name. A terminal on stdin with nothing else given is a usage error, not a silent wait. */
export async function openSource(flags: SourceFlags, io: IO, spoolDir: string): Promise<ItemSource> {
  if (flags.file !== undefined && flags.numbers.length > 0) {
    throw new UsageError('give the numbers as arguments or with -f, not both', 'put them all in the file');
  }
  if (flags.numbers.length > 0) return argumentsSource(flags.numbers);
  if (flags.file === '-' || (flags.file === undefined && !io.stdinIsTTY)) return spoolStdin(io.stdin, spoolDir);
  if (flags.file === undefined) throw new UsageError('no tracking numbers given', NO_NUMBERS_HINT);
  return fileSource(flags.file);
}

export function argumentsSource(args: readonly string[]): ItemSource {
  return {
    kind: 'arguments',
    display: args.length === 1 ? 'the argument' : 'the arguments',
    name: '',
    size: 0,
    args,
    open: () => Readable.from([]),
    head: async () => '',
    locate: (n) => `argument ${n}`,
    assertUnchanged: () => {},
    isSameFile: () => false,
    cleanup: async () => {},
  };
}

function fileSource(file: string): ItemSource {
  const abs = path.resolve(file);
  const cannot = (why: string) => new UsageError(`cannot read ${file}: ${why}`, 'give a readable CSV or JSON file, or - for stdin; nothing was sent');
  let st: Stats;
  try {
    st = statSync(abs);
    if (st.isDirectory()) throw cannot('it is a directory');
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
    head: async () => headOf(abs),
    locate: (n) => `${file} line ${n}`,
    assertUnchanged() {
      let now: Stats;
      try {
        now = statSync(abs);
      } catch (err) {
        throw new TrkError(`cannot read ${file}: ${fsReason(err)}`);
      }
      if (stamp(now) !== opened) throw new UsageError(`${file} changed while trk was reading it`, 'run again once the file is complete');
    },
    isSameFile: (other) => sameFile(st, real, other),
    cleanup: async () => {},
  };
}

/** Copy stdin to a private spool file (the run reads it twice) and prune copies left by killed runs. */
async function spoolStdin(stdin: Readable, spoolDir: string): Promise<ItemSource> {
  ensurePrivateDir(spoolDir);
  await pruneSpool(spoolDir);
  const spool = path.join(spoolDir, `stdin-${process.pid}-${Date.now().toString(36)}.csv`);
  let size = 0;
  try {
    await pipeline(
      stdin,
      async function* (chunks: AsyncIterable<Buffer | string>) {
        for await (const chunk of chunks) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          size += buf.length;
          yield buf;
        }
      },
      createWriteStream(spool, { mode: 0o600 }),
    );
  } catch (err) {
    rmSync(spool, { force: true });
    throw new TrkError(`cannot keep a copy of stdin in ${spoolDir}: ${fsReason(err)}`, { hint: 'free some space there, or set TRK_STATE_DIR to another folder' });
  }
  return {
    kind: 'stdin',
    display: 'stdin',
    name: 'stdin',
    size,
    open: () => createReadStream(spool),
    head: async () => headOf(spool),
    locate: (n) => `stdin line ${n}`,
    assertUnchanged: () => {},
    isSameFile: () => false,
    cleanup: () => fsPromises().rm(spool, { force: true }),
  };
}

const HEAD_BYTES = 4096;

/** node:fs/promises, loaded by the first file or pipe: `trk info N` does not need it (0.5 ms of a start). */
const fsPromises = () => process.getBuiltinModule('node:fs/promises');

async function headOf(file: string): Promise<string> {
  const handle = await fsPromises().open(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
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
