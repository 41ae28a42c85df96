// Long output on a terminal goes through a pager, as git and gh do: TRK_PAGER, else PAGER, else `less -FRX`
// (-F quits at once when the output fits on one screen, -R keeps colours, -X leaves the output on the screen
// after quitting), so a short table looks exactly as if printed directly. `--no-pager`, TRK_PAGER="" or "cat"
// turn it off; so does output that is not to a terminal. A pager that cannot be found is skipped silently: the
// output is printed as it would be without one.
//
// The pager starts with the first output, so that a command that reads for a while before it has anything to
// show (`trk list --tag X` over every page) keeps the terminal for its page counter until then. Output streams
// into the pager as it comes: the first page of a list is on the screen while later pages are fetched. When the
// reader quits the pager early, `quit` aborts, so that the command stops fetching what nobody will read; the
// command then finishes quietly.

import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Writable } from 'node:stream';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { IO } from '../io/io.js';
import { redactingIO } from '../io/secrets.js';

export const DEFAULT_PAGER = 'less -FRX';

export interface Pager {
  /** The IO to write through: stdout is the pager's input; everything else is the terminal's. */
  readonly io: IO;
  /** Aborts when the reader quits the pager (its input closed) before the output ended. */
  readonly quit: AbortSignal;
  /** The pager runs: it starts with the first output, and the terminal is its own from then on. */
  readonly started: boolean;
  /** End the output and wait for the reader to quit the pager. */
  end(): Promise<void>;
}

/**
 * The pager command for an environment: TRK_PAGER, else PAGER, else `less -FRX`; undefined when paging is off
 * (an empty value, or `cat`).
 */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env.TRK_PAGER ?? env.PAGER ?? DEFAULT_PAGER;
  const command = chosen.trim();
  if (command === '' || command === 'cat') return undefined;
  return command;
}

/** Whether the program a command line starts with can be run: a path that is executable, or a name on PATH. */
export function findProgram(command: string, env: NodeJS.ProcessEnv): boolean {
  const program = /^\s*(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(command);
  const name = program?.[1] ?? program?.[2] ?? program?.[3];
  if (!name) return false;
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (name.includes('/')) return executable(name);
  return (env.PATH ?? '').split(path.delimiter).some((dir) => dir !== '' && executable(path.join(dir, name)));
}

/**
 * Starts the pager for output to `io` when it applies: stdout a terminal, paging not turned off, the pager found.
 * Undefined otherwise (write to `io` directly).
 */
export function startPager(io: IO, env: NodeJS.ProcessEnv, opts: { enabled?: boolean } = {}): Pager | undefined {
  if (opts.enabled === false || !io.stdoutIsTTY) return undefined;
  const command = pagerCommand(env);
  if (command === undefined || !findProgram(command, env)) return undefined;
  // LESS and LV as git sets them, when the user has not: a bare PAGER=less behaves like the default.
  const childEnv = { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
  const quitter = new AbortController();
  let child: ChildProcessByStdio<Writable, null, null> | undefined;
  let exited = Promise.resolve();
  let closed = false;
  const close = () => {
    closed = true;
    quitter.abort();
  };
  // Started with the first output: until then the terminal is the command's, for a page counter.
  const input = (): Writable => {
    if (child) return child.stdin;
    const started = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: childEnv });
    child = started;
    exited = new Promise<void>((resolve) => {
      started.on('close', () => resolve());
      started.on('error', () => resolve());
    });
    // EPIPE: the reader quit before the output ended.
    started.stdin.on('error', close);
    started.on('close', () => {
      if (!started.stdin.writableFinished) close();
    });
    return started.stdin;
  };
  const paged: IO = Object.defineProperties(Object.create(null) as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    stdout: { get: input, enumerable: true },
    out: {
      value: (text: string) => {
        if (!closed) input().write(text);
      },
      enumerable: true,
    },
  });
  return {
    // The pager's input is output too: the API key never reaches it (src/io/secrets.ts).
    io: redactingIO(paged),
    quit: quitter.signal,
    get started() {
      return child !== undefined;
    },
    async end() {
      if (child && !closed) child.stdin.end();
      await exited;
    },
  };
}
