// Text from carriers and users in tab-separated lines and messages: cleaned of terminal controls by
// terminal-text.ts (shared with the service's errors) and made one line. JSON and CSV keep the data as sent.

import { sanitizeTerminalText } from '../io/terminal-text.js';

/** A cell value as safe one-line text for a tab-separated line. */
export function tsvField(s: string): string {
  return sanitizeTerminalText(s, { singleLine: true });
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0]/gu;

/** A value from user input, quoted, cut to 40 characters and safe on a terminal line (messages echo it). */
export function show(value: string): string {
  const cut = [...value].length > 40 ? `${[...value].slice(0, 37).join('')}...` : value;
  // Characters one cannot see (no-break and other spaces, zero-width and direction marks, byte-order marks)
  // are shown escaped, so that a message names what is wrong with a value that looks right.
  return JSON.stringify(cut).replace(INVISIBLE, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
