// The one output entry point: rows, item results and single objects rendered as a table, tab-separated lines,
// JSON, NDJSON or CSV. Data goes to stdout through the IO; colour comes from the IO's chalk instance for stdout.
// JSON and NDJSON print the service's items as sent; tables, TSV and CSV print the columns. Text shown on a
// terminal (tables, and CSV when stdout is one) or in TSV is stripped of control characters first; JSON, and CSV
// sent to a file or a pipe, stay faithful to the data, except that CSV cells a spreadsheet would run as formulas
// get a leading quote (csv-cell.ts; --raw-csv keeps them as received).

import type { ChalkInstance } from 'chalk';
import type { IO } from '../io.js';
import type { ItemError, ItemResults } from '../api/types.js';
import { csvCell } from './csv-cell.js';
import type { OutputFormat } from './format.js';
import { sanitizeTerminalText, tsvField } from './sanitize.js';
import { Spill } from './spill.js';
import { textWidth } from './width.js';

export { sanitizeTerminalText } from './sanitize.js';
export { textWidth } from './width.js';

export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  /** Stable machine name: the CSV header and the key in tab-separated output order. */
  key: string;
  /** Header shown in tables. */
  header: string;
  value(row: T): Cell;
  /** Colour for tables on a terminal (text is already sanitised). */
  style?(text: string, row: T, c: ChalkInstance): string;
  /** Text for tables when it differs from the machine value (`3011 China Post`, shorter times). */
  display?(row: T): Cell;
  /**
   * Drop rank for tables wider than the terminal: columns with a rank are dropped, highest first, until the table
   * fits. Columns without one are always shown. TSV, CSV and JSON always have every column.
   */
  wide?: number;
}

/**
 * How rows are shown. `undefined` format = automatic: a coloured table with header on a terminal, tab-separated
 * rows without header or colour when stdout is piped.
 */
export interface RowWriter<T> {
  /** Add rows; `raw` are the service's items for the same rows (what --json/--ndjson print). */
  write(rows: readonly T[], raw?: readonly unknown[]): void;
  /** Finish (tables are printed here; JSON arrays are closed). */
  end(): Promise<void>;
  /**
   * Finish after a failure part-way (a later page could not be fetched), so that a script cannot take what was
   * written for the whole: JSON and CSV write nothing at all when no row came, else they end so that they do not
   * parse (a JSON array left open; a CSV record left inside an open quote). Line-by-line formats (NDJSON,
   * tab-separated) keep the lines written, each complete; a terminal table shows the rows that came.
   */
  abort(): Promise<void>;
}

/** What is actually rendered: the automatic format resolved against the terminal. */
export type ResolvedFormat = OutputFormat | 'tsv';

export function resolveFormat(io: IO, format: OutputFormat | undefined): ResolvedFormat {
  return format ?? (io.stdoutIsTTY ? 'table' : 'tsv');
}

/** Plain text of a cell: empty for null/undefined, `true`/`false` for booleans. */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return String(v);
}

/** An object of column keys → values: what JSON shows when the service's items are not given. */
function keyed<T>(columns: readonly Column<T>[], row: T): Record<string, Cell> {
  const o: Record<string, Cell> = {};
  for (const c of columns) o[c.key] = c.value(row) ?? null;
  return o;
}

/** JSON.stringify(value, null, 2) of one array element, indented to sit inside a pretty-printed array. */
function prettyElement(v: unknown): string {
  return (JSON.stringify(v, null, 2) ?? 'null').replace(/\n/g, '\n  ');
}

export function createRowWriter<T>(
  io: IO,
  columns: readonly Column<T>[],
  format: OutputFormat | undefined,
): RowWriter<T> {
  switch (resolveFormat(io, format)) {
    case 'json':
      return jsonWriter(io, columns);
    case 'ndjson':
      return ndjsonWriter(io, columns);
    case 'csv':
      return csvWriter(io, columns);
    case 'tsv':
      return tsvWriter(io, columns);
    case 'table':
      return tableWriter(io, columns);
  }
}

function itemsOf<T>(columns: readonly Column<T>[], rows: readonly T[], raw?: readonly unknown[]): readonly unknown[] {
  return raw ?? rows.map((r) => keyed(columns, r));
}

// A single JSON array written piece by piece, so a long list never sits in memory as one string. The result is
// byte-identical to JSON.stringify(allItems, null, 2).
function jsonWriter<T>(io: IO, columns: readonly Column<T>[]): RowWriter<T> {
  let count = 0;
  return {
    write(rows, raw) {
      let chunk = '';
      for (const item of itemsOf(columns, rows, raw)) {
        chunk += `${count === 0 ? '[\n  ' : ',\n  '}${prettyElement(item)}`;
        count++;
      }
      if (chunk !== '') io.out(chunk);
    },
    async end() {
      io.out(count === 0 ? '[]\n' : '\n]\n');
    },
    async abort() {
      // The array stays open: `[ ... }` followed by a line break is not JSON.
      if (count > 0) io.out('\n');
    },
  };
}

function ndjsonWriter<T>(io: IO, columns: readonly Column<T>[]): RowWriter<T> {
  return {
    write(rows, raw) {
      let chunk = '';
      for (const item of itemsOf(columns, rows, raw)) chunk += `${JSON.stringify(item) ?? 'null'}\n`;
      if (chunk !== '') io.out(chunk);
    },
    async end() {},
    async abort() {},
  };
}

type CsvStringify = (typeof import('csv-stringify/sync'))['stringify'];

// csv-stringify is loaded lazily; rows written before it is there wait in order and are flushed as soon as it
// loads, so output still streams page by page. The header (column keys) comes with the first rows, or alone at the
// end of an empty list. CSV redirected to a file keeps the data as sent; CSV printed straight to a terminal is
// cleaned like a table, since a tag or an event there could otherwise recolour the screen or retitle the window.
// Either way a cell that would run as a formula in a spreadsheet gets a leading quote unless --raw-csv.
function csvWriter<T>(io: IO, columns: readonly Column<T>[]): RowWriter<T> {
  const keys = columns.map((c) => c.key);
  const raw = io.rawCsv === true;
  const text = io.stdoutIsTTY ? (v: Cell) => csvCell(sanitizeTerminalText(cellText(v)), raw) : (v: Cell) => csvCell(cellText(v), raw);
  let stringify: CsvStringify | undefined;
  let headerDone = false;
  let pending: string[][] = [];
  const flush = (final = false) => {
    if (!stringify || (pending.length === 0 && (headerDone || !final))) return;
    const records = pending;
    pending = [];
    const out = stringify(records, { header: !headerDone, columns: keys });
    headerDone = true;
    if (out !== '') io.out(out);
  };
  const loading = import('csv-stringify/sync').then((m) => {
    stringify = m.stringify;
    flush();
  });
  // A failed import is reported by end(); do not let it surface as an unhandled rejection before that.
  loading.catch(() => {});
  return {
    write(rows) {
      // Cells become text now, so later changes to the row objects cannot alter what is printed.
      for (const r of rows) pending.push(columns.map((c) => text(c.value(r))));
      flush();
    },
    async end() {
      await loading;
      flush(true);
    },
    async abort() {
      await loading;
      flush();
      // A record opened by a quote that never closes: CSV readers (csv-parse, pandas, R) refuse the file.
      if (headerDone) io.out('"trk: incomplete, the listing failed before its end\n');
    },
  };
}

// Piped automatic output: one line per row, columns in order, no header, no colour, times as sent (ISO).
function tsvWriter<T>(io: IO, columns: readonly Column<T>[]): RowWriter<T> {
  return {
    write(rows) {
      let chunk = '';
      for (const r of rows) chunk += `${columns.map((c) => tsvField(cellText(c.value(r)))).join('\t')}\n`;
      if (chunk !== '') io.out(chunk);
    },
    async end() {},
    async abort() {},
  };
}

// Tables need every row to size their columns, so rows are kept (as display text) until end().
function tableWriter<T>(io: IO, columns: readonly Column<T>[]): RowWriter<T> {
  const cells: { text: string; row: T }[][] = [];
  const end = async () => {
    const text = await renderTable(io, columns, cells);
    if (text !== '') io.out(text);
  };
  return {
    write(rows) {
      for (const r of rows) {
        cells.push(
          columns.map((c) => ({
            text: sanitizeTerminalText(cellText(c.display ? c.display(r) : c.value(r)), { singleLine: true }),
            row: r,
          })),
        );
      }
    },
    end,
    // People read tables: the rows that came are shown, and the error follows on stderr.
    abort: end,
  };
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};
const GAP = 2;
const MIN_WIDTH = 8;

async function renderTable<T>(
  io: IO,
  columns: readonly Column<T>[],
  cells: readonly { text: string; row: T }[][],
): Promise<string> {
  // An empty list prints nothing (commands say so on stderr), not a lone header.
  if (cells.length === 0) return '';
  const { default: Table } = await import('cli-table3');
  const c = io.color;
  const coloured = c.level > 0;
  const natural = columns.map((col) => textWidth(col.header));
  const filled = columns.map(() => false);
  for (const r of cells) {
    r.forEach((cell, i) => {
      natural[i] = Math.max(natural[i]!, textWidth(cell.text));
      if (cell.text !== '') filled[i] = true;
    });
  }
  const total = (idx: number[]) => idx.reduce((s, i) => s + natural[i]!, 0) + GAP * Math.max(0, idx.length - 1);
  // Ranked columns without a value in any row are left out (v1 lists have no v2.1 fields, for instance); then
  // ranked columns are dropped, highest rank first, until the table fits; then the widest columns wrap.
  let shown = columns.map((_, i) => i).filter((i) => filled[i] || columns[i]!.wide === undefined);
  const droppable = shown
    .filter((i) => columns[i]!.wide !== undefined)
    .sort((a, b) => columns[b]!.wide! - columns[a]!.wide! || b - a);
  for (const i of droppable) {
    if (total(shown) <= io.columns) break;
    shown = shown.filter((j) => j !== i);
  }
  const widths = shown.map((i) => natural[i]!);
  const room = io.columns - GAP * Math.max(0, shown.length - 1);
  let fitted = false;
  // The first column identifies the row (the number): it is narrowed only when nothing else can be.
  const widestFrom = (from: number) => {
    let best = -1;
    for (let i = from; i < widths.length; i++) if (widths[i]! > MIN_WIDTH && (best < 0 || widths[i]! > widths[best]!)) best = i;
    return best;
  };
  for (;;) {
    const sum = widths.reduce((s, w) => s + w, 0);
    if (sum <= room) break;
    const widest = widestFrom(1) >= 0 ? widestFrom(1) : widestFrom(0);
    if (widest < 0) break;
    widths[widest] = widths[widest]! - 1;
    fitted = true;
  }
  const table = new Table({
    head: shown.map((i) => (coloured ? c.bold(columns[i]!.header) : columns[i]!.header)),
    chars: BORDERLESS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
    ...(fitted ? { colWidths: widths, wordWrap: true } : {}),
  });
  for (const r of cells) {
    table.push(
      shown.map((i) => {
        const cell = r[i]!;
        const col = columns[i]!;
        return coloured && col.style && cell.text !== '' ? col.style(cell.text, cell.row, c) : cell.text;
      }),
    );
  }
  return `${table.toString().replace(/ +$/gm, '')}\n`;
}

/** Rows in one go. */
export async function printRows<T>(
  io: IO,
  rows: readonly T[],
  columns: readonly Column<T>[],
  format: OutputFormat | undefined,
  raw?: readonly unknown[],
): Promise<void> {
  const w = createRowWriter(io, columns, format);
  w.write(rows, raw);
  await w.end();
}

/** What item columns see: the service's item with `result`; rejected items also carry `error`. */
export type ItemRow<A> = A & { result: 'accepted' | 'rejected'; error?: ItemError };

/** Columns every item-result table has; added after the given ones when the set lacks them. */
export const RESULT_COLUMNS: readonly Column<ItemRow<object>>[] = [
  {
    key: 'result',
    header: 'RESULT',
    value: (r) => r.result,
    style: (t, r, c) => (r.result === 'accepted' ? c.green(t) : c.red(t)),
  },
  { key: 'error_code', header: 'ERROR', value: (r) => r.error?.code },
  { key: 'error_message', header: 'MESSAGE', value: (r) => r.error?.message },
];

/**
 * Results of an item command, written as its chunks settle. json: `{"accepted":[...],"rejected":[...]}` with the
 * service's items; ndjson: one line per item with `"result":"accepted"|"rejected"`; csv/table/tsv: one row per
 * item with a result column, rejected rows carrying error code and message. Accepted items come first, as they
 * arrive (only a terminal table holds them, for its widths); rejected ones are held back until the end, on disk
 * beyond a megabyte (spill.ts), so that the output of any number of items takes flat memory.
 *
 * The columns are applied to accepted and rejected items alike, so they must read fields defensively (a rejected
 * item has `number`, maybe `carrier` and `tag`, and `error`). Columns keyed `result`, `error_code` and
 * `error_message` are added at the end when the set does not place them itself. `view` turns the service's items
 * into what the columns read (not for JSON and NDJSON, which print the items as sent).
 */
export interface ItemResultsWriter<A = unknown> {
  write(results: ItemResults<A>): void;
  /** Finish: the held-back rejected items, then the closing of the document. */
  end(): Promise<void>;
  /**
   * Finish after a failure: as RowWriter.abort (a JSON document left open, a CSV record left in an open quote,
   * lines kept as written); the held-back items are dropped, except that a terminal table shows every row.
   */
  abort(): Promise<void>;
}

export interface ItemView<A, V> {
  accepted(item: A): V;
  rejected(item: A & { error: ItemError }): V;
}

export function createItemResultsWriter<A, V = A>(
  io: IO,
  columns: readonly Column<V>[],
  format: OutputFormat | undefined,
  view?: ItemView<A, V>,
): ItemResultsWriter<A> {
  const fmt = resolveFormat(io, format);
  const held = new Spill();
  if (fmt === 'json') return jsonItemsWriter(io, held);
  if (fmt === 'ndjson') {
    const line = (item: unknown, result: 'accepted' | 'rejected') => `${JSON.stringify(withResult(item as object, result))}\n`;
    return {
      write(results) {
        const text = results.accepted.map((a) => line(a, 'accepted')).join('');
        if (text !== '') io.out(text);
        for (const r of results.rejected) held.push(r);
      },
      async end() {
        for await (const r of held.drain()) io.out(line(r, 'rejected'));
      },
      async abort() {
        held.discard();
      },
    };
  }
  const have = new Set(columns.map((c) => c.key));
  const all = [
    ...(columns as readonly Column<ItemRow<V>>[]),
    ...(RESULT_COLUMNS as readonly Column<ItemRow<V>>[]).filter((c) => !have.has(c.key)),
  ];
  const rows = createRowWriter(io, all, format);
  const rejectedRow = (item: unknown) => {
    const r = item as A & { error: ItemError };
    return withResult(view ? view.rejected(r) : (r as unknown as V), 'rejected');
  };
  const flushHeld = async () => {
    for await (const r of held.drain()) rows.write([rejectedRow(r)]);
  };
  return {
    write(results) {
      if (results.accepted.length > 0) rows.write(results.accepted.map((a) => withResult(view ? view.accepted(a) : (a as unknown as V), 'accepted')));
      for (const r of results.rejected) held.push(r);
    },
    async end() {
      await flushHeld();
      await rows.end();
    },
    async abort() {
      // People read tables: every row that came is shown, and the error follows on stderr.
      if (fmt === 'table') await flushHeld();
      else held.discard();
      await rows.abort();
    },
  };
}

/** `{"accepted": [...], "rejected": [...]}` as JSON.stringify(results, null, 2) writes it, accepted items as they come. */
function jsonItemsWriter(io: IO, held: Spill): ItemResultsWriter<unknown> {
  let accepted = 0;
  const element = (item: unknown) => `    ${(JSON.stringify(item, null, 2) ?? 'null').replace(/\n/g, '\n    ')}`;
  return {
    write(results) {
      let text = '';
      for (const a of results.accepted) text += `${accepted++ === 0 ? '{\n  "accepted": [\n' : ',\n'}${element(a)}`;
      if (text !== '') io.out(text);
      for (const r of results.rejected) held.push(r);
    },
    async end() {
      io.out(accepted === 0 ? '{\n  "accepted": [],\n  "rejected": ' : '\n  ],\n  "rejected": ');
      let rejected = 0;
      for await (const r of held.drain()) io.out(`${rejected++ === 0 ? '[\n' : ',\n'}${element(r)}`);
      io.out(rejected === 0 ? '[]\n}\n' : '\n  ]\n}\n');
    },
    async abort() {
      held.discard();
      // The document stays open: `{ "accepted": [ ... }` followed by a line break is not JSON.
      if (accepted > 0) io.out('\n');
    },
  };
}

/** Results of an item command in one go (see createItemResultsWriter). */
export async function printItemResults<A>(
  io: IO,
  results: ItemResults<A>,
  columns: readonly Column<A>[],
  format: OutputFormat | undefined,
): Promise<void> {
  const writer = createItemResultsWriter<A>(io, columns, format);
  writer.write(results);
  await writer.end();
}

// `result` first for readability, and always ours even if the service one day sends a field of that name.
function withResult<A>(item: A, result: 'accepted' | 'rejected'): ItemRow<A> {
  return Object.assign({ result }, item, { result }) as ItemRow<A>;
}

/**
 * One object as field/value pairs (quota): json prints the object as the service sent it, ndjson one line. A table
 * (terminal) shows FIELD/VALUE rows; piped automatic output is `key<TAB>value` lines; CSV is a header of the keys
 * and one row, like any other CSV trk prints.
 */
export async function printObject<T extends object>(
  io: IO,
  obj: T,
  fields: readonly Column<T>[],
  format: OutputFormat | undefined,
): Promise<void> {
  const fmt = resolveFormat(io, format);
  if (fmt === 'json') {
    io.out(`${JSON.stringify(obj, null, 2)}\n`);
    return;
  }
  if (fmt === 'ndjson') {
    io.out(`${JSON.stringify(obj)}\n`);
    return;
  }
  if (fmt === 'csv') {
    await printRows(io, [obj], fields, 'csv');
    return;
  }
  interface Pair {
    field: Column<T>;
  }
  const pairs: Pair[] = fields.map((field) => ({ field }));
  const pairColumns: Column<Pair>[] = [
    { key: 'field', header: 'FIELD', value: (p) => (fmt === 'tsv' ? p.field.key : p.field.header) },
    {
      key: 'value',
      header: 'VALUE',
      value: (p) => p.field.value(obj),
      display: (p) => (p.field.display ? p.field.display(obj) : p.field.value(obj)),
      style: (t, p, c) => (p.field.style ? p.field.style(t, obj, c) : t),
    },
  ];
  await printRows(io, pairs, pairColumns, fmt === 'tsv' ? undefined : 'table');
}
