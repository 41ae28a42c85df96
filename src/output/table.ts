// The layout of tables for people: which columns a terminal of a given width shows, and how wide each is. Long
// cells are shortened with "…" before any column is left out, so one 90-character tag no longer hides half the
// table. Ranked columns are taken in, most important first, as long as each fits at its shortest without
// squeezing the columns already in below a fair width (by default twice their shortest): a column is left out
// only when shortening cannot make room for it. What is in is then narrowed, widest column first, never below a
// column's shortest width. Columns without a rank (the number, the status, the tracking state) are never left
// out, nor are columns the user named with --columns. `-o wide` shows every column at its natural width.
//
// The layout is decided once, from the rows at hand when the table starts (the first page of a list), so that a
// long list can be shown page by page as it arrives. Columns keep room for rows that come later (`room`: the usual
// longest numbers and carrier names, the longest status) as far as the terminal has it: a room has a rank among
// the ranked columns (a number's room comes before the optional columns; a status's after all of them; within a
// rank, from left to right), and is only granted from what the columns already in leave at their natural width, so
// that keeping room never cuts the text at hand. Later cells longer than their column are shortened to it; one
// that may not be cut (a number) pushes the rest of its row right until a cell with room to spare, or one that
// may be cut, takes it back.
// Messages (`wrap`) are never cut: they go on over more lines of their column.

import { drawnCharacters, textWidth, wrapText } from './width.js';

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
  /** Room for rows that come later: the width the column would like (the widest status, the usual longest numbers). */
  room?: number | undefined;
  /** The rank of that room among the ranked columns; default after all of them. */
  roomRank?: number | undefined;
  /** Cells go on over more lines rather than being cut (messages). */
  wrap?: boolean | undefined;
  /** Cells are cut at their start, keeping the end (a path: its file name). */
  keepEnd?: boolean | undefined;
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
  const natural = columns.map((c) => textWidth(c.header));
  const filled = columns.map(() => false);
  for (const r of rows) {
    r.forEach((text, i) => {
      natural[i] = Math.max(natural[i]!, textWidth(text));
      if (text !== '') filled[i] = true;
    });
  }
  // Ranked columns without a value in any row are left out (v1 lists have no v2.1 fields, for instance).
  const candidates = columns.map((_, i) => i).filter((i) => filled[i] || columns[i]!.always || !columns[i]!.rank);
  // Every column at its natural width, and the room it keeps for later rows.
  if (opts.wide) {
    return { shown: candidates, widths: candidates.map((i) => Math.max(natural[i]!, columns[i]!.room ?? 0)) };
  }
  // No column is shown wider than the terminal: a 100,000-cell tag is narrowed from there, not a cell at a time.
  for (let i = 0; i < natural.length; i++) {
    natural[i] = Math.min(natural[i]!, Math.max(width, textWidth(columns[i]!.header)));
  }
  // The shortest a column may be, and the width it counts for when deciding which columns fit.
  const floor = columns.map((c, i) =>
    c.shrink === undefined ? natural[i]! : Math.min(natural[i]!, Math.max(c.shrink, textWidth(c.header))),
  );
  const fair = columns.map((c, i) =>
    c.shrink === undefined ? natural[i]! : Math.min(natural[i]!, Math.max(c.fair ?? 2 * c.shrink, floor[i]!)),
  );
  const { kept, room, firm } = admit(columns, candidates, { natural, floor, fair }, width);
  const shown = candidates.filter((i) => kept.has(i));
  // Firm columns keep their natural width when they fit as they are (see admit).
  const firmFits = shown.filter((i) => firm.has(i)).reduce((s, i) => s + natural[i]! + room[i]! + GAP, -GAP) <= width;
  return {
    shown,
    widths: shrinkToFit(
      shown.map((i) => natural[i]! + room[i]!),
      shown.map((i) => (firmFits && firm.has(i) ? natural[i]! : floor[i]!) + room[i]!),
      width - GAP * Math.max(0, shown.length - 1),
    ),
  };
}

/**
 * The columns taken in, and the room granted to each, rank by rank (lowest first). A rank's columns are taken in
 * whole (FROM and TO go together) when they fit at their shortest without narrowing the columns already in below
 * their fair width; a column that does not fit leaves room for narrower ones of a higher rank. A room of the rank
 * is granted as far as the columns in, at their natural width, leave space; those columns are then firm: later
 * ones never narrow them (a room is not kept at the cost of the text at hand).
 */
function admit(
  columns: readonly LayoutColumn[],
  candidates: readonly number[],
  widths: { natural: readonly number[]; floor: readonly number[]; fair: readonly number[] },
  width: number,
): { kept: Set<number>; room: number[]; firm: Set<number> } {
  const { natural, floor, fair } = widths;
  const kept = new Set(candidates.filter((i) => columns[i]!.rank === undefined || columns[i]!.always));
  const firm = new Set<number>();
  const room = columns.map(() => 0);
  const roomRank = (i: number) => columns[i]!.roomRank ?? Number.POSITIVE_INFINITY;
  const wanting = candidates.filter((i) => (columns[i]!.room ?? 0) > natural[i]!);
  const used = (at: (i: number) => number) => {
    return [...kept].reduce((s, i) => s + at(i) + room[i]!, 0) + GAP * (kept.size - 1);
  };
  const ranks = [...candidates.filter((i) => !kept.has(i)).map((i) => columns[i]!.rank!), ...wanting.map(roomRank)];
  for (const rank of [...new Set(ranks)].sort((a, b) => a - b)) {
    const group = candidates.filter((i) => !kept.has(i) && columns[i]!.rank === rank);
    const groupFloor = group.reduce((s, i) => s + floor[i]! + GAP, 0);
    if (group.length > 0 && used((i) => (firm.has(i) ? natural[i]! : fair[i]!)) + groupFloor <= width) {
      for (const i of group) kept.add(i);
    }
    const rooms = wanting.filter((i) => roomRank(i) === rank && kept.has(i));
    if (rooms.length === 0) continue;
    for (const i of kept) firm.add(i);
    for (const i of rooms) {
      room[i] = Math.max(0, Math.min(columns[i]!.room! - natural[i]!, width - used((j) => natural[j]!)));
    }
  }
  return { kept, room, firm };
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

/**
 * The lines of one row (see the top of the file): each cell fitted to its column, cut with "…", kept whole (a
 * number, a time, a code), or wrapped onto further lines (`wrap`). `style` colours a piece of a cell's text.
 */
export function rowLines(
  texts: readonly string[],
  layout: Layout,
  columns: readonly LayoutColumn[],
  style: (text: string, i: number) => string,
): string[] {
  const pieces = layout.shown.map((i, k) => {
    const text = texts[i]!;
    return columns[i]!.wrap && textWidth(text) > layout.widths[k]! ? wrapText(text, layout.widths[k]!) : [text];
  });
  const lines: string[] = [];
  const height = Math.max(1, ...pieces.map((p) => p.length));
  for (let n = 0; n < height; n++) {
    // How far the cells so far have pushed this one right of its column.
    let push = 0;
    const parts = layout.shown.map((i, k) => {
      const width = layout.widths[k]!;
      const { shrink, keepEnd } = columns[i]!;
      let text = pieces[k]![n] ?? '';
      // Cut to its column, or shorter to take back a push, never below the column's shortest.
      const cut = keepEnd ? shortenStart : shorten;
      if (shrink !== undefined) text = cut(text, Math.max(width - push, Math.min(width, shrink)));
      const used = textWidth(text);
      const gap = k === layout.shown.length - 1 ? 0 : Math.max(0, width - push - used);
      push = Math.max(0, push + used - width);
      return `${text === '' ? '' : style(text, i)}${' '.repeat(gap)}`;
    });
    lines.push(withoutTrailingSpaces(parts.join(' '.repeat(GAP))));
  }
  return lines;
}

/** Text cut to `width` cells, ending in "…" when it was longer. */
export function shorten(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  let out = '';
  let used = 0;
  for (const ch of drawnCharacters(text)) {
    if (used + ch.width > width - 1) break;
    out += ch.text;
    used += ch.width;
  }
  // `2151 Correios …` reads as two words: the space before the ellipsis goes.
  return `${out.trimEnd()}…`;
}

/** Text cut to `width` cells at its start, beginning with "…" when it was longer: `…/exports/orders.csv`. */
export function shortenStart(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  if (width <= 0) return '';
  const chars = [...drawnCharacters(text)];
  let used = 0;
  let from = chars.length;
  while (from > 0 && used + chars[from - 1]!.width <= width - 1) used += chars[--from]!.width;
  return `…${chars
    .slice(from)
    .map((ch) => ch.text)
    .join('')}`;
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
