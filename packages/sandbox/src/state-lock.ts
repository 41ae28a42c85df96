// One emulator per state file at a time. A sandbox that keeps its state in a file holds `<file>.lock` for as
// long as it runs: `trk sandbox start` (kind "server") and the emulator behind `--sandbox` (kind "embedded"). The
// lock says who holds it and, once the holder listens, where it is reached, so that an embedded emulator that
// finds a running server talks to it over HTTP instead of loading the file (@trk/sandbox/embedded.ts), and two
// embedded ones take turns. Without it, the last of two emulators to save would silently drop the other's writes.
//
// Taking the lock is creating the file exclusively (O_EXCL). A lock is stale when its holder is gone: same host
// and no process with its pid, or a process with that pid that started at another time (the pid was reused;
// Linux only, from /proc). Time stamps play no part, so a clock moved back (or forward) cannot make a live lock
// look stale, nor a stale one live. A lock of another host is taken as live: remove it by hand if that host's
// sandbox is gone. A lock file left empty or unreadable (its holder died while writing it) is stale after 2 s.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type FileHandle, link, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

export type LockKind = 'server' | 'embedded';

/** What a lock file holds. */
export interface LockHolder {
  kind: LockKind;
  pid: number;
  host: string;
  /** When the process started, as the kernel counts it (Linux), to tell a reused pid apart; null elsewhere. */
  processStart: string | null;
  /** Base URL once the holder listens; null while it starts. */
  url: string | null;
  /** The API key it accepts (the emulator's own test key), with the URL. */
  key: string | null;
  /** Tells this holding apart from any other, even by the same process. */
  nonce: string;
}

/** What the holder of a lock does with it. */
export interface StateLock {
  readonly path: string;
  readonly holder: Readonly<LockHolder>;
  /** Say where the holder is reached (and with which key), once it listens. */
  publish(url: string, key: string): Promise<void>;
  /** Give the lock up; harmless when already released. */
  release(): Promise<void>;
}

/**
 * Called while another live process holds the lock, with how long this one has waited (monotonic ms): 'wait' to
 * try again shortly, 'stop' to give up (acquireStateLock then resolves undefined). May throw to refuse.
 */
export type BusyDecision = (holder: LockHolder, waitedMs: number) => 'wait' | 'stop' | Promise<'wait' | 'stop'>;

export interface AcquireOptions {
  busy: BusyDecision;
  /** Between two tries while busy; default 100 ms. */
  pollMs?: number;
  signal?: AbortSignal;
}

/** Unreadable lock files (a holder that died between creating and writing it) are stale after this long. */
const UNREADABLE_STALE_MS = 2000;

export function lockPath(stateFile: string): string {
  return `${stateFile}.lock`;
}

/** Take the lock of a state file, waiting while `busy` says so; undefined when it said stop. */
export async function acquireStateLock(
  stateFile: string,
  kind: LockKind,
  opts: AcquireOptions,
): Promise<StateLock | undefined> {
  const path = lockPath(stateFile);
  await mkdir(dirname(path), { recursive: true });
  const me: LockHolder = {
    kind,
    pid: process.pid,
    host: hostname(),
    processStart: processStart(process.pid),
    url: null,
    key: null,
    nonce: randomBytes(8).toString('hex'),
  };
  const started = performance.now();
  let unreadableSince: number | undefined;
  for (;;) {
    opts.signal?.throwIfAborted();
    if (await create(path, me)) return heldLock(path, me);
    const seen = await readHolder(path);
    if (seen === 'gone') continue;
    if (seen === 'unreadable') {
      unreadableSince ??= performance.now();
      if (performance.now() - unreadableSince >= UNREADABLE_STALE_MS) {
        await removeStale(path, undefined);
        unreadableSince = undefined;
        continue;
      }
    } else {
      unreadableSince = undefined;
      if (!holderAlive(seen.holder)) {
        await removeStale(path, seen.text);
        continue;
      }
      if ((await opts.busy(seen.holder, performance.now() - started)) === 'stop') return undefined;
    }
    await sleep(opts.pollMs ?? 100, undefined, opts.signal ? { signal: opts.signal } : {});
  }
}

/** Who holds a state file's lock now, if anyone alive does (for `trk sandbox reset`). */
export async function currentHolder(stateFile: string): Promise<LockHolder | undefined> {
  const seen = await readHolder(lockPath(stateFile));
  if (typeof seen === 'string') return undefined;
  return holderAlive(seen.holder) ? seen.holder : undefined;
}

async function create(path: string, me: LockHolder): Promise<boolean> {
  let file: FileHandle;
  try {
    file = await open(path, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await file.writeFile(JSON.stringify(me), 'utf8');
  } finally {
    await file.close();
  }
  return true;
}

function heldLock(path: string, me: LockHolder): StateLock {
  let released = false;
  return {
    path,
    holder: me,
    async publish(url, key) {
      if (released) return;
      me.url = url;
      me.key = key;
      // Written beside it and renamed over it: a reader never sees half a lock.
      const tmp = `${path}.${me.nonce}.tmp`;
      const file = await open(tmp, 'w', 0o600);
      try {
        await file.writeFile(JSON.stringify(me), 'utf8');
      } finally {
        await file.close();
      }
      await rename(tmp, path);
    },
    async release() {
      if (released) return;
      released = true;
      const seen = await readHolder(path);
      // Only our own lock: never one another process took after judging ours stale.
      if (typeof seen !== 'string' && seen.holder.nonce === me.nonce) await rm(path, { force: true });
    },
  };
}

type Seen = { holder: LockHolder; text: string } | 'gone' | 'unreadable';

async function readHolder(path: string): Promise<Seen> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
  try {
    const v = JSON.parse(text) as LockHolder;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.nonce === 'string')
      return { holder: v, text };
  } catch {
    // Being written, or left half-written by a holder that died.
  }
  return 'unreadable';
}

/**
 * Remove a stale lock, and only that one: it is renamed aside first (one process wins the rename), and if what
 * was renamed is not the lock judged stale (a live process took the lock in between), it is put back.
 */
async function removeStale(path: string, staleText: string | undefined): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  if (staleText !== undefined && moved !== staleText) {
    // link() refuses to replace a lock someone else created meanwhile.
    await link(aside, path).catch(() => undefined);
  }
  await rm(aside, { force: true });
}

function holderAlive(h: LockHolder): boolean {
  if (h.host !== hostname()) return true;
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    // EPERM: a process of another user has that pid; it exists.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (h.processStart === null) return true;
  const now = processStart(h.pid);
  return now === null || now === h.processStart;
}

/** The process's start time in clock ticks since boot (Linux /proc), or null where that is not available. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}
