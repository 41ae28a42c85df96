// The two passes over an item input. The checking pass reads every row once, checks it and counts what the
// run will take (items, requests, quota units per chunk) without keeping the rows, and digests the requests (the
// digest names the run, src/items/digest.ts). The sending pass reads the input again and yields the same chunks,
// one at a time, as the runner asks for them, each checked against the digest the checking pass took of it: a
// file that changed in between stops the run rather than sending rows nobody checked. With --skip-invalid, rows
// that fail a check are set aside in both passes alike, so chunk numbers stay the same; so are rows an earlier run
// of the file already had confirmed (`skip`).

import { itemsPerRequest, unitCost } from '../api/ops.js';
import type { ApiVersion } from '../api/spec.js';
import { TrkError, UsageError } from '../errors.js';
import { Chunker, type Chunk, type ChunkRow } from './chunker.js';
import type { ColumnMapping, ItemField, ItemOperation, RowValues } from './fields.js';
import { openRows, rowValues, type InputLayout, type InputRow, type OpenedInput } from './read.js';
import type { ItemSource } from './source.js';
import {
  checkValues,
  checkWidth,
  duplicateKey,
  isCarrierColumn,
  LineIndex,
  ProblemList,
  withDefaults,
  type CarrierResolver,
} from './check.js';
import { chunkDigest, DigestList, requestText, rowDigest, RunDigest } from './digest.js';

export interface ScanOptions {
  operation: ItemOperation;
  version: ApiVersion;
  /** Values from flags, under every row's own. */
  defaults?: RowValues | undefined;
  resolveCarrier?: CarrierResolver | undefined;
  /** `--column NAME=FIELD`. */
  mapping?: ColumnMapping | undefined;
  /** Send the valid rows and set the others aside, instead of refusing the input. */
  skipInvalid?: boolean | undefined;
  /** Problems listed in full; the rest are counted. Default 20. */
  showProblems?: number;
  /** Called after every row with the counts so far (the run asks for the quota while a long input is read). */
  onRow?: ((items: number, problems: number) => void) | undefined;
  /** Rows whose request an earlier run confirmed (by digest): neither chunked nor sent. */
  skip?: ((digest: bigint) => boolean) | undefined;
  /** Every valid row, skipped or not. */
  onValid?: ((row: ChunkRow) => void) | undefined;
}

export interface ScanResult {
  layout: InputLayout;
  /** Valid rows (repeats dropped for gettracklist). */
  items: number;
  /** Quota units the valid rows cost. */
  units: number;
  /** Items per chunk, by chunk index. */
  chunkItems: number[];
  /** Quota units per chunk. */
  chunkUnits: number[];
  problems: ProblemList;
  /** sha256 of every valid row's request, in order (skipped rows too); empty for arguments. */
  digest: string;
  /** Each chunk's digest, by chunk index: what the sending pass must read again (none for arguments). */
  chunkDigests: DigestList;
  /** Valid rows left out by `skip`, and their digests. */
  skipped: number;
  skippedDigests: DigestList;
}

const STOPPED = 'stopped before sending what it holds now';

/** What the sending pass checks each chunk against. */
export type ScannedChunks = Pick<ScanResult, 'chunkDigests' | 'chunkItems'>;

/** Rows read before the duplicate index is sized. */
const INDEX_SAMPLE = 256;

export function chunkSize(op: ItemOperation, version: ApiVersion): number {
  return itemsPerRequest(version, op);
}

/** The checking pass. */
export async function scanInput(source: ItemSource, opts: ScanOptions): Promise<ScanResult> {
  // Arguments are not remembered as runs (src/items/runs.ts) and cannot change: nothing to digest, and no crypto to
  // load for `trk info N`.
  const run = source.kind === 'arguments' ? undefined : new RunDigest();
  const opened = await openRows(source, { operation: opts.operation, version: opts.version, mapping: opts.mapping });
  const problems = new ProblemList(opts.showProblems ?? 20);
  const chunker = new Chunker(chunkSize(opts.operation, opts.version));
  const result: ScanResult = {
    layout: opened.layout,
    items: 0,
    units: 0,
    chunkItems: [],
    chunkUnits: [],
    problems,
    digest: '',
    chunkDigests: new DigestList(),
    skipped: 0,
    skippedDigests: new DigestList(),
  };
  const count = (chunks: Chunk[]) => {
    for (const c of chunks) {
      result.chunkItems[c.index] = c.rows.length;
      result.chunkUnits[c.index] = c.rows.reduce((sum, r) => sum + unitCost(opts.operation, r.item), 0);
      if (run) result.chunkDigests.push(chunkDigest(c.rows));
    }
  };
  for await (const row of checkedRows(opened, opts, (line, message) => problems.add(line, message), source.size)) {
    const text = run ? requestText(row.item) : '';
    run?.add(text);
    opts.onValid?.(row);
    const digest = opts.skip ? rowDigest(row.item, run ? text : undefined) : undefined;
    if (digest !== undefined && opts.skip?.(digest)) {
      result.skipped += 1;
      result.skippedDigests.push(digest);
      continue;
    }
    result.items += 1;
    result.units += unitCost(opts.operation, row.item);
    opts.onRow?.(result.items, problems.count);
    // Once a problem refuses the input nothing is sent: counting chunks no longer matters, memory does.
    if (problems.count > 0 && !opts.skipInvalid) continue;
    // Kept with the row until its chunk is digested, so the text is made once.
    if (run) row.request = text;
    count(chunker.push(row));
  }
  count(chunker.flush());
  result.digest = run?.hex() ?? '';
  return result;
}

/**
 * The sending pass: the chunks of the input, in order, the same as the checking pass saw (`scanned`; none for
 * arguments, which cannot change). A chunk whose requests differ, or an input that ends early or goes on
 * longer, is an input that changed since it was checked: the pass stops there with an error. Rows set aside by
 * --skip-invalid go to `onInvalid` as they are met.
 */
export async function* inputChunks(
  source: ItemSource,
  opts: ScanOptions,
  onInvalid?: (row: InputRow, message: string) => void,
  scanned?: ScannedChunks,
): AsyncGenerator<Chunk> {
  const opened = await openRows(source, { operation: opts.operation, version: opts.version, mapping: opts.mapping });
  const chunker = new Chunker(chunkSize(opts.operation, opts.version));
  let current: InputRow | undefined;
  let lastLine = 0;
  const changed = (where: string) =>
    new TrkError(`${source.display} changed since it was checked (${where}): ${STOPPED}`, {
      hint: 'run the same command again to send the file as it is now',
    });
  const problem = (line: number, message: string) => {
    if (opts.skipInvalid) {
      onInvalid?.(current ?? { line, cells: [] }, message);
      return;
    }
    throw changed(`${source.locate(line)}: ${message}`);
  };
  const checked = (chunk: Chunk): Chunk => {
    if (!scanned) return chunk;
    const expected = scanned.chunkDigests.at(chunk.index);
    const from = source.locate(chunk.rows[0]?.line ?? lastLine);
    if (expected === undefined) throw changed(`${from} and on were not there`);
    if (chunkDigest(chunk.rows) !== expected) throw changed(`${from} and on`);
    return chunk;
  };
  let chunks = 0;
  try {
    for await (const row of checkedRows(opened, opts, problem, source.size, (r) => (current = r))) {
      lastLine = row.line;
      if (opts.skip?.(rowDigest(row.item))) continue;
      for (const chunk of chunker.push(row)) {
        chunks += 1;
        yield checked(chunk);
      }
    }
    for (const chunk of chunker.flush()) {
      chunks += 1;
      yield checked(chunk);
    }
    if (scanned && chunks < scanned.chunkItems.length) {
      throw changed(`it ends at line ${lastLine}, before the rows checked after it`);
    }
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
  onRow?: (row: InputRow) => void,
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
    onRow?.(row);
    if (!seen) for (const cell of row.cells) sampleBytes += cell.length + 1;
    let bad = false;
    const width = checkWidth(row, layout);
    if (width !== undefined) {
      onProblem(row.line, width);
      bad = true;
    }
    const otherVersion = (field: ItemField, since: ApiVersion) => {
      onProblem(row.line, `${field} needs API ${since} or later (--api-version ${since}), or leave it empty`);
      bad = true;
    };
    const values = withDefaults(rowValues(row, layout, otherVersion), opts.defaults);
    if (opts.resolveCarrier && !(await namesToCodes(values, opts.resolveCarrier, (message) => onProblem(row.line, message)))) continue;
    const { item, problems } = checkValues(values, opts);
    for (const p of problems) onProblem(row.line, p);
    if (!item || bad) continue;
    const earlier = firstLine(duplicateKey(opts.operation, item), row.line);
    if (earlier !== 0) {
      // A list lookup of the same number twice is harmless: the repeat is dropped.
      if (!list) onProblem(row.line, `same number and carrier as ${layout.format === 'arguments' ? 'argument' : 'line'} ${earlier}`);
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
  for (const column of Object.keys(values) as ItemField[]) {
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
