// The emulator's state on disk: the account and the simulated clock in one JSON file, so that a sandbox
// (and `--sandbox` on any command) picks up where it left off. Writes are atomic (temporary file, fsync,
// rename): a crash leaves the previous state, never half a file. Saves are throttled because an account
// with 100,000 records is a few MB of JSON.

import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SandboxError } from './errors.js';
import { type ClockState, isClockState } from './clock.js';

export const STATE_FILE_VERSION = 1;

export interface SandboxStateFile<A = unknown, S = unknown> {
  version: typeof STATE_FILE_VERSION;
  clock: ClockState;
  /** Account settings as last set (webhook URL, quota, ...); options given at start override them. */
  settings?: S;
  /** `account.toJSON()`. */
  account: A;
}

/** The state file exists but cannot be used. */
export class StateFileError extends SandboxError {
  constructor(path: string, problem: string, cause?: unknown) {
    super(`sandbox state file ${path} ${problem}`, {
      hint: 'run "trk sandbox reset" to start from an empty sandbox',
      ...(cause === undefined ? {} : { cause }),
    });
  }
}

/** Read a state file; undefined when there is none. */
export async function readStateFile(path: string): Promise<SandboxStateFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(path, 'cannot be read', err);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new StateFileError(path, 'is not valid JSON', err);
  }
  if (typeof value !== 'object' || value === null) throw new StateFileError(path, 'is not a sandbox state');
  const v = value as Record<string, unknown>;
  if (v.version !== STATE_FILE_VERSION) {
    throw new StateFileError(
      path,
      `has version ${JSON.stringify(v.version)}; this trk reads version ${STATE_FILE_VERSION}`,
    );
  }
  if (!isClockState(v.clock)) throw new StateFileError(path, 'has no valid clock');
  return v as unknown as SandboxStateFile;
}

/** Write atomically: temporary file beside the target, flushed to disk, then renamed over it. */
export async function writeStateFile(path: string, state: SandboxStateFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const file = await open(tmp, 'w', 0o600);
  try {
    await file.writeFile(JSON.stringify(state), 'utf8');
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Delete a state file; true when there was one. */
export async function removeStateFile(path: string): Promise<boolean> {
  try {
    await rm(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

export interface StateSaverOptions {
  path: string;
  /** Builds the state to write; called at save time, so it is always the latest. */
  snapshot: () => SandboxStateFile;
  /** Least time between two saves; default 1000 ms. Grows with the time a save takes. */
  minIntervalMs?: number;
  onError?: (err: unknown) => void;
}

/**
 * Saves after changes, at most once per interval, never two writes at once. The interval is at least 20
 * times the last save's duration, so a big account costs the server a small share of its time.
 */
export class StateSaver {
  readonly #opts: StateSaverOptions;
  #dirty = false;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;
  #lastEnd = 0;
  #lastDuration = 0;
  #closed = false;

  constructor(opts: StateSaverOptions) {
    this.#opts = opts;
  }

  /** Something changed: save soon. */
  changed(): void {
    if (this.#closed) return;
    this.#dirty = true;
    this.#schedule();
  }

  /** Save now if anything changed (waits for a save in progress first); throws when the write fails. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#writing) await this.#writing;
    if (this.#dirty) {
      const error = await this.#save();
      if (error !== undefined) throw error;
    }
  }

  /** Final save; later changes are ignored. Always writes, so the clock position is kept. */
  async close(): Promise<void> {
    this.#dirty = true;
    this.#closed = true;
    await this.flush();
  }

  #schedule(): void {
    if (this.#timer || this.#writing) return;
    const interval = Math.max(this.#opts.minIntervalMs ?? 1000, this.#lastDuration * 20);
    const wait = Math.max(0, this.#lastEnd + interval - Date.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#save().then((error) => {
        if (error !== undefined) this.#opts.onError?.(error);
      });
    }, wait);
    this.#timer.unref();
  }

  /** One write; resolves with the error, if any, so that callers choose to throw or report. */
  #save(): Promise<unknown> {
    this.#dirty = false;
    const started = Date.now();
    const write = (async () => writeStateFile(this.#opts.path, this.#opts.snapshot()))().then(
      () => undefined,
      (err: unknown) => {
        // Keep the change pending so that the next save retries it.
        this.#dirty = true;
        return err ?? new Error('state file write failed');
      },
    );
    const done = write.then((error) => {
      this.#lastEnd = Date.now();
      this.#lastDuration = this.#lastEnd - started;
      this.#writing = undefined;
      if (this.#dirty && !this.#closed && error === undefined) this.#schedule();
      return error;
    });
    this.#writing = done.then(() => undefined);
    return done;
  }
}
