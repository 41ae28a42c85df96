// Reading an input's rows. The format is detected, not flagged:
//   - JSON: an array of objects or strings (what `trk list --json` and `trk info --json` print), or one object
//     per line (NDJSON, what `-o ndjson` prints); keys name the fields;
//   - tab-separated lines (what trk prints when piped, and spreadsheet exports): with a header row naming fields,
//     or without one, when the first column is the number and the second, if it holds a carrier code, its
//     carrier (the shape of `trk list` piped, and of `-o ids`);
//   - CSV with a header row naming fields (the API's names, or the names shops use: fields.ts), or a plain list
//     (one number a line, or NUMBER,CARRIER). The delimiter (`,` `;` tab `|`) is the header line's, or --delimiter.
// Text is UTF-8, UTF-16 or Windows-1252 (read-text.ts), every line bounded.
// Rows are streamed, so memory stays flat however long the input is. Every row keeps its line number (for
// messages) and its cells as read (for the rejects file).

import { Transform, type Readable } from 'node:stream';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import { UsageError } from '../core/errors.js';
import { restoreCell } from '../output/csv-cell.js';
import {
  fieldOfName,
  operationFields,
  type ColumnMapping,
  type ItemField,
  type ItemOperation,
  type RowValues,
} from './fields.js';
import {
  DELIMITER_NAMES,
  decodeHead,
  detectDelimiter,
  detectEncoding,
  hasNul,
  textDialect,
  utf8Lines,
  type Delimiter,
  type TextDialect,
} from './read-text.js';
import { headerLayout, noNumberColumn } from './header-layout.js';
import type { ItemSource } from './source.js';
import type { ParamSource } from './shop-columns.js';

export type InputFormat = 'csv' | 'tsv' | 'list' | 'json' | 'arguments';

/** How the cells of a row map to fields. */
export interface InputLayout {
  format: InputFormat;
  /** The header as written (for JSON and header-less input: the fields read). */
  header: string[];
  /** The first row names the columns (it is not data). */
  hasHeader: boolean;
  /** Cells a row may have; more is a mistake (a stray comma). Undefined: not checked (trk's own wide tables). */
  width: number | undefined;
  /** Field of each cell position; undefined = not read by this operation. */
  columns: (ItemField | undefined)[];
  /** Columns (or keys) the operation does not use: ignored, with one note. */
  ignored: string[];
  /**
   * Fields the operation takes in another API version but not this one (v2.1's order number on v2): a row with a
   * value there is a problem of that row, since sending it without would lose the value.
   */
  otherVersion: Map<ItemField, ApiVersion>;
  /**
   * Shop columns (`Order Number`, Shopify's `Name`) of a field the operation takes only in a later API version:
   * not sent, with a note naming the version that would send them.
   */
  laterVersion: { column: string; field: ItemField; since: ApiVersion }[];
  /** Columns of a field another column names more tellingly (`Order ID` beside `Order Number`): not read. */
  passedOver?: { column: string; read: string; field: ItemField }[];
  /** The column naming the order (by any name, sent or not): rows of one order share its values (scan.ts). */
  orderColumn?: number;
  /**
   * Columns that stand in for the carrier where its own column gives none (shop-columns.ts): the shop's own
   * provider (`fill`), the shipping service (`service`).
   */
  carrierColumns?: { fill?: number; service?: number };
  /** Columns of the recipient's postal code, country and phone, read for carriers that need a param (param.ts). */
  paramSources?: Partial<Record<ParamSource, number>>;
  /** Said once on stderr about how the input was read (a header-less table). */
  note?: string;
  /** How the text was read (encoding, delimiter), said with -v. */
  detail?: string;
  /** How delimited text is written, for the rejects file to be written alike (none for JSON and arguments). */
  dialect?: TextDialect;
}

export interface InputRow {
  /** Line where the row starts (1-based), or the argument's position. */
  line: number;
  /** Cells as read (trimmed). */
  cells: string[];
}

export interface OpenedInput {
  layout: InputLayout;
  rows: AsyncIterable<InputRow>;
  /** Stop reading early (closes the file). */
  close(): void;
}

export interface ReadOptions {
  operation: ItemOperation;
  version: ApiVersion;
  /** `--column NAME=FIELD`. */
  mapping?: ColumnMapping | undefined;
  /** `--delimiter`; default: the header line's. */
  delimiter?: Delimiter | undefined;
}

/**
 * Open the rows of a source, for one pass. Unknown-looking columns are a UsageError here. `tap` sees every byte
 * read (the checking pass hashes the input with it).
 */
export async function openRows(
  source: ItemSource,
  opts: ReadOptions,
  tap?: (bytes: Buffer) => void,
): Promise<OpenedInput> {
  if (source.args) return argumentRows(source.args, opts);
  const headBytes = await source.head();
  const encoding = detectEncoding(headBytes);
  if (hasNul(headBytes, encoding)) {
    throw new UsageError(
      `${source.display} is not text (it holds NUL bytes)`,
      'give a CSV, TSV or JSON file, or one number a line; nothing was sent',
    );
  }
  const head = decodeHead(headBytes, encoding);
  const stream = utf8Lines(tapped(source.open(), tap), encoding, (line) => source.locate(line));
  const decoded =
    encoding === 'utf-8' ? '' : `decoded from ${encoding === 'windows-1252' ? 'Windows-1252' : encoding.toUpperCase()}`;
  const start = head.trimStart()[0];
  if (start === '[' || start === '{') {
    const { openJsonRows } = await import('./read-json.js');
    const opened = await openJsonRows(stream, start === '[' ? 'array' : 'lines', source, opts);
    opened.layout.detail =
      `${source.display}: read as ` +
      `${start === '[' ? 'a JSON array' : 'JSON lines'}${decoded ? `, ${decoded}` : ''}`;
    return opened;
  }
  const firstLine = head.split(/\r\n|\n|\r/, 1)[0] ?? '';
  const delimiter = opts.delimiter ?? detectDelimiter(firstLine);
  const opened = await openDelimitedRows(stream, delimiter, source, opts);
  opened.layout.dialect = textDialect(headBytes, encoding, delimiter);
  opened.layout.detail =
    `${source.display}: columns separated by ${DELIMITER_NAMES[delimiter]} ` +
    `(${opts.delimiter ? '--delimiter' : 'from the first line'})` +
    (decoded ? `, ${decoded}` : '');
  return opened;
}

/** `stream`, with every chunk shown to `tap` on its way (piped at once, so no byte passes unseen). */
function tapped(stream: Readable, tap: ((bytes: Buffer) => void) | undefined): Readable {
  if (!tap) return stream;
  const through = new Transform({
    transform(chunk: Buffer, _enc, done) {
      tap(chunk);
      done(null, chunk);
    },
  });
  stream.on('error', (err) => through.destroy(err));
  through.on('close', () => stream.destroy());
  return stream.pipe(through);
}

function argumentRows(args: readonly string[], opts: ReadOptions): OpenedInput {
  const layout: InputLayout = { ...listLayout(1, opts), format: 'arguments' };
  async function* rows(): AsyncGenerator<InputRow> {
    for (let i = 0; i < args.length; i++) yield { line: i + 1, cells: [(args[i] ?? '').trim()] };
  }
  return { layout, rows: rows(), close: () => {} };
}

async function openDelimitedRows(
  stream: Readable,
  delimiter: Delimiter,
  source: ItemSource,
  opts: ReadOptions,
): Promise<OpenedInput> {
  const { parse } = await import('csv-parse');
  const format = delimiter === '\t' ? 'tsv' : 'csv';
  // A record is bounded (a remark is at most 1000 characters), so an unclosed quote cannot pull the rest of a
  // large file into memory before it is reported. Blank lines come through as records so that lines can be
  // counted here (csv-parse's own `info` costs an object per row, which shows in the memory of a million-row
  // file). Line endings are taken per line: a header written with CRLF above rows with LF is common.
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    trim: true,
    max_record_size: MAX_RECORD_BYTES,
    record_delimiter: ['\r\n', '\n', '\r'],
    delimiter,
    // trk's tab-separated output never quotes (tabs and newlines in values become spaces).
    ...(format === 'tsv' ? { quote: false } : {}),
  });
  stream.on('error', (err) => parser.destroy(err));
  // An error met while csv-parse was being loaded (a line over the bound) is already on the stream.
  if (stream.errored) parser.destroy(stream.errored);
  else stream.pipe(parser);
  const lines = new LineCounter();
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;

  const next = async (): Promise<InputRow | undefined> => {
    for (;;) {
      let r: IteratorResult<string[]>;
      try {
        r = await records.next();
      } catch (err) {
        throw csvProblem(err, source, lines);
      }
      if (r.done) return undefined;
      const record = r.value;
      const line = lines.next(record);
      // `,,,` is as empty as a blank line.
      if (record.every((c) => c === '')) continue;
      // CSV cells as written, without the quote trk puts before formula-like cells of its own files (a rejects
      // file); trk's tab-separated output is never quoted that way.
      return { line, cells: format === 'csv' ? record.map(restoreCell) : record };
    }
  };

  const close = () => {
    stream.unpipe(parser);
    parser.destroy();
    stream.destroy();
  };
  let first: InputRow | undefined;
  let layout: InputLayout;
  try {
    first = await next();
    layout = first === undefined ? listLayout(1, opts) : decideLayout(first, format, source, opts);
  } catch (err) {
    close();
    throw err;
  }
  async function* rows(): AsyncGenerator<InputRow> {
    try {
      if (first !== undefined && !layout.hasHeader) yield first;
      for (let row = await next(); row !== undefined; row = await next()) yield row;
    } finally {
      close();
    }
  }
  return { layout, rows: rows(), close };
}

function listLayout(cells: number, opts: ReadOptions): InputLayout {
  const layout: InputLayout = {
    format: 'list',
    header: ['number'],
    columns: ['number'],
    hasHeader: false,
    width: cells,
    ignored: [],
    otherVersion: new Map(),
    laterVersion: [],
  };
  // NUMBER,CARRIER rows given to an operation without carriers (list --number) just have the carrier ignored.
  if (cells === 2) {
    layout.header.push('carrier');
    layout.columns.push(usesField(opts, 'carrier') ? 'carrier' : undefined);
  }
  return layout;
}

function usesField(opts: ReadOptions, field: ItemField): boolean {
  return (operationFields(opts.operation, opts.version) as readonly string[]).includes(field);
}

/**
 * A header row names at least one field. Without one: a single column is a plain list, and two columns are
 * NUMBER,CARRIER rows (as `trk register -f` has always read them); a wider tab-separated table is trk's own
 * output (number first, carrier second); anything else needs a header.
 */
function decideLayout(first: InputRow, format: 'csv' | 'tsv', source: ItemSource, opts: ReadOptions): InputLayout {
  const recognised = first.cells.some((cell) => fieldOfName(cell, opts.mapping) !== undefined);
  if (!recognised) {
    const carrierish = /^\d*$/.test(first.cells[1] ?? '');
    if (first.cells.length === 1) return listLayout(1, opts);
    if (first.cells.length === 2 && /^\d+$/.test(first.cells[1] ?? '')) return listLayout(2, opts);
    if (format === 'tsv') {
      const layout: InputLayout = { ...listLayout(carrierish ? 2 : 1, opts), format: 'tsv', width: undefined };
      const dropped = first.cells.length - layout.columns.length;
      layout.note =
        `${source.display}: tab-separated rows without a header: the first column is read as the number` +
        (layout.columns.length === 2 ? ', the second as the carrier' : '') +
        (dropped > 0 ? ` (${dropped} more column${dropped === 1 ? '' : 's'} ignored)` : '');
      return layout;
    }
    throw noNumberColumn(source.display, first.cells, opts);
  }
  return headerLayout(first.cells, format, source.display, opts);
}

/**
 * The values of a row by field (empty cells left out). Cells beyond the header are the checks' concern; a
 * value for a field of another API version is reported through `otherVersion`.
 */
export function rowValues(
  row: InputRow,
  layout: InputLayout,
  otherVersion?: (field: ItemField, version: ApiVersion) => void,
): RowValues {
  const values: RowValues = {};
  layout.columns.forEach((field, i) => {
    const cell = row.cells[i];
    if (field === undefined || cell === undefined || cell === '') return;
    const since = layout.otherVersion.get(field);
    if (since !== undefined) otherVersion?.(field, since);
    else values[field] = cell;
  });
  return values;
}

/**
 * Start lines of records: every record starts on the line after the previous one ended (blank lines are
 * records too), and ends as many lines further as its quoted fields hold line breaks. csv-parse's own count
 * (in its errors) takes a CRLF inside quotes for two lines; `correct` undoes that for error messages.
 */
class LineCounter {
  #next = 1;
  #crlfInQuotes = 0;

  next(record: readonly string[]): number {
    const start = this.#next;
    let breaks = 0;
    for (const cell of record) {
      if (cell.length === 0 || (!cell.includes('\n') && !cell.includes('\r'))) continue;
      this.#crlfInQuotes += count(cell, /\r\n/g);
      breaks += count(cell, /\r\n|\r|\n/g);
    }
    this.#next = start + breaks + 1;
    return start;
  }

  correct(line: number): number {
    return line - this.#crlfInQuotes;
  }
}

function count(text: string, re: RegExp): number {
  return text.match(re)?.length ?? 0;
}

const MAX_RECORD_BYTES = 64 * 1024;

const CSV_REASONS: Record<string, string> = {
  CSV_MAX_RECORD_SIZE: `a row longer than ${MAX_RECORD_BYTES / 1024} KiB (probably a quote that is never closed)`,
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'text right after a closing quote',
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  INVALID_OPENING_QUOTE:
    'a quote inside a field that does not start with one (quote the whole field, doubling inner quotes)',
  CSV_INVALID_CLOSING_QUOTE: 'text right after a closing quote',
};

function csvProblem(err: unknown, source: ItemSource, lines: LineCounter): unknown {
  const e = err as { code?: unknown; lines?: unknown; message?: unknown };
  if (typeof e?.code !== 'string' || (!e.code.startsWith('CSV_') && e.code !== 'INVALID_OPENING_QUOTE')) return err;
  const where = typeof e.lines === 'number' ? ` at line ${lines.correct(e.lines)}` : '';
  const reason = CSV_REASONS[e.code] ?? String(e.message);
  return new UsageError(`${source.display} is not valid CSV${where}: ${reason}`, 'fix the file; nothing was sent');
}
