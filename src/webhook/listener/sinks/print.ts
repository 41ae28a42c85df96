// The print sink: one line per notification on stdout (for people, or JSON with --json); with --print the body
// itself goes to stdout, one JSON a line, and the event line to stderr.

import type { IO } from '../../../io/io.js';
import { bodyLine, humanLine, isoSeconds, jsonLine } from '../lines.js';
import type { ReceivedEvent } from '../types.js';
import type { Sink } from './sink.js';

export interface PrintOptions {
  json: boolean;
  print: boolean;
  carrierName: ((code: number) => string | undefined) | undefined;
}

export class PrintSink implements Sink {
  constructor(
    private readonly io: IO,
    private readonly opts: PrintOptions,
  ) {}

  afterAnswer(ev: ReceivedEvent): Promise<void> {
    const { io } = this;
    const columns = io.stdoutIsTTY ? io.columns : undefined;
    const line = this.opts.json
      ? jsonLine(ev)
      : humanLine(ev, { color: io.color, columns, carrierName: this.opts.carrierName });
    if (this.opts.print) {
      const body = bodyLine(ev);
      if (body === undefined) io.err(`${isoSeconds(ev.receivedAt)} the body is not JSON: not printed`);
      else io.out(`${body}\n`);
      io.err(line);
    } else {
      io.out(`${line}\n`);
    }
    return Promise.resolve();
  }
}
