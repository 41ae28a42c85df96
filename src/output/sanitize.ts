// Text from carriers and users (event descriptions, locations, tags, remarks) reaches the terminal. A carrier
// page or a tag can carry escape sequences that recolour the screen, rewrite the window title, hide links (OSC 8)
// or reorder what is shown (bidi overrides), so such text is cleaned before it is printed to a terminal or a
// tab-separated line. JSON and CSV keep the data as sent.

// Whole escape sequences first, so that their parameters do not survive as visible garbage.
const SEQUENCES = new RegExp(
  [
    // OSC (ESC ] or C1 \x9d) up to BEL or ST (ESC \ or \x9c). An unterminated one loses only its introducer
    // (below): a stray C1 character from mis-decoded text must not swallow the rest of a description. The body
    // stops at the next introducer too, so that text full of introducers is scanned once, not once for each.
    '(?:\\x1b\\]|\\x9d)[^\\x07\\x1b\\x9c\\x9d\\x90\\x98\\x9e\\x9f]*(?:\\x07|\\x1b\\\\|\\x9c)',
    // DCS, SOS, PM, APC strings (ESC P/X/^/_ or C1 \x90/\x98/\x9e/\x9f) up to ST, likewise.
    '(?:\\x1b[PX^_]|[\\x90\\x98\\x9e\\x9f])[^\\x1b\\x9c\\x9d\\x90\\x98\\x9e\\x9f]*(?:\\x1b\\\\|\\x9c)',
    // CSI (ESC [ or C1 \x9b): parameter bytes, intermediate bytes, final byte.
    '(?:\\x1b\\[|\\x9b)[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?',
    // Any other escape: intermediates then one final byte (charset selection, keypad modes, RIS...).
    '\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?',
  ].join('|'),
  'g',
);

// Remaining C0 controls except tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate
// characters (U+202A–U+202E, U+2066–U+2069) that can make shown text differ from its logical order.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

export interface SanitizeOptions {
  /** Replace tabs and newlines with spaces too (table cells of one line, tab-separated output). */
  singleLine?: boolean;
}

/** Strip terminal control characters and escape sequences; keeps tab and newline unless `singleLine`. */
export function sanitizeTerminalText(s: string, opts: SanitizeOptions = {}): string {
  let out = s.replace(/\r\n?/g, '\n').replace(SEQUENCES, '').replace(CONTROLS, '');
  if (opts.singleLine) out = out.replace(/[\t\n]+/g, ' ');
  return out;
}

/** A cell value as safe one-line text for a tab-separated line. */
export function tsvField(s: string): string {
  return sanitizeTerminalText(s, { singleLine: true });
}

/** A value from user input, quoted, cut to 40 characters and safe on a terminal line (messages echo it). */
export function show(value: string): string {
  const cut = [...value].length > 40 ? `${[...value].slice(0, 37).join('')}...` : value;
  return JSON.stringify(cut).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
