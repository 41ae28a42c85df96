// The file holding a rate budget that the processes of one machine share (file-pacer.ts), in the state folder,
// and its lock: a file beside it created with O_EXCL. The lock is held only for a synchronous read and write
// (well under a millisecond); a lock older than `staleLockMs` belongs to a process that was killed inside that
// window, and is removed, as is one written more than `staleLockMs` in the future (the clock was set back).
// Writes go to a file of this process first and are renamed into place, so that a reader never sees half of one.

import { BudgetError } from './budget.js';
import { parseBudget, type BudgetState } from './budget-window.js';
import { nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { closeSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } = nodeFs();

/** The budget file (or its lock) cannot be read or written: exit 1, naming the path and the system's reason. */
export class BudgetFileError extends BudgetError {
  constructor(file: string, err: unknown) {
    const e = err as NodeJS.ErrnoException;
    const where = typeof e?.path === 'string' ? e.path : file;
    super(`cannot use the rate budget file ${where}: ${systemReason(e)}`, {
      hint: 'free space, or make the state folder writable (TRK_STATE_DIR moves it)',
      cause: err,
    });
  }
}

const SYSTEM_WORDS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'a directory is in the way',
  ENOTDIR: 'a file is in the way of a folder',
  EEXIST: 'a file is in the way of a folder',
  ENOENT: 'the folder does not exist',
};

/** `no space left on device (ENOSPC)`: the reason without Node's repetition of the call and the path. */
function systemReason(e: NodeJS.ErrnoException | undefined): string {
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code && SYSTEM_WORDS[code]) return `${SYSTEM_WORDS[code]} (${code})`;
  return code ?? (e?.message || 'unknown error');
}

export interface BudgetFileOptions {
  /** A lock older than this is stale; default 2000 ms. */
  staleLockMs?: number;
  /** Wall-clock milliseconds. */
  now?: () => number;
}

export class BudgetFile {
  readonly path: string;
  readonly #lock: string;
  readonly #tmp: string;
  readonly #staleMs: number;
  readonly #now: () => number;

  /** `path`: the budget file; its folder must exist. `<path>.lock` is the lock. */
  constructor(path: string, opts: BudgetFileOptions = {}) {
    this.path = path;
    this.#lock = `${path}.lock`;
    this.#tmp = `${path}.${process.pid}.tmp`;
    this.#staleMs = opts.staleLockMs ?? 2000;
    this.#now = opts.now ?? Date.now;
  }

  /** What the file holds; a fresh budget when it is missing or torn. Call under the lock. */
  read(): BudgetState {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      // Missing (or not a file: writing will say so).
      return { starts: [], holdUntil: 0 };
    }
    return parseBudget(text, this.#now());
  }

  /** Replaces what the file holds. Call under the lock. */
  write(state: BudgetState): void {
    try {
      writeFileSync(this.#tmp, JSON.stringify(state), { mode: 0o600 });
      renameSync(this.#tmp, this.path);
    } catch (err) {
      // A full disk leaves a partial copy behind: it would only take more of what little space is left.
      rmSync(this.#tmp, { force: true });
      throw err;
    }
  }

  /** Runs `fn` under the lock, or returns undefined when someone else holds it. File errors are thrown. */
  tryLocked<T>(fn: () => T): T | undefined {
    let fd: number;
    try {
      fd = openSync(this.#lock, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      this.#removeStaleLock();
      return undefined;
    }
    try {
      writeSync(fd, String(process.pid));
      return fn();
    } finally {
      closeSync(fd);
      rmSync(this.#lock, { force: true });
    }
  }

  /**
   * Best effort, for the updates made from timers and failure paths (a hold, a stall, a start that left), where a
   * file error must not become a crash: `change` of what the file holds is written (unless undefined), under the
   * lock, tried a few times over while it is busy. A folder gone or not writable shows in the next admission.
   */
  update(change: (state: BudgetState) => BudgetState | undefined): void {
    const apply = (): true => {
      const next = change(this.read());
      if (next) this.write(next);
      return true;
    };
    try {
      for (let i = 0; i < 50 && this.tryLocked(apply) === undefined; i++) {
        // busy: the lock is held for well under a millisecond, try again at once
      }
    } catch {
      // reported by admissions
    }
  }

  #removeStaleLock(): void {
    try {
      // Old, or from the future (the clock was set back): either way no live process is inside the lock. The file's
      // time is the machine's, and so is what it is held against (not the budget's clock, which a test moves on).
      if (Math.abs(Date.now() - statSync(this.#lock).mtimeMs) > this.#staleMs) rmSync(this.#lock, { force: true });
    } catch {
      // released meanwhile
    }
  }
}
