// The layout of tables for people: which columns a terminal of a given width shows, and how wide each is. Long
// cells are shortened with "…" before any column is left out, so one 90-character tag no longer hides half the
// table. Ranked columns are taken in, most important first, as long as each fits at its shortest without
// squeezing the columns already in below a fair width (by default twice their shortest): a column is left out
// only when shortening cannot make room for it. What is in is then narrowed, widest column first, never below a
// column's shortest width. Columns without a rank (the number, the status, the tracking state) are never left
// out, nor are columns the user named with --columns. `-o wide` shows every column at its natural width.
//
// The layout is decided once, from the rows at hand when the table starts (the first page of a list), so that a
// long list can be shown page by page as it arrives; later cells that are longer than their column are shortened
// to it.

import { textWidth } from './width.js';

export interface LayoutColumn {
  header: string;
  /** Drop rank: ranked columns go, highest first, when even shortened cells do not fit. */
  rank?: number | undefined;
  /** Cells may be shortened down to this width (free text); undefined: never shortened (times, codes, statuses). */
  shrink?: number | undefined;
  /** Below this width (default twice `shrink`), a less important column is left out rather than this one narrowed. */
  fair?: number | undefined;
  /** Shown even when no row has a value (columns without a rank, and columns asked for by name). */
  always?: boolean | undefined;
  /** The widest its values can be, when known (statuses): room kept for rows that come later. */
  width?: number | undefined;
}

export interface Layout {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  /** Width of each shown column, in terminal cells. */
  widths: number[];
}

/** Two spaces between columns. */
export const GAP = 2;

/**
 * Columns and widths for `rows` (cells as plain one-line text) on a terminal `width` cells wide. `wide`: every
 * column with a value (or `always`), natural widths, whatever the terminal.
 */
export function tableLayout(
  columns: readonly LayoutColumn[],
  rows: readonly (readonly string[])[],
  width: number,
  opts: { wide?: boolean } = {},
): Layout {
  const natural = columns.map((c) => Math.max(textWidth(c.header), c.width ?? 0));
  const filled = columns.map(() => false);
  for (const r of rows) {
    r.forEach((text, i) => {
      natural[i] = Math.max(natural[i]!, textWidth(text));
      if (text !== '') filled[i] = true;
    });
  }
  // Ranked columns without a value in any row are left out (v1 lists have no v2.1 fields, for instance).
  let shown = columns.map((_, i) => i).filter((i) => filled[i] || columns[i]!.always || columns[i]!.rank === undefined);
  if (opts.wide) return { shown, widths: shown.map((i) => natural[i]!) };
  // No column is shown wider than the terminal: a 100,000-cell tag is narrowed from there, not a cell at a time.
  for (let i = 0; i < natural.length; i++) natural[i] = Math.min(natural[i]!, Math.max(width, textWidth(columns[i]!.header)));
  // The shortest a column may be, and the width it counts for when deciding which columns fit.
  const floor = columns.map((c, i) =>
    c.shrink === undefined ? natural[i]! : Math.min(natural[i]!, Math.max(c.shrink, textWidth(c.header))),
  );
  const fair = columns.map((c, i) => (c.shrink === undefined ? natural[i]! : Math.min(natural[i]!, Math.max(c.fair ?? 2 * c.shrink, floor[i]!))));
  // Columns that may go are taken in by rank, lowest first, each rank whole (FROM and TO go together), when they
  // fit at their shortest without narrowing the columns already in below their fair width. A column that does not
  // fit leaves room for narrower ones of a higher rank.
  const kept = new Set(shown.filter((i) => columns[i]!.rank === undefined || columns[i]!.always));
  const ranks = [...new Set(shown.filter((i) => !kept.has(i)).map((i) => columns[i]!.rank!))].sort((a, b) => a - b);
  for (const rank of ranks) {
    const group = shown.filter((i) => !kept.has(i) && columns[i]!.rank === rank);
    const total = [...kept].reduce((s, i) => s + fair[i]!, 0) + group.reduce((s, i) => s + floor[i]!, 0) + GAP * (kept.size + group.length - 1);
    if (total <= width) for (const i of group) kept.add(i);
  }
  shown = shown.filter((i) => kept.has(i));
  return { shown, widths: shrinkToFit(shown.map((i) => natural[i]!), shown.map((i) => floor[i]!), width - GAP * Math.max(0, shown.length - 1)) };
}

/** Narrow the widest columns first, one cell at a time, never below their floor, until the sum fits `room`. */
function shrinkToFit(widths: number[], floors: readonly number[], room: number): number[] {
  let total = widths.reduce((s, w) => s + w, 0);
  while (total > room) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i]! > floors[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    }
    if (widest < 0) break;
    widths[widest] = widths[widest]! - 1;
    total -= 1;
  }
  return widths;
}

/** A cell fitted to its column: free text cut with "…"; other text (a time, a number, a code) kept whole. */
export function fitted(text: string, width: number, column: Pick<LayoutColumn, 'shrink'>): string {
  return column.shrink === undefined ? text : shorten(text, width);
}

/** Text cut to `width` cells, ending in "…" when it was longer. */
export function shorten(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = textWidth(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  // `2151 Correios …` reads as two words: the space before the ellipsis goes.
  return `${out.trimEnd()}…`;
}

/**
 * A line without the spaces at its end (a last column left empty). A loop, not `/ +$/`: the regular expression
 * tries every space of a run in turn, which takes quadratic time past a column padded to 100,000 cells.
 */
export function withoutTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 0x20) end--;
  return end === line.length ? line : line.slice(0, end);
}

/** Spaces that bring text of `text`'s width up to `width`. */
export function padding(text: string, width: number): string {
  return ' '.repeat(Math.max(0, width - textWidth(text)));
}
