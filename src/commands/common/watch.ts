// --watch: look again every --every, show what is seen when it changed, and stop when every shipment shown is
// delivered or returned (exit 0). On a terminal the screen is redrawn in place, with a line on stderr saying
// when the last look was; elsewhere (a log, a pipe) the output is printed again, whole, each time it changed.
// Ctrl-C stops watching (exit 130, so that `trk info X --watch && notify` does not notify).

import type { Context } from '../../context/context.js';
import { InterruptedError, stopExitCode } from '../../core/errors.js';
import type { IO } from '../../io/io.js';
import { statusLine } from '../../output/status-line.js';
import { duration } from '../../core/text.js';
import { clock } from '../../core/clock.js';

/** The default pace of --watch: tracking details change when the service next hears from the carrier. */
export const DEFAULT_EVERY_MS = 10 * 60_000;

/** What one look saw. */
export interface Look {
  /** What to show, rendered for `io`. */
  text: string;
  /** Every shipment shown is delivered or returned: stop watching. */
  finished: boolean;
  /** A few words on what was seen (`3 of 5 delivered`), on the status line. */
  note: string;
}

/** An IO whose stdout is kept in a string, for rendering one look before deciding whether to show it. */
export function captureIO(io: IO): { io: IO; text(): string } {
  let buf = '';
  return { io: { ...io, out: (t) => void (buf += t) }, text: () => buf };
}

export async function watch(ctx: Context, everyMs: number, look: () => Promise<Look>): Promise<number> {
  const { io } = ctx;
  const status = statusLine(io, ctx.global.quiet !== true);
  let last: string | undefined;
  for (;;) {
    const seen = await look();
    if (seen.text !== last) {
      status.clear();
      // On a terminal the screen holds the latest look only; elsewhere each change is printed after the last.
      io.out(io.stdoutIsTTY ? `\x1b[H\x1b[2J${seen.text}` : seen.text);
      last = seen.text;
    }
    if (seen.finished) {
      status.clear();
      ctx.info(`${seen.note}: done watching`);
      return 0;
    }
    const at = new Date(clock().now()).toTimeString().slice(0, 5);
    status.show(`${seen.note} · looked at ${at}, next in ${duration(everyMs / 1000)} · Ctrl-C to stop`);
    try {
      await clock().sleep(everyMs, ctx.signal);
    } catch {
      status.clear();
      throw new InterruptedError('interrupted', stopExitCode(ctx.signal));
    }
  }
}
