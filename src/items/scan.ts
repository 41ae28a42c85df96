// The two passes over a bulk input. The validation pass reads every row once, checks it and counts what the
// run will take (items, requests, quota units per chunk) without keeping the rows. The sending pass reads the
// file again and yields the same chunks, one at a time, as the runner asks for them.

import { itemsPerRequest } from '../api/operations.js';
import type { ApiVersion } from '../api/spec.js';
import { TrkError, UsageError } from '../errors.js';
import { Chunker, type Chunk, type ChunkRow } from './chunker.js';
import { LIST_NUMBERS_PER_CALL, quotaCost, type BulkOperation, type ColumnName, type RowValues } from './fields.js';
import { openRows, readSource, rowValues, type InputLayout, type InputSource, type OpenedInput } from './input.js';
import {
  checkValues,
  checkWidth,
  duplicateKey,
  isCarrierColumn,
  LineIndex,
  ProblemList,
  withDefaults,
  type CarrierResolver,
} from './validate.js';

export interface ScanOptions {
  operation: BulkOperation;
  version: ApiVersion;
  /** Values from flags, under every row's own. */
  defaults?: RowValues | undefined;
  resolveCarrier?: CarrierResolver | undefined;
  /** Problems listed in full; the rest are counted. Default 20. */
  showProblems?: number;
}

export interface ScanResult {
  layout: InputLayout;
  /** Valid rows (all rows when there is no problem); repeats dropped for gettracklist. */
  items: number;
  /** Quota units the whole input costs. */
  units: number;
  /** Items per chunk, by chunk index. */
  chunkItems: number[];
  /** Quota units per chunk. */
  chunkUnits: number[];
  problems: ProblemList;
}

/** Rows read before the duplicate index is sized. */
const INDEX_SAMPLE = 256;

export function chunkSize(op: BulkOperation, version: ApiVersion): number {
  return op === 'gettracklist' ? LIST_NUMBERS_PER_CALL : itemsPerRequest(version, op);
}

/** The validation pass. */
export async function scanInput(source: InputSource, opts: ScanOptions): Promise<ScanResult> {
  const opened = await openRows(readSource(source), { operation: opts.operation, version: opts.version, display: source.display });
  const problems = new ProblemList(opts.showProblems ?? 20);
  const chunker = new Chunker(chunkSize(opts.operation, opts.version));
  const result: ScanResult = { layout: opened.layout, items: 0, units: 0, chunkItems: [], chunkUnits: [], problems };
  const count = (chunks: Chunk[]) => {
    for (const c of chunks) {
      result.chunkItems[c.index] = c.rows.length;
      result.chunkUnits[c.index] = c.rows.reduce((sum, r) => sum + quotaCost(opts.operation, r.item), 0);
    }
  };
  for await (const row of checkedRows(opened, opts, (line, message) => problems.add(line, message), source.size)) {
    result.items += 1;
    result.units += quotaCost(opts.operation, row.item);
    // Once there is a problem nothing is sent: counting chunks no longer matters, memory does.
    if (problems.count === 0) count(chunker.push(row));
  }
  count(chunker.flush());
  return result;
}

/** The sending pass: the chunks of the input, in order, the same as the validation pass saw. */
export async function* inputChunks(source: InputSource, opts: ScanOptions): AsyncGenerator<Chunk> {
  const opened = await openRows(readSource(source), { operation: opts.operation, version: opts.version, display: source.display });
  const chunker = new Chunker(chunkSize(opts.operation, opts.version));
  const changed = (line: number, message: string) => {
    throw new TrkError(`${source.display} changed since it was checked (line ${line}: ${message})`, {
      hint: 'run the same command again once the file is complete',
    });
  };
  try {
    for await (const row of checkedRows(opened, opts, changed, source.size)) yield* chunker.push(row);
    yield* chunker.flush();
  } finally {
    opened.close();
  }
}

/**
 * The rows of an opened input that pass every check; the others go to `onProblem`. `inputBytes` sizes the
 * duplicate index from the first rows' length, so a million-row file does not grow it in steps (each step
 * leaving the previous arrays to the garbage collector).
 */
export async function* checkedRows(
  opened: OpenedInput,
  opts: ScanOptions,
  onProblem: (line: number, message: string) => void,
  inputBytes = 0,
): AsyncGenerator<ChunkRow> {
  const { layout } = opened;
  let seen: LineIndex | undefined;
  const early: { key: string; line: number }[] = [];
  let sampleBytes = 0;
  const list = opts.operation === 'gettracklist';
  const firstLine = (key: string, line: number): number => {
    if (seen) return seen.firstLine(key, line);
    for (const e of early) if (e.key === key) return e.line;
    early.push({ key, line });
    if (early.length === INDEX_SAMPLE) seen = sizedIndex();
    return 0;
  };
  const sizedIndex = (): LineIndex => {
    const perRow = Math.max(8, sampleBytes / Math.max(1, early.length));
    const index = new LineIndex(Math.ceil((inputBytes / perRow) * 1.1));
    for (const e of early) index.firstLine(e.key, e.line);
    early.length = 0;
    return index;
  };
  for await (const row of opened.rows) {
    if (!seen) for (const cell of row.cells) sampleBytes += cell.length + 1;
    let bad = false;
    const width = checkWidth(row, layout);
    if (width !== undefined) {
      onProblem(row.line, width);
      bad = true;
    }
    const values = withDefaults(rowValues(row, layout), opts.defaults);
    if (opts.resolveCarrier && !(await namesToCodes(values, opts.resolveCarrier, (message) => onProblem(row.line, message)))) continue;
    const { item, problems } = checkValues(values, opts);
    for (const p of problems) onProblem(row.line, p);
    if (!item || bad) continue;
    const earlier = firstLine(duplicateKey(opts.operation, item), row.line);
    if (earlier !== 0) {
      // A list lookup of the same number twice is harmless: the repeat is dropped.
      if (!list) onProblem(row.line, `same number and carrier as line ${earlier}`);
      continue;
    }
    yield { line: row.line, cells: row.cells, item, key: item.number.toUpperCase() };
  }
}

/**
 * Carrier names in `values` replaced by their codes. An unknown or ambiguous name is the row's problem (false);
 * anything else the resolver throws (the carrier list cannot be fetched) ends the pass.
 */
async function namesToCodes(values: RowValues, resolve: CarrierResolver, onProblem: (message: string) => void): Promise<boolean> {
  let ok = true;
  for (const column of Object.keys(values) as ColumnName[]) {
    const text = values[column];
    if (text === undefined || !isCarrierColumn(column) || /^\d+$/.test(text)) continue;
    try {
      const code = await resolve(text);
      if (code !== undefined) values[column] = String(code);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      onProblem(`${column}: ${err.message}`);
      ok = false;
    }
  }
  return ok;
}
