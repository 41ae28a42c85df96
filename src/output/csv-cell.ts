// CSV cells that a spreadsheet would run as a formula. A tag, a remark or an event description comes from
// whoever registered the number or from a carrier; a cell such as `=HYPERLINK("http://evil.example","x")`
// opened in Excel or LibreOffice becomes a live link or worse (CSV injection). So every CSV trk writes (the
// --csv output and the rejects file) passes its cells through `csvCell`, which puts a single quote before a cell
// that starts with `=`, `+`, `-`, `@`, a tab or a carriage return, as OWASP recommends. `--raw-csv` turns it off.
//
// Decision: a cell that is entirely a number (`-18019901`, a service error code; `-3.5`; `+1`) is left alone.
// A spreadsheet reads it as that number, not as a formula, and scripts read such columns as numbers; a quote
// would turn an error code into text. Tracking numbers may contain hyphens but never start with one.
//
// `restoreCell` undoes exactly what `csvCell` did, so that trk reads its own files (a rejects file imported
// again) as it wrote them. For that to hold for every cell, a cell that already starts with a quote before
// something `csvCell` would quote (`'=x`, as a user may type it) gets one more quote (`''=x`): the quote trk adds
// is always the first of the cell, and taken off only where it was added.
//
// TSV and JSON stay raw: no spreadsheet runs them, and JSON is for programs.

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function needsQuote(text: string): boolean {
  if (text.startsWith("'")) return needsQuote(text.slice(1));
  return FORMULA_START.test(text) && !NUMBER.test(text);
}

/** The cell as written to CSV: quoted with `'` when a spreadsheet would take it for a formula, unless `raw`. */
export function csvCell(text: string, raw = false): string {
  return !raw && needsQuote(text) ? `'${text}` : text;
}

/** A cell read from CSV, with the quote `csvCell` adds taken off again; anything else unchanged. */
export function restoreCell(text: string): string {
  return text.startsWith("'") && needsQuote(text.slice(1)) ? text.slice(1) : text;
}
