// Text from carriers and users in tab-separated lines and messages: cleaned of terminal controls by
// terminal-text.ts (shared with the service's errors) and made one line. JSON and CSV keep the data as sent.

import { sanitizeTerminalText } from '../terminal-text.js';

/** A cell value as safe one-line text for a tab-separated line. */
export function tsvField(s: string): string {
  return sanitizeTerminalText(s, { singleLine: true });
}

/** A value from user input, quoted, cut to 40 characters and safe on a terminal line (messages echo it). */
export function show(value: string): string {
  const cut = [...value].length > 40 ? `${[...value].slice(0, 37).join('')}...` : value;
  return JSON.stringify(cut).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
