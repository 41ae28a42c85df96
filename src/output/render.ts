// The one output entry point: rows, item results and single objects rendered as a table, tab-separated lines,
// JSON, NDJSON or CSV. Data goes to stdout through the IO; colour comes from the IO's chalk instance for stdout.
// JSON and NDJSON print the service's items as sent; tables, TSV and CSV print the columns. Text shown on a
// terminal (tables, and CSV when stdout is one) or in TSV is stripped of control characters first; JSON, and CSV
// sent to a file or a pipe, stay faithful to the data, except that CSV cells a spreadsheet would run as formulas
// get a leading quote (csv-cell.ts; --raw-csv keeps them as received).

import type { ChalkInstance } from 'chalk';
import type { IO } from '../io/io.js';
import type { ItemError, ItemResults } from '@trk/service/types.js';
import { UsageError } from '../core/errors.js';
import { fmt } from '../core/text.js';
import { csvCell } from './csv-cell.js';
import type { OutputFormat } from './format.js';
import { sanitizeTerminalText } from '../io/terminal-text.js';
import { tsvField } from './sanitize.js';
import { Spill } from './spill.js';
import { rowLines, tableLayout, type Layout, type LayoutColumn } from './table.js';
import { tableTime, type TimeStyle } from './times.js';
import { clock } from '../core/clock.js';

export { sanitizeTerminalText } from '../io/terminal-text.js';
export { textWidth } from './width.js';

export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  /** Stable machine name: the CSV header, the JSON key, the name --columns takes. */
  key: string;
  /** Header shown in tables. */
  header: string;
  /** The machine value (CSV, TSV, JSON): times ISO 8601 with an offset, codes as codes. */
  value(row: T): Cell;
  /** Colour for tables on a terminal (text is already sanitised and fitted). */
  style?(text: string, row: T, c: ChalkInstance): string;
  /** Text for tables when it differs from the machine value (`3011 China Post`, `yes`). */
  display?(row: T): Cell;
  /**
   * Drop rank for tables wider than the terminal: once every cell is as short as it may be, columns with a rank
   * are dropped, highest first, until the table fits. Columns without one are never dropped.
   */
  wide?: number;
  /** Tables may shorten this column's cells with "…" down to this many cells (free text). Absent: never shortened. */
  shrink?: number;
  /** Below this width (default twice `shrink`) a less important column is left out rather than this one narrowed. */
  fair?: number;
  /** The value is a time (ISO 8601): tables show it in the reader's zone with its offset, or its age (--relative). */
  time?: true;
  /** The value is a count: tables group its digits (`4,175`); machine formats keep `4175`. */
  count?: true;
  /** Part of what names the row for `-o ids` (the number, then the carrier), in column order. */
  id?: true;
  /**
   * Where the column appears unless named with --columns: `machine` only in CSV, TSV and JSON (a `_raw` twin of
   * a readable column), `table` only in tables (an age beside the time it is worked out from). Default: both.
   */
  only?: 'table' | 'machine';
  /** `time` columns: tables show the age (`3h ago`) whatever --relative says. */
  age?: true;
  /** Shown in tables only with `-o wide` (always in machine formats): detail few readers need at a glance. */
  extra?: true;
  /**
   * Room for rows that come later, when a table is shown as it arrives (a list): the widest a status can be, the
   * usual longest numbers. Kept as far as the terminal has it (src/output/table.ts).
   */
  room?: number;
  /** The rank of that room among the ranked columns (`wide`); default after all of them. */
  roomRank?: number;
  /** Tables never cut this column's cells: they go on over more lines (messages). */
  wrap?: true;
  /** Tables cut this column's cells at their start, keeping the end (a path: its file name). */
  keepEnd?: true;
}

/**
 * What a command asks of its output: the format (undefined = automatic), the columns named with --columns, and
 * how tables show times. A bare format is the same as `{ format }`.
 */
export interface OutputSpec {
  format?: OutputFormat | undefined;
  /** Column keys to print, in order (--columns); undefined: the command's own choice. */
  columns?: readonly string[] | undefined;
  /** Times in tables; default: the system's zone, dates rather than ages, the real clock. */
  times?: TimeStyle | undefined;
  /** `--header`: tab-separated output starts with a line of the column names, as `column -t` reads it. */
  header?: boolean | undefined;
}

export type Output = OutputFormat | OutputSpec | undefined;

function specOf(output: Output): OutputSpec {
  return typeof output === 'object' ? output : { format: output };
}

/**
 * How rows are shown. `undefined` format = automatic: a coloured table with header on a terminal, tab-separated
 * rows without header or colour when stdout is piped.
 */
export interface RowWriter<T> {
  /** Add rows; `raw` are the service's items for the same rows (what --json/--ndjson print). */
  write(rows: readonly T[], raw?: readonly unknown[]): void;
  /** Finish (JSON arrays are closed). */
  end(): Promise<void>;
  /**
   * Finish after a failure part-way (a later page could not be fetched), so that a script cannot take what was
   * written for the whole: JSON and CSV write nothing at all when no row came, else they end so that they do not
   * parse (a JSON array left open; a CSV record left inside an open quote). Line-by-line formats (NDJSON,
   * tab-separated, ids) keep the lines written, each complete; a terminal table shows the rows that came.
   */
  abort(): Promise<void>;
  /** The headers of the columns a table left out to fit the terminal (with a value in some row); none elsewhere. */
  leftOut?(): string[];
}

/** What is actually rendered: the automatic format resolved against the terminal; `wide` is a table. */
export type ResolvedFormat = Exclude<OutputFormat, 'wide'> | 'tsv';

export function resolveFormat(io: IO, output: Output): ResolvedFormat {
  const format = specOf(output).format;
  if (format === 'wide') return 'table';
  return format ?? (io.stdoutIsTTY ? 'table' : 'tsv');
}

/** Whether tables show every column (`-o wide`). */
export function isWide(output: Output): boolean {
  return specOf(output).format === 'wide';
}

/** Plain text of a cell: empty for null/undefined, `true`/`false` for booleans. */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return String(v);
}

/** The text a table shows for a column of a row: its display text, a time in the reader's zone, a grouped count. */
export function tableText<T>(col: Column<T>, row: T, times: TimeStyle): string {
  const v = col.display ? col.display(row) : col.value(row);
  let text: string;
  if (col.time && !col.display && typeof v === 'string')
    text = tableTime(v, col.age ? { ...times, relative: true } : times);
  else if (col.count && typeof v === 'number' && Number.isFinite(v)) text = fmt(v);
  else text = cellText(v);
  return sanitizeTerminalText(text, { singleLine: true });
}

/**
 * The columns named with --columns, in that order; when none are named, every column the set has for the target
 * (tables leave out machine twins, machine formats leave out table-only columns). An unknown name is a usage error
 * listing the valid ones.
 */
export function selectColumns<T>(
  columns: readonly Column<T>[],
  names: readonly string[] | undefined,
  target: 'table' | 'machine',
): Column<T>[] {
  if (names === undefined) return columns.filter((c) => c.only === undefined || c.only === target);

  const byKey = new Map(columns.map((c) => [c.key, c]));
  return names.map((name) => {
    const col = byKey.get(name.trim().toLowerCase());
    if (!col) {
      throw new UsageError(`unknown column "${name}"`, `choose from ${columns.map((c) => c.key).join(', ')}`);
    }
    return col;
  });
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

/**
 * A writer of rows in the format asked for. With --columns, every format prints those columns only, and JSON
 * and NDJSON print them by key instead of the service's items.
 */
export function createRowWriter<T>(io: IO, columns: readonly Column<T>[], output: Output): RowWriter<T> {
  return rowWriter(io, columns, output, false);
}

/** `complete`: every row comes in one write, so a table needs no room for rows that come later. */
function rowWriter<T>(io: IO, columns: readonly Column<T>[], output: Output, complete: boolean): RowWriter<T> {
  const spec = specOf(output);
  const format = resolveFormat(io, output);
  const chosen = selectColumns(columns, spec.columns, format === 'table' ? 'table' : 'machine');
  // The service's items are what JSON shows, unless columns were named.
  const named = spec.columns !== undefined;
  switch (format) {
    case 'json':
      return jsonWriter(io, chosen, named);
    case 'ndjson':
      return ndjsonWriter(io, chosen, named);
    case 'csv':
      return csvWriter(io, chosen);
    case 'tsv':
      return tsvWriter(io, chosen, spec.header === true);
    case 'ids':
      return idsWriter(io, columns);
    // Only commands of tracking details honour text (define.ts `prints`), and they print it themselves
    // (commands/common/details.ts); rows asked for as text anywhere else are shown as the table people read.
    case 'text':
    case 'table': {
      const wide = isWide(output);
      const shown = named || wide ? chosen : chosen.filter((c) => !c.extra);
      return tableWriter(io, shown, { wide, named, complete, times: spec.times ?? { now: clock().now() } });
    }
  }
}

function itemsOf<T>(
  columns: readonly Column<T>[],
  rows: readonly T[],
  raw: readonly unknown[] | undefined,
  named: boolean,
): readonly unknown[] {
  return raw && !named ? raw : rows.map((r) => keyed(columns, r));
}

// A single JSON array written piece by piece, so a long list never sits in memory as one string. The result is
// byte-identical to JSON.stringify(allItems, null, 2).
function jsonWriter<T>(io: IO, columns: readonly Column<T>[], named: boolean): RowWriter<T> {
  let count = 0;
  return {
    write(rows, raw) {
      let chunk = '';
      for (const item of itemsOf(columns, rows, raw, named)) {
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

function ndjsonWriter<T>(io: IO, columns: readonly Column<T>[], named: boolean): RowWriter<T> {
  return {
    write(rows, raw) {
      let chunk = '';
      for (const item of itemsOf(columns, rows, raw, named)) chunk += `${JSON.stringify(item) ?? 'null'}\n`;
      if (chunk !== '') io.out(chunk);
    },
    async end() {},
    async abort() {},
  };
}

type CsvStringify = typeof import('csv-stringify/sync')['stringify'];

// csv-stringify is loaded lazily; rows written before it is there wait in order and are flushed as soon as it
// loads, so output still streams page by page. The header (column keys) comes with the first rows, or alone at the
// end of an empty list. CSV redirected to a file keeps the data as sent; CSV printed straight to a terminal is
// cleaned like a table, since a tag or an event there could otherwise recolour the screen or retitle the window.
// Either way a cell that would run as a formula in a spreadsheet gets a leading quote unless --raw-csv.
function csvWriter<T>(io: IO, columns: readonly Column<T>[]): RowWriter<T> {
  const keys = columns.map((c) => c.key);
  const raw = io.rawCsv === true;
  const text = io.stdoutIsTTY
    ? (v: Cell) => csvCell(sanitizeTerminalText(cellText(v)), raw)
    : (v: Cell) => csvCell(cellText(v), raw);
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

// Piped automatic output: one line per row, columns in order, no colour, times ISO 8601; a header line of the
// column names (as CSV's) only with --header, since scripts read the rows by position.
function tsvWriter<T>(io: IO, columns: readonly Column<T>[], header: boolean): RowWriter<T> {
  let headed = !header;
  const head = () => {
    if (headed) return '';
    headed = true;
    return `${columns.map((c) => tsvField(c.key)).join('\t')}\n`;
  };
  return {
    write(rows) {
      let chunk = rows.length > 0 ? head() : '';
      for (const r of rows) chunk += `${columns.map((c) => tsvField(cellText(c.value(r)))).join('\t')}\n`;
      if (chunk !== '') io.out(chunk);
    },
    // No row at all: the header alone, as CSV writes it.
    async end() {
      const chunk = head();
      if (chunk !== '') io.out(chunk);
    },
    async abort() {},
  };
}

/**
 * The id of a row as `-o ids` prints it: its id columns joined by a tab, trailing empty parts left out (carrier 0
 * is no carrier). `RR123456789CN\t3011` names one record even when the number is registered under two carriers,
 * and is what every item command reads back.
 */
export function idLine<T>(idColumns: readonly Column<T>[], row: T): string {
  const parts = idColumns.map((c) => {
    const v = c.value(row);
    return v === 0 ? '' : tsvField(cellText(v));
  });
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.join('\t');
}

/** The id columns of a set; a set without any cannot print ids (a usage error naming what it can print). */
export function idColumns<T>(columns: readonly Column<T>[]): Column<T>[] {
  const ids = columns.filter((c) => c.id);
  if (ids.length === 0)
    throw new UsageError('there are no ids in this output', 'use --columns to pick columns, or another --output');
  return ids;
}

// `-o ids`: one line per row, what names it and nothing else, for piping into item commands.
function idsWriter<T>(io: IO, columns: readonly Column<T>[]): RowWriter<T> {
  const ids = idColumns(columns);
  return {
    write(rows) {
      let chunk = '';
      for (const r of rows) {
        const line = idLine(ids, r);
        if (line !== '') chunk += `${line}\n`;
      }
      if (chunk !== '') io.out(chunk);
    },
    async end() {},
    async abort() {},
  };
}

interface TableOptions {
  /** `-o wide`: every column at its natural width. */
  wide: boolean;
  /** The columns were named with --columns: each is shown, none dropped. */
  named: boolean;
  /** Every row is in the first write: columns are as wide as their rows, no wider. */
  complete: boolean;
  times: TimeStyle;
}

// Tables stream: the layout is decided from the first rows written (the first page of a list), which are printed
// at once with the header; later rows are fitted to the same columns (src/output/table.ts).
function tableWriter<T>(io: IO, columns: readonly Column<T>[], opts: TableOptions): RowWriter<T> {
  let layout: Layout | undefined;
  /** Columns with a value in some row. */
  const filled = new Set<number>();
  const c = io.color;
  const coloured = c.level > 0;
  const spec: LayoutColumn[] = columns.map((col) => ({
    header: col.header,
    rank: opts.named ? undefined : col.wide,
    shrink: col.shrink,
    fair: col.fair,
    always: opts.named,
    wrap: col.wrap,
    keepEnd: col.keepEnd,
    // Every row is at hand when the table is complete: no room is kept for more.
    room: opts.complete ? undefined : col.room,
    roomRank: col.roomRank,
  }));
  const lines = (texts: readonly string[], styleOf: (text: string, i: number) => string) =>
    rowLines(texts, layout!, spec, styleOf)
      .map((l) => `${l}\n`)
      .join('');
  const end = async () => {};
  return {
    write(rows) {
      if (rows.length === 0) return;
      const cells = rows.map((r) => columns.map((col) => tableText(col, r, opts.times)));
      for (const texts of cells) {
        texts.forEach((t, i) => {
          if (t !== '') filled.add(i);
        });
      }
      let out = '';
      if (!layout) {
        layout = tableLayout(spec, cells, io.columns, { wide: opts.wide });
        out += lines(
          columns.map((col) => col.header),
          (t) => (coloured ? c.bold(t) : t),
        );
      }
      cells.forEach((texts, n) => {
        const row = rows[n]!;
        out += lines(texts, (t, i) => {
          const style = columns[i]!.style;
          return coloured && style ? style(t, row, c) : t;
        });
      });
      io.out(out);
    },
    end,
    // People read tables: the rows that came are shown, and the error follows on stderr.
    abort: end,
    leftOut: () => (layout ? leftOutOf(spec, layout, filled) : []),
  };
}

/** Ranked columns with a value that the layout does not show. */
function leftOutOf(spec: readonly LayoutColumn[], layout: Layout, filled: ReadonlySet<number>): string[] {
  const shown = new Set(layout.shown);
  return spec.flatMap((c, i) => (c.rank !== undefined && filled.has(i) && !shown.has(i) ? [c.header] : []));
}

/** Rows in one go. */
export async function printRows<T>(
  io: IO,
  rows: readonly T[],
  columns: readonly Column<T>[],
  format: Output,
  raw?: readonly unknown[],
): Promise<void> {
  const w = rowWriter(io, columns, format, true);
  w.write(rows, raw);
  await w.end();
}

/** A table for people, its rows in one go; the headers of the columns it left out to fit the terminal. */
export async function printTable<T>(io: IO, rows: readonly T[], columns: readonly Column<T>[]): Promise<string[]> {
  const w = rowWriter(io, columns, 'table', true);
  w.write(rows);
  await w.end();
  return w.leftOut?.() ?? [];
}

/**
 * What became of an item, the words of every format: done as asked, already in the state asked for (registered,
 * stopped, ... before: done too, the summary's "already registered"), or refused by the service. One word for every
 * command, as `accepted` is: the command says which state, and the service's code and message stay on the row.
 */
export type ItemOutcome = 'accepted' | 'already' | 'rejected';

/** What item columns see: the service's item with `result`; already and rejected items also carry `error`. */
export type ItemRow<A> = A & { result: ItemOutcome; error?: ItemError };

const OUTCOME_STYLE: Readonly<Record<ItemOutcome, (t: string, c: ChalkInstance) => string>> = {
  accepted: (t, c) => c.green(t),
  // Nothing to do about it: no colour that calls for attention.
  already: (t) => t,
  rejected: (t, c) => c.red(t),
};

/** Columns every item-result table has; added after the given ones when the set lacks them. */
export const RESULT_COLUMNS: readonly Column<ItemRow<object>>[] = [
  {
    key: 'result',
    header: 'RESULT',
    value: (r) => r.result,
    style: (t, r, c) => OUTCOME_STYLE[r.result](t, c),
  },
  { key: 'error_code', header: 'ERROR', value: (r) => r.error?.code },
  // Messages say what to do: never cut, wrapped over more lines of the row.
  { key: 'error_message', header: 'MESSAGE', value: (r) => r.error?.message, shrink: 10, wrap: true },
];

/**
 * Results of an item command, written as its chunks settle. json: `{"accepted":[...],"rejected":[...]}` with the
 * service's items (a write's with `"already":[...]` between them); ndjson: one line per item with `"result"` (an
 * ItemOutcome); csv/table/tsv: one row per item with a result column, already and rejected rows carrying the
 * service's code and message. Accepted items come first, as they arrive (only a terminal table holds them, for its
 * widths); already and rejected ones are held back until the end, in that order, on disk beyond a megabyte
 * (spill.ts), so that the output of any number of items takes flat memory. With --columns every format prints
 * those columns (JSON and NDJSON by key); `-o ids` prints the accepted items' ids only.
 *
 * The columns are applied to accepted and rejected items alike, so they must read fields defensively (a rejected
 * item has `number`, maybe `carrier` and `tag`, and `error`). Columns keyed `result`, `error_code` and
 * `error_message` are added at the end when the set does not place them itself. `view` turns the service's items
 * into what the columns read (not for JSON and NDJSON, which print the items as sent).
 */
export interface ItemResultsWriter<A = unknown> {
  write(results: ItemResults<A>): void;
  /** Finish: the held-back items (already, then rejected), then the closing of the document. */
  end(): Promise<void>;
  /**
   * Finish after a failure: as RowWriter.abort (a JSON document left open, a CSV record left in an open quote,
   * lines kept as written); the held-back items are dropped, except that a terminal table shows every row.
   */
  abort(): Promise<void>;
}

export interface ItemView<A, V> {
  accepted(item: A): V;
  /** An item the service answered with an error: rejected, or already in the state asked for. */
  rejected(item: A & { error: ItemError }): V;
}

export interface ItemWriterOptions {
  /** A write's results: JSON has an `already` array, empty too, so that its shape does not depend on the answers. */
  already?: boolean;
}

/** The items held back until the end, by outcome, in the order they are written then. */
class HeldItems {
  readonly already = new Spill();
  readonly rejected = new Spill();

  hold(results: ItemResults<unknown>): void {
    for (const a of results.already ?? []) this.already.push(a);
    for (const r of results.rejected) this.rejected.push(r);
  }

  async *drain(): AsyncGenerator<[item: unknown, outcome: ItemOutcome]> {
    for await (const a of this.already.drain()) yield [a, 'already'];
    for await (const r of this.rejected.drain()) yield [r, 'rejected'];
  }

  discard(): void {
    this.already.discard();
    this.rejected.discard();
  }
}

export function createItemResultsWriter<A, V = A>(
  io: IO,
  columns: readonly Column<V>[],
  format: Output,
  view?: ItemView<A, V>,
  opts: ItemWriterOptions = {},
): ItemResultsWriter<A> {
  const fmt = resolveFormat(io, format);
  // With --columns, JSON and NDJSON print the rows by column like any other format.
  const named = specOf(format).columns !== undefined;
  const held = new HeldItems();
  if (fmt === 'json' && !named) return jsonItemsWriter(io, held, opts.already === true);
  if (fmt === 'ndjson' && !named) {
    const line = (item: unknown, result: ItemOutcome) => `${JSON.stringify(withResult(item as object, result))}\n`;
    return {
      write(results) {
        const text = results.accepted.map((a) => line(a, 'accepted')).join('');
        if (text !== '') io.out(text);
        held.hold(results);
      },
      async end() {
        for await (const [item, outcome] of held.drain()) io.out(line(item, outcome));
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
  // A terminal table is laid out from all its rows, so it gathers them; every other format writes rows as they come.
  const gathered: ItemRow<V>[] | undefined = fmt === 'table' ? [] : undefined;
  const rows = gathered ? undefined : createRowWriter(io, all, format);
  const put = (batch: ItemRow<V>[]) => {
    if (gathered) gathered.push(...batch);
    else rows!.write(batch);
  };
  const heldRow = (item: unknown, outcome: ItemOutcome) => {
    const r = item as A & { error: ItemError };
    return withResult(view ? view.rejected(r) : (r as unknown as V), outcome);
  };
  const flushHeld = async () => {
    for await (const [item, outcome] of held.drain()) put([heldRow(item, outcome)]);
  };
  const finish = async () => {
    if (gathered) await printRows(io, gathered, all, format);
    else await rows!.end();
  };
  return {
    write(results) {
      if (results.accepted.length > 0)
        put(results.accepted.map((a) => withResult(view ? view.accepted(a) : (a as unknown as V), 'accepted')));
      // Ids name what the command did something to: numbers already as asked, or rejected, are not among them.
      if (fmt !== 'ids') held.hold(results);
    },
    async end() {
      await flushHeld();
      await finish();
    },
    async abort() {
      // People read tables: every row that came is shown, and the error follows on stderr.
      if (gathered) {
        await flushHeld();
        await finish();
        return;
      }
      held.discard();
      await rows!.abort();
    },
  };
}

/**
 * `{"accepted": [...], "rejected": [...]}` (a write's with `"already": [...]` between) as JSON.stringify(results,
 * null, 2) writes it, accepted items as they come.
 */
function jsonItemsWriter(io: IO, held: HeldItems, withAlready: boolean): ItemResultsWriter<unknown> {
  let accepted = 0;
  const element = (item: unknown) => `    ${(JSON.stringify(item, null, 2) ?? 'null').replace(/\n/g, '\n    ')}`;
  /** `"key": [...]` of held-back items, after what came before it. */
  const array = async (key: string, items: Spill) => {
    io.out(`,\n  "${key}": `);
    let n = 0;
    for await (const r of items.drain()) io.out(`${n++ === 0 ? '[\n' : ',\n'}${element(r)}`);
    io.out(n === 0 ? '[]' : '\n  ]');
  };
  return {
    write(results) {
      let text = '';
      for (const a of results.accepted) text += `${accepted++ === 0 ? '{\n  "accepted": [\n' : ',\n'}${element(a)}`;
      if (text !== '') io.out(text);
      held.hold(results);
    },
    async end() {
      io.out(accepted === 0 ? '{\n  "accepted": []' : '\n  ]');
      if (withAlready) await array('already', held.already);
      await array('rejected', held.rejected);
      io.out('\n}\n');
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
  format: Output,
): Promise<void> {
  const writer = createItemResultsWriter<A>(io, columns, format);
  writer.write(results);
  await writer.end();
}

// `result` first for readability, and always ours even if the service one day sends a field of that name.
function withResult<A>(item: A, result: ItemOutcome): ItemRow<A> {
  return Object.assign({ result }, item, { result }) as ItemRow<A>;
}

/**
 * One object as field/value pairs (quota): json prints the object as the service sent it, ndjson one line. A table
 * (terminal) shows FIELD/VALUE rows; piped automatic output is `key<TAB>value` lines; CSV is a header of the keys
 * and one row, like any other CSV trk prints. --columns picks fields (JSON then has those keys only).
 */
export async function printObject<T extends object>(
  io: IO,
  obj: T,
  fields: readonly Column<T>[],
  format: Output,
): Promise<void> {
  const spec = specOf(format);
  const fmt = resolveFormat(io, format);
  const chosen = selectColumns(fields, spec.columns, fmt === 'table' ? 'table' : 'machine');
  const named = spec.columns !== undefined;
  if (fmt === 'json' || fmt === 'ndjson') {
    const value = named ? keyed(chosen, obj) : obj;
    io.out(fmt === 'json' ? `${JSON.stringify(value, null, 2)}\n` : `${JSON.stringify(value)}\n`);
    return;
  }
  if (fmt === 'csv' || fmt === 'ids') {
    await printRows(io, [obj], fields, spec);
    return;
  }
  interface Pair {
    field: Column<T>;
  }
  const times = spec.times ?? { now: clock().now() };
  const pairs: Pair[] = chosen.map((field) => ({ field }));
  const pairColumns: Column<Pair>[] = [
    { key: 'field', header: 'FIELD', value: (p) => (fmt === 'tsv' ? p.field.key : p.field.header) },
    {
      key: 'value',
      header: 'VALUE',
      value: (p) => p.field.value(obj),
      display: (p) => tableText(p.field, obj, times),
      style: (t, p, c) => (p.field.style ? p.field.style(t, obj, c) : t),
    },
  ];
  await printRows(io, pairs, pairColumns, fmt === 'tsv' ? { header: spec.header } : { format: 'table', times });
}
