// jq (jq-wasm) in a worker thread, for --jq (src/output/jq.ts). jq runs a program synchronously to its end; in
// the main thread a program that never ends (`repeat(1)`, `def f: f; f`) would hold the event loop, so that not
// even Ctrl-C could stop it. In a worker, the main thread stays free: it terminates the worker on Ctrl-C or
// SIGTERM (close), when one run passes the time limit, and when the process grows past the memory cap while a
// run is on (the worker's heap is capped too, but jq's output collects in buffers outside it).
//
// The worker's code is the function `workerMain` below, given to the worker as source text: it needs no file of
// its own, whether trk runs from dist/, from the bundle in lib/ or from the sources under test.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { TrkError } from '../core/errors.js';

export interface JqLimits {
  /** One run of the program may take this long (ms). */
  timeoutMs: number;
  /** Growth of the process while a run is on, at most (MB); default JQ_MEMORY_MB. */
  memoryMb?: number;
}

/** What a run gives back, as jq-wasm's raw(). */
export interface JqResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The memory cap of a jq program, in MB. jq's own heap is 256 MB (jq-wasm's build). */
export const JQ_MEMORY_MB = 512;

/** What to do about a program that was stopped. */
const LOOP_HINT = 'check it for a loop that never ends, such as repeat';

/** How often a run's memory is looked at. */
const WATCH_MS = 100;

interface Request {
  id: number;
  input: string | null;
  expr: string;
  flags: string[];
}

type Reply = { id: number; result: JqResult } | { id: number; aborted: string };

/**
 * The worker: loads jq-wasm (from the path the main thread resolved) and runs each request in turn. Source text
 * of its own: it uses nothing but its arguments.
 */
function workerMain(load: (path: string) => unknown, threads: typeof import('node:worker_threads')): void {
  const port = threads.parentPort!;
  const { jqPath } = threads.workerData as { jqPath: string };
  const jq = (load(jqPath) as typeof import('jq-wasm')).loadJq();
  port.on('message', (req: Request) => {
    void jq.then(
      (handle) => {
        try {
          port.postMessage({ id: req.id, result: handle.raw(req.input, req.expr, req.flags) });
        } catch (err) {
          // jq's abort (its heap exhausted): a RuntimeError "Aborted(...)".
          port.postMessage({ id: req.id, aborted: String((err as Error)?.message ?? err) });
        }
      },
      (err: unknown) => port.postMessage({ id: req.id, aborted: String((err as Error)?.message ?? err) }),
    );
  });
}

const WORKER_SOURCE = `(${workerMain.toString()})(require, require('node:worker_threads'));`;

/** jq in a worker thread, one run at a time. */
export class JqWorker {
  readonly #limits: JqLimits;
  readonly #worker: Worker;
  #next = 1;
  #running: { id: number; resolve(r: JqResult): void; reject(err: unknown): void; timer: NodeJS.Timeout } | undefined;
  #stopped: unknown;

  constructor(limits: JqLimits) {
    this.#limits = limits;
    const memoryMb = limits.memoryMb ?? JQ_MEMORY_MB;
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { jqPath: createRequire(import.meta.url).resolve('jq-wasm') },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32 },
      // jq-wasm prints `Aborted()` on the worker's stderr when jq aborts: kept from the user's terminal.
      stderr: true,
      stdout: true,
    });
    this.#worker.stderr.resume();
    this.#worker.stdout.resume();
    this.#worker.on('message', (reply: Reply) => this.#reply(reply));
    // Once the worker is gone, nothing more can run: every later run fails with why it went.
    this.#worker.on('error', (err) => this.#fail((this.#stopped ??= this.#workerError(err))));
    this.#worker.on('exit', () => this.#fail((this.#stopped ??= new TrkError('--jq: jq stopped'))));
    this.#worker.unref();
  }

  /**
   * Runs `expr` on `input` (null: no input, with -n). Rejects when the program is stopped (see the top); `timeoutMs`
   * replaces the limit of one run (the first run also waits for jq to load).
   */
  run(input: string | null, expr: string, flags: string[], timeoutMs = this.#limits.timeoutMs): Promise<JqResult> {
    if (this.#stopped !== undefined) return Promise.reject(this.#stopped);
    if (this.#running) return Promise.reject(new Error('jq is already running a program'));
    const id = this.#next++;
    return new Promise<JqResult>((resolve, reject) => {
      const started = process.memoryUsage.rss();
      const cap = (this.#limits.memoryMb ?? JQ_MEMORY_MB) * 1024 * 1024;
      const timer = setInterval(() => {
        if (process.memoryUsage.rss() - started > cap) void this.close(this.#memoryError());
      }, WATCH_MS);
      const deadline = setTimeout(() => void this.close(this.#timeError(timeoutMs)), timeoutMs);
      const done = () => {
        clearInterval(timer);
        clearTimeout(deadline);
        this.#running = undefined;
      };
      this.#running = {
        id,
        timer,
        resolve: (r) => {
          done();
          resolve(r);
        },
        reject: (err) => {
          done();
          reject(err);
        },
      };
      this.#worker.postMessage({ id, input, expr, flags } satisfies Request);
    });
  }

  /** Stops jq: a run in progress rejects with `reason` (default: jq closed). */
  async close(reason?: unknown): Promise<void> {
    if (this.#stopped === undefined) this.#stopped = reason ?? new TrkError('--jq: jq was closed');
    this.#fail(this.#stopped);
    await this.#worker.terminate();
  }

  #reply(reply: Reply): void {
    const running = this.#running;
    if (!running || running.id !== reply.id) return;
    if ('result' in reply) running.resolve(reply.result);
    else {
      // jq's heap is spent once it aborts: nothing more can run.
      this.#stopped = this.#abortError(reply.aborted);
      running.reject(this.#stopped);
      void this.#worker.terminate();
    }
  }

  #fail(err: unknown): void {
    this.#running?.reject(err);
  }

  #timeError(ms: number): TrkError {
    return new TrkError(`--jq: the program ran longer than ${seconds(ms)} on one value, and was stopped`, {
      hint: 'check it for a loop that never ends (the limit is three times --timeout)',
    });
  }

  #memoryError(): TrkError {
    const mb = this.#limits.memoryMb ?? JQ_MEMORY_MB;
    return new TrkError(`--jq: the program took more than ${mb} MB of memory, and was stopped`, { hint: LOOP_HINT });
  }

  #abortError(message: string): TrkError {
    const what = /Assertion failed/.test(message)
      ? 'jq failed on an internal check'
      : 'the program ran out of memory (jq has 256 MB)';
    return new TrkError(`--jq: ${what}, and was stopped`, { hint: LOOP_HINT });
  }

  #workerError(err: Error): TrkError {
    // resourceLimits: the worker's heap is full.
    if ((err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') return this.#memoryError();
    return new TrkError(`--jq: ${err.message}`);
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
