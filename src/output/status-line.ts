// One line of progress on stderr, redrawn in place on a terminal ("page 12 of 105"), and nothing elsewhere: a
// log or a pipe gets the final status line only. Never wider than the terminal, since a line that wraps leaves
// a copy behind at every redraw.

import type { IO } from '../io/io.js';
import { shorten } from './table.js';

export interface StatusLine {
  show(text: string): void;
  /** Remove the line (before a status line of its own, or the end). */
  clear(): void;
}

export function statusLine(io: IO, enabled = true): StatusLine {
  if (!enabled || !io.stderrIsTTY) return { show() {}, clear() {} };
  let drawn = false;
  return {
    show(text) {
      io.stderr.write(`\r\x1b[2K${shorten(text, Math.max(1, io.stderrColumns - 1))}`);
      drawn = true;
    },
    clear() {
      if (drawn) io.stderr.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
