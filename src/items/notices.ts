// What a run says on stderr (its summary, the notes of its input, what it left out or set aside): on a terminal,
// each message wrapped between words at the terminal's width (wrapNotice), as help pages and the tracking page
// wrap theirs; piped, in a log or in cron mail, one line per message, as scripts grep them.

import type { Context } from '../context/context.js';
import type { IO } from '../io/io.js';
import { wrapNotice } from '../output/width.js';

/** The lines a message of a run takes on stderr. */
export function noticeLines(io: IO, message: string): string[] {
  return io.stderrIsTTY ? wrapNotice(message, io.stderrColumns) : [message];
}

/** A status line of a run, unless --quiet. */
export function say(ctx: Pick<Context, 'io' | 'info'>, message: string): void {
  for (const line of noticeLines(ctx.io, message)) ctx.info(line);
}

/** A line of a run shown with --quiet too (what was set aside, the problems of an input). */
export function tell(io: IO, message: string): void {
  for (const line of noticeLines(io, message)) io.err(line);
}
