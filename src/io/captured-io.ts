// An IO that keeps what a command writes as strings, for running a command line into text: the build writes the
// help pages so (src/build/write-help-pages.ts). Not a terminal, nothing to read, no colour.

import { Readable, Writable } from 'node:stream';
import { type IO, NO_COLOR } from './io.js';

export interface CapturedIO extends IO {
  stdoutText(): string;
  stderrText(): string;
}

/** A stream that appends every chunk written to it to `chunks`. */
function collector(chunks: string[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
}

/** An IO of `columns` columns whose stdout and stderr are kept, as a file keeps them. */
export function createCapturedIO(opts: { columns?: number } = {}): CapturedIO {
  const outChunks: string[] = [];
  const errChunks: string[] = [];
  const columns = opts.columns ?? 80;
  return {
    stdin: Readable.from([]),
    stdout: collector(outChunks),
    stderr: collector(errChunks),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    // What is captured is kept whole, as a file keeps it.
    stdoutTarget: 'file',
    columns,
    stderrColumns: columns,
    color: NO_COLOR,
    colorErr: NO_COLOR,
    canPrompt: () => false,
    out: (text) => void outChunks.push(text),
    err: (line) => void errChunks.push(`${line}\n`),
    stdoutText: () => outChunks.join(''),
    stderrText: () => errChunks.join(''),
  };
}
