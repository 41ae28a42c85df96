// Text from the network and the command line (event descriptions, tags, service messages, numbers) reaches the
// terminal in tables, status lines and error messages. A carrier page or a tag can carry escape sequences that
// recolour the screen, rewrite the window title, hide links (OSC 8) or reorder what is shown (bidi overrides), so
// such text is cleaned before it is printed. Here rather than in output/: the service's errors (api/) clean the
// messages they quote, and api does not reach into the renderers.

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
