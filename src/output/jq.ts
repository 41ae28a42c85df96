// --jq EXPR: what a command prints as JSON, run through jq itself (jq 1.8 compiled to WebAssembly, the jq-wasm
// package, loaded only when --jq is given), as `gh --jq` does: strings come out raw (jq -r), other values
// pretty-printed on a terminal and one a line (jq -c) when piped.
//
// The program runs on each JSON value the command prints, as jq runs on each value of its input: on the one
// array of `trk list --json`, on each line of NDJSON or of `webhook listen --print` as it comes. Output is held
// until a value is complete, so a command that fails part-way prints nothing of the value it was writing (the
// same guarantee as without --jq), and an error of the program stops the output and fails the command (exit 1).
//
// jq runs in a worker thread (jq-worker.ts), so that a program that never ends (`repeat(1)`, `def f: f; f`) can
// be stopped: Ctrl-C, SIGTERM and a time limit terminate the worker, and so does a program that takes more memory
// than the cap. jq's own abort (its 256 MB heap exhausted) becomes one line, never jq's `Aborted()`.

import { InterruptedError, stopExitCode, TrkError, UsageError } from '../core/errors.js';
import type { IO } from '../io/io.js';
import { JqWorker, type JqLimits } from './jq-worker.js';

export type { JqLimits } from './jq-worker.js';

/** Loading jq and compiling the program may take this long, whatever the program's own limit. */
const LOAD_MS = 30_000;

/** jq's exit code for a program that does not compile. */
const COMPILE_ERROR = 3;

/** jq's message without its `jq: error (at /dev/stdin:1): ` prefix, the first line only. */
function jqMessage(stderr: string): string {
  const first = stderr.split('\n').find((l) => l.trim() !== '') ?? 'jq failed';
  // A syntax error's first line ends with a colon before the quoted program: the line and column say enough.
  return first
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .trim()
    .replace(/:$/, '');
}

/**
 * Starts jq in its worker and checks that `expr` compiles, without running it (a program could loop forever).
 * The worker is the caller's to close.
 */
export async function loadJqProgram(expr: string, limits: JqLimits): Promise<JqWorker> {
  const jq = new JqWorker(limits);
  try {
    // `empty | (...)` compiles the program and never evaluates it. jq loads meanwhile: that is not the program's
    // time, however short --timeout is.
    const check = Math.max(limits.timeoutMs, LOAD_MS);
    if ((await jq.run(null, `empty | (\n${expr}\n)`, ['-n'], check)).exitCode === COMPILE_ERROR) {
      // The bare program cannot run either, and its own message points at the right line and column.
      const bare = await jq.run(null, expr, ['-n'], check);
      throw new UsageError(`--jq: ${jqMessage(bare.stderr)}`, "see the jq manual, e.g. --jq '.[] | .number'");
    }
    return jq;
  } catch (err) {
    await jq.close();
    throw err;
  }
}

export interface JqOutput {
  /** The IO to give the command: its stdout goes through the program. */
  readonly io: IO;
  /** Resolves once every complete value written so far has been run and its output written. */
  settled(): Promise<void>;
  /** After the command succeeded: runs the program on what is left; the program's error, if it failed. */
  finish(): Promise<TrkError | undefined>;
}

/**
 * Tracks where top-level JSON values end in text written in pieces: outside strings, brackets balanced, and
 * whitespace after the last value (every value trk prints ends with a line break).
 */
class ValueEnds {
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Feeds `text`; true when it leaves the stream between two values. */
  feed(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) this.depth--;
    }
    const last = text.charCodeAt(text.length - 1);
    return !this.inString && this.depth <= 0 && (last === 0x0a || last === 0x20 || last === 0x0d || last === 0x09);
  }
}

/**
 * Wraps `io` so that its stdout goes through the jq program `expr` (started with loadJqProgram). Values are run
 * one after the other, their output written in order as each run ends. `signal` (Ctrl-C, SIGTERM) stops the
 * program in the middle of a run.
 */
export function jqOutput(io: IO, jq: JqWorker, expr: string, signal?: AbortSignal): JqOutput {
  const pretty = io.stdoutIsTTY;
  const ends = new ValueEnds();
  let pending: string[] = [];
  let failure: TrkError | undefined;
  // Runs one after the other, so that their output comes in the order of the values.
  let queue: Promise<void> = Promise.resolve();
  const stop = () => void jq.close(signal ? new InterruptedError('interrupted', stopExitCode(signal)) : undefined);
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop, { once: true });

  const run = async (input: string): Promise<void> => {
    if (failure) return;
    // -c: one output a line, so that each can be told apart and strings printed raw (jq -r), which keeps their
    // leading and trailing blanks.
    const r = await jq.run(input, expr, ['-c']);
    if (r.exitCode !== 0) {
      failure = new TrkError(`--jq: ${jqMessage(r.stderr)}`, {
        hint: 'nothing of the failing value was printed; check the program against "--json" output',
      });
      return;
    }
    if (r.stdout === '') return;
    let text = '';
    for (const line of r.stdout.split('\n')) {
      if (line === '') continue;
      const value: unknown = JSON.parse(line);
      if (typeof value === 'string') text += `${value}\n`;
      // Pretty-printed by jq itself, which keeps numbers as written.
      else text += `${pretty ? (await jq.run(line, '.', [])).stdout : line}\n`;
    }
    io.out(text);
  };

  const flush = (): void => {
    if (pending.length === 0 || failure) return;
    const input = pending.join('');
    pending = [];
    if (input.trim() === '') return;
    queue = queue
      .then(() => run(input))
      .catch((err: unknown) => {
        failure ??= err instanceof TrkError ? err : new TrkError(`--jq: ${(err as Error).message}`);
      });
  };

  return {
    io: {
      ...io,
      out(text: string) {
        if (failure || text === '') return;
        pending.push(text);
        if (ends.feed(text)) flush();
      },
    },
    settled: () => queue,
    async finish() {
      flush();
      await queue;
      signal?.removeEventListener('abort', stop);
      return failure;
    },
  };
}
