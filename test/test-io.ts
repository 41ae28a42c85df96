// A captured IO for tests (src/io/captured-io.ts), made a terminal, given stdin or another kind of stdout when a test
// asks: everything written is kept as strings.

import { Readable } from 'node:stream';
import { type CapturedIO, createCapturedIO } from '../src/io/captured-io.js';
import type { OutputTarget } from '../src/io/io.js';

export type TestIO = CapturedIO;

export interface TestIOOptions {
  stdin?: Readable;
  /** stdin, stdout and stderr all terminals (prompts allowed). */
  tty?: boolean;
  /** 100 unless given. */
  columns?: number;
  rawCsv?: boolean;
  /** A file unless `tty`. */
  stdoutTarget?: OutputTarget;
}

export function createTestIO(opts: TestIOOptions = {}): TestIO {
  const tty = opts.tty ?? false;
  return {
    ...createCapturedIO({ columns: opts.columns ?? 100 }),
    stdin: opts.stdin ?? Readable.from([]),
    stdinIsTTY: tty,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdoutTarget: opts.stdoutTarget ?? (tty ? 'terminal' : 'file'),
    ...(opts.rawCsv ? { rawCsv: true } : {}),
    canPrompt: () => tty,
  };
}
