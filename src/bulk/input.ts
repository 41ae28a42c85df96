// Bulk input: a CSV file with a header row named after the API's fields, or a plain list of numbers (one a
// line; `NUMBER,CARRIER` rows without a header are taken too). Read as a stream, row by row, so that memory
// stays flat however long the file is. Every row keeps its line number (for messages) and its cells as read
// (for the rejects file). Standard input is first copied to a private spool file: the import reads its input
// twice (a validation pass, then the sending pass), and the copy's hash names the journal of a resumable run.

import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ApiVersion } from '../api/spec.js';
import { UsageError } from '../errors.js';
import { restoreCell } from '../output/csv-cell.js';
import {
  isColumnName,
  normaliseHeader,
  operationColumns,
  versionColumns,
  versionIntroducing,
  type BulkOperation,
  type ColumnName,
  type RowValues,
} from './fields.js';

/** Where the rows come from, fixed for the whole run. */
export interface InputSource {
  /** A file the run can open as often as it needs (stdin is spooled to one). */
  path: string;
  /** How messages name it: the path as given, or `stdin`. */
  display: string;
  /** What identifies this input for the journal: the file's absolute path, size and mtime, or stdin's hash. */
  identity: string;
  /** Bytes. */
  size: number;
  /** Removes the spool file of stdin; nothing for a real file. */
  cleanup(): Promise<void>;
}

/**
 * Resolve `file` (`-` = stdin) to a source. Stdin is copied to `spoolDir` while hashing it; a file is only
 * checked to exist and be readable.
 */
export async function prepareInput(file: string, stdin: Readable, spoolDir: string): Promise<InputSource> {
  if (file === '-') {
    const { ensurePrivateDir } = await import('../config/paths.js');
    ensurePrivateDir(spoolDir);
    const spool = path.join(spoolDir, `stdin-${process.pid}-${Date.now().toString(36)}.csv`);
    const hash = createHash('sha256');
    let size = 0;
    await pipeline(
      stdin,
      async function* (chunks: AsyncIterable<Buffer | string>) {
        for await (const chunk of chunks) {
          const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          hash.update(buf);
          size += buf.length;
          yield buf;
        }
      },
      createWriteStream(spool, { mode: 0o600 }),
    );
    return {
      path: spool,
      display: 'stdin',
      identity: `stdin sha256:${hash.digest('hex')}`,
      size,
      cleanup: () => rm(spool, { force: true }),
    };
  }
  const abs = path.resolve(file);
  let st;
  try {
    st = statSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`, 'give a CSV file, or - for stdin');
  }
  if (st.isDirectory()) throw new UsageError(`cannot read ${file}: it is a directory`, 'give a CSV file, or - for stdin');
  return {
    path: abs,
    display: file,
    identity: `file ${abs} ${st.size} ${Math.trunc(st.mtimeMs)}`,
    size: st.size,
    cleanup: async () => {},
  };
}

/** Throws when the file changed since `source` was prepared: the journal's chunk numbers would not hold. */
export function assertUnchanged(source: InputSource): void {
  if (!source.identity.startsWith('file ')) return;
  const st = statSync(source.path);
  if (`file ${source.path} ${st.size} ${Math.trunc(st.mtimeMs)}` !== source.identity) {
    throw new UsageError(`${source.display} changed while trk was reading it`, 'run again once the file is complete');
  }
}

/** How the cells of a row map to columns. */
export interface InputLayout {
  kind: 'csv' | 'list';
  /** The header as written (a list without header: `number` and, for NUMBER,CARRIER rows, `carrier`). */
  header: string[];
  /** Column of each cell position; undefined = not read by this operation. */
  columns: (ColumnName | undefined)[];
  /** Header names the operation does not use (known to the API): ignored, with a note. */
  ignored: string[];
}

export interface InputRow {
  /** Line of the file where the row starts (1-based). */
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
  operation: BulkOperation;
  version: ApiVersion;
  /** How messages name the input. */
  display: string;
}

/** Open `stream` as rows. Reads the first row to decide the layout; unknown columns are a UsageError here. */
export async function openRows(stream: Readable, opts: ReadOptions): Promise<OpenedInput> {
  const { parse } = await import('csv-parse');
  // A record is bounded (a remark is at most 1000 characters), so an unclosed quote cannot pull the rest of a
  // large file into memory before it is reported.
  // Blank lines come through as records so that lines can be counted here (csv-parse's own `info` costs an
  // object per row, which shows in the memory of a million-row file).
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    trim: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  stream.on('error', (err) => parser.destroy(err));
  stream.pipe(parser);
  const lines = new LineCounter();
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;

  const next = async (): Promise<InputRow | undefined> => {
    for (;;) {
      let r: IteratorResult<string[]>;
      try {
        r = await records.next();
      } catch (err) {
        throw csvProblem(err, opts.display, lines);
      }
      if (r.done) return undefined;
      const record = r.value;
      const line = lines.next(record);
      // `,,,` is as empty as a blank line.
      if (record.every((c) => c === '')) continue;
      // Cells as written, without the quote trk puts before formula-like cells of its own files (a rejects file).
      return { line, cells: record.map(restoreCell) };
    }
  };

  const first = await next();
  const layout = first === undefined ? listLayout(1) : decideLayout(first, opts);
  const close = () => {
    stream.unpipe(parser);
    parser.destroy();
    if ('destroy' in stream && typeof stream.destroy === 'function') stream.destroy();
  };
  async function* rows(): AsyncGenerator<InputRow> {
    try {
      if (first !== undefined && layout.kind === 'list') yield first;
      for (let row = await next(); row !== undefined; row = await next()) yield row;
    } finally {
      close();
    }
  }
  return { layout, rows: rows(), close };
}

/** The values of a row by column (empty cells left out). Cells beyond the header are the validator's concern. */
export function rowValues(row: InputRow, layout: InputLayout): RowValues {
  const values: RowValues = {};
  layout.columns.forEach((column, i) => {
    const cell = row.cells[i];
    if (column !== undefined && cell !== undefined && cell !== '') values[column] = cell;
  });
  return values;
}

function listLayout(cells: number): InputLayout {
  return cells === 2
    ? { kind: 'list', header: ['number', 'carrier'], columns: ['number', 'carrier'], ignored: [] }
    : { kind: 'list', header: ['number'], columns: ['number'], ignored: [] };
}

/**
 * A header row names at least one column trk knows. Without one, a single column is a plain list and two
 * columns are NUMBER,CARRIER rows (as `trk register -f` has always read them); anything wider needs a header.
 */
function decideLayout(first: InputRow, opts: ReadOptions): InputLayout {
  const names = first.cells.map(normaliseHeader);
  const recognised = names.some((n) => isColumnName(n));
  if (!recognised) {
    if (first.cells.length === 1) return listLayout(1);
    if (first.cells.length === 2 && /^\d+$/.test(first.cells[1] ?? '')) return listLayout(2);
    throw new UsageError(
      `${opts.display} line ${first.line}: no header row`,
      `name the columns in the first line (number, carrier, tag, ...), or give one number per line`,
    );
  }
  const known = versionColumns(opts.version) as readonly string[];
  const used = operationColumns(opts.operation, opts.version) as readonly string[];
  const unknown: string[] = [];
  const tooNew: string[] = [];
  const ignored: string[] = [];
  const seen = new Set<string>();
  const columns = names.map((name, i): ColumnName | undefined => {
    const written = first.cells[i] ?? '';
    // Empty names (a trailing comma) and the error columns of a rejects file being imported again.
    if (name === '' || name === 'error_code' || name === 'error_message') return undefined;
    if (seen.has(name)) throw new UsageError(`${opts.display}: column ${written} appears twice`, 'keep one of them');
    seen.add(name);
    if (!known.includes(name)) {
      (versionIntroducing(name) ? tooNew : unknown).push(written);
      return undefined;
    }
    if (!used.includes(name)) {
      ignored.push(written);
      return undefined;
    }
    return name as ColumnName;
  });
  if (unknown.length > 0 || tooNew.length > 0) {
    const parts: string[] = [];
    if (unknown.length > 0) parts.push(`unknown column${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}`);
    if (tooNew.length > 0) parts.push(`the ${opts.version} API does not know ${tooNew.join(', ')}`);
    const newest = tooNew.map((c) => versionIntroducing(normaliseHeader(c))).includes('v2.1') ? 'v2.1' : 'v2';
    throw new UsageError(
      `${opts.display}: ${parts.join('; ')}`,
      tooNew.length > 0 && unknown.length === 0
        ? `use --api-version ${newest}, or remove the column${tooNew.length === 1 ? '' : 's'}; nothing was sent`
        : `columns are named after the API fields (${known.join(', ')}); nothing was sent`,
    );
  }
  if (!columns.includes('number')) {
    throw new UsageError(`${opts.display}: no number column`, 'name the column of tracking numbers "number"');
  }
  return { kind: 'csv', header: first.cells, columns, ignored };
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
  INVALID_OPENING_QUOTE: 'a quote inside a field that does not start with one (quote the whole field, doubling inner quotes)',
  CSV_INVALID_CLOSING_QUOTE: 'text right after a closing quote',
};

function csvProblem(err: unknown, display: string, lines: LineCounter): unknown {
  const e = err as { code?: unknown; lines?: unknown; message?: unknown };
  if (typeof e?.code !== 'string' || (!e.code.startsWith('CSV_') && e.code !== 'INVALID_OPENING_QUOTE')) return err;
  const where = typeof e.lines === 'number' ? ` at line ${lines.correct(e.lines)}` : '';
  const reason = CSV_REASONS[e.code] ?? String(e.message);
  return new UsageError(`${display} is not valid CSV${where}: ${reason}`, 'fix the file; nothing was sent');
}

/** A read stream of the source, for one pass. */
export function readSource(source: InputSource): Readable {
  return createReadStream(source.path);
}
