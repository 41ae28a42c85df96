// The two passes over an item input. The checking pass reads every row once, checks it and counts what the
// run will take (items, requests, quota units per chunk) without keeping the rows, decides which rows repeat or
// conflict with an earlier one (repeats.ts), and digests the requests: the run's digest names it, and each
// chunk's says what the sending pass must read again (src/items/digest.ts). Rows of a file that an earlier run of
// it had confirmed are left out (`skip`, src/items/sent.ts). The sending pass reads the input again and yields
// the same chunks, one at a time, as the runner asks for them, each checked against its digest: a file that
// changed in between stops the run rather than sending rows nobody checked. With --skip-invalid, rows that fail
// a check are set aside in both passes alike, so chunk numbers stay the same.

import { itemsPerRequest, unitCost } from '@trk/service/operations/index.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import { isNoCarrier } from '../carriers/names.js';
import { TrkError, UsageError } from '../core/errors.js';
import { show } from '../output/sanitize.js';
import { keepHeapSmall } from '../core/heap.js';
import { listWords, plural } from '../core/text.js';
import { Chunker, type Chunk, type ChunkRow } from './chunker.js';
import type { ColumnMapping, Item, ItemField, ItemOperation, RowValues } from './fields.js';
import { openRows, rowValues, type InputLayout, type InputRow, type OpenedInput } from './read.js';
import type { Delimiter } from './read-text.js';
import { RowsWithoutNumber, SharedOrderCells } from './order-rows.js';
import { paramFromColumns } from './param.js';
import { RepeatFinder, type RowPlan } from './repeats.js';
import { chunkDigest, DigestList, LineHashes, requestText, rowDigest, RunDigest, textHash } from './digest.js';
import type { ItemSource } from './source.js';
import {
  checkValues,
  checkWidth,
  duplicateKey,
  isCarrierColumn,
  ProblemList,
  withDefaults,
  type CarrierResolver,
} from './check.js';

export interface ScanOptions {
  operation: ItemOperation;
  version: ApiVersion;
  /** Values from flags, under every row's own. */
  defaults?: RowValues | undefined;
  resolveCarrier?: CarrierResolver | undefined;
  /** `--column NAME=FIELD`. */
  mapping?: ColumnMapping | undefined;
  /** `--delimiter`. */
  delimiter?: Delimiter | undefined;
  /** Send the valid rows and set the others aside, instead of refusing the input. */
  skipInvalid?: boolean | undefined;
  /** Problems listed in full; the rest are counted. Default 20. */
  showProblems?: number;
  /** Called after every row with the counts so far (the run asks for the quota while a long input is read). */
  onRow?: ((items: number, problems: number) => void) | undefined;
  /** Where the repeat finder's partitions go when a long input outgrows memory (repeats.ts). */
  tempDir?: string | undefined;
  /** Rows whose request an earlier run confirmed (by digest): neither chunked nor sent. */
  skip?: ((digest: bigint) => boolean) | undefined;
  /** Every valid row, left out or not. */
  onValid?: ((row: ChunkRow) => void) | undefined;
}

export interface ScanResult {
  layout: InputLayout;
  /** Valid rows (repeats sent once). */
  items: number;
  /** Quota units the valid rows cost. */
  units: number;
  /** Items per chunk, by chunk index. */
  chunkItems: Uint32Array;
  /** Quota units per chunk. */
  chunkUnits: Uint32Array;
  problems: ProblemList;
  /** sha256 of every valid row's request, in order (rows left out too); empty for arguments. */
  digest: string;
  /** Each chunk's digest, by chunk index: what the sending pass must read again (none for arguments). */
  chunkDigests: DigestList;
  /** Valid rows left out by `skip`, and their digests. */
  skipped: number;
  skippedDigests: DigestList;
  /** What was decided of each line: the sending pass follows it. */
  plan: RowPlan;
  /** What differs between a conflicting row and the earlier one, by line (the first conflicts). */
  conflictDetails: ReadonlyMap<number, string>;
  /** Said once with the summary: how the input was read where it was not as written (repeats, tidied numbers). */
  notes: string[];
}

/** Rows past which an input is long: its checking pass keeps V8's heap small (src/core/heap.ts). */
const LONG_INPUT_ROWS = 100_000;

export function chunkSize(op: ItemOperation, version: ApiVersion): number {
  return itemsPerRequest(version, op);
}

/** The checking pass. */
export async function scanInput(source: ItemSource, opts: ScanOptions): Promise<ScanResult> {
  // Arguments are not remembered as runs (src/items/runs.ts) and cannot change: nothing to digest, and no crypto to
  // load for `trk info N`.
  const digests =
    source.kind === 'arguments' ? undefined : { run: new RunDigest(), lines: new LineHashes(opts.tempDir) };
  try {
    return await checkingPass(source, opts, digests);
  } finally {
    digests?.lines.dispose();
  }
}

async function checkingPass(
  source: ItemSource,
  opts: ScanOptions,
  digests: { run: RunDigest; lines: LineHashes } | undefined,
): Promise<ScanResult> {
  const opened = await openRows(source, readOptions(opts));
  const problems = new ProblemList(opts.showProblems ?? 20);
  const finder = new RepeatFinder({ anyRepeat: opts.operation === 'gettracklist', dir: opts.tempDir });
  const tally = new InputTally(opts.operation, opened.layout);
  const skippedDigests = new DigestList();
  const withoutNumber = new RowsWithoutNumber(opened.layout);
  let rows = 0;
  try {
    const handlers = {
      onProblem: (line: number, message: string) => problems.add(line, message),
      onNoNumber: (row: InputRow) => withoutNumber.add(row),
    };
    for await (const row of checkedRows(opened, opts, handlers)) {
      rows += 1;
      if (rows === LONG_INPUT_ROWS) keepHeapSmall();
      const text = digests ? requestText(row.item) : undefined;
      if (digests && text !== undefined) {
        digests.run.add(text);
        digests.lines.set(row.line, textHash(text));
      }
      opts.onValid?.(row);
      const digest = opts.skip ? rowDigest(row.item, text) : undefined;
      const sentBefore = digest !== undefined && (opts.skip?.(digest) ?? false);
      if (sentBefore) skippedDigests.push(digest);
      // The notes speak of the rows this run sends: a grown file's earlier rows were spoken of by their run.
      else if (row.read) tally.add(row.read);
      finder.add(
        row.line,
        row.key,
        duplicateKey(opts.operation, row.item),
        contentOf(row.item),
        unitCost(opts.operation, row.item),
        sentBefore,
      );
      opts.onRow?.(rows, problems.count);
    }
  } catch (err) {
    finder.discard();
    throw err;
  }
  if (rows === 0 && problems.count === 0 && withoutNumber.rows > 0) throw noNumberAnywhere(source, opened.layout);
  const plan = finder.finish();
  const where = opened.layout.format === 'arguments' ? 'argument' : 'line';
  const details = plan.conflicts.size > 0 ? await conflictDetails(source, opts, plan.conflicts) : new Map();
  for (const [line, earlier] of [...plan.conflicts].sort((a, b) => a[0] - b[0]))
    problems.add(line, details.get(line) ?? conflict(where, earlier));
  const chunkDigests = new DigestList();
  const digestOf = (_: number, lines: number[]) =>
    chunkDigests.push(chunkDigest(lines.map((l) => digests!.lines.get(l))));
  const { chunkItems, chunkUnits } = plan.chunks(chunkSize(opts.operation, opts.version), digests && digestOf);
  const sum = (values: Uint32Array) => values.reduce((a, b) => a + b, 0);
  return {
    layout: opened.layout,
    items: sum(chunkItems),
    units: sum(chunkUnits),
    chunkItems,
    chunkUnits,
    problems,
    digest: digests?.run.hex() ?? '',
    chunkDigests,
    skipped: plan.sent,
    skippedDigests,
    plan,
    conflictDetails: details,
    notes: [
      ...[withoutNumber.note()].filter((n) => n !== undefined),
      ...tally.notes(opts.operation === 'gettracklist' ? 0 : plan.repeats),
      ...(opts.resolveCarrier?.notes?.() ?? []),
    ],
  };
}

/** A table whose number column is empty on every row: the wrong column, most likely. */
function noNumberAnywhere(source: ItemSource, layout: InputLayout): UsageError {
  const column = layout.header[layout.columns.indexOf('number')] ?? 'number';
  return new UsageError(
    `${source.display}: no row has a tracking number (column ${JSON.stringify(column)} is empty throughout)`,
    `name the column that holds them with --column 'NAME=number'; nothing was sent`,
  );
}

/** Conflicts past which the generic message stands: naming each one's values reads the input once more. */
const DETAILED_CONFLICTS = 1000;

/**
 * What differs between each conflicting row and the earlier row it conflicts with (`tag "b" where line 2 has
 * "a"`), from one more reading of the input, for the first DETAILED_CONFLICTS conflicts.
 */
async function conflictDetails(
  source: ItemSource,
  opts: ScanOptions,
  conflicts: ReadonlyMap<number, number>,
): Promise<Map<number, string>> {
  const shown = [...conflicts].sort((a, b) => a[0] - b[0]).slice(0, DETAILED_CONFLICTS);
  const wanted = new Set(shown.flat());
  const items = new Map<number, Item>();
  const opened = await openRows(source, readOptions(opts));
  try {
    for await (const row of checkedRows(opened, opts, { onProblem: () => {} }))
      if (wanted.has(row.line)) items.set(row.line, row.item);
  } finally {
    opened.close();
  }
  const where = opened.layout.format === 'arguments' ? 'argument' : 'line';
  const out = new Map<number, string>();
  for (const [line, earlier] of shown) {
    const [now, before] = [items.get(line), items.get(earlier)];
    if (now && before) out.set(line, differences(now, before, `${where} ${earlier}`));
  }
  return out;
}

/** `same number and carrier as line 2, with tag "b" where it has "a", no lang where it has "en" (keep one ...)`. */
function differences(now: Item, before: Item, earlier: string): string {
  const fields = [...new Set([...Object.keys(now), ...Object.keys(before)])] as (keyof Item)[];
  const differing = fields
    .filter((f) => now[f] !== before[f])
    .map((f) => {
      const [a, b] = [now[f], before[f]];
      const here = a === undefined ? `no ${f}` : `${f} ${show(String(a))}`;
      return `${here} where it has ${b === undefined ? 'none' : show(String(b))}`;
    });
  return `same number and carrier as ${earlier}, with ${differing.join(', ')} (keep one of the two rows)`;
}

function readOptions(opts: ScanOptions) {
  return { operation: opts.operation, version: opts.version, mapping: opts.mapping, delimiter: opts.delimiter };
}

/**
 * Every value a row sends, in one text: rows with the same are one intent. Fields come in the order of the
 * columns (and flags), the same for every row of an input, so they need no sorting.
 */
function contentOf(item: Item): string {
  let text = '';
  for (const [k, v] of Object.entries(item)) text += `${k}=${String(v)}\u0000`;
  return text;
}

function conflict(where: string, earlier: number): string {
  return `same number and carrier as ${where} ${earlier}, with other values (keep one of the two rows)`;
}

/** What the sending pass checks the input against. */
export type ScannedChunks = Pick<ScanResult, 'plan' | 'chunkDigests' | 'chunkItems' | 'conflictDetails'>;

const STOPPED = 'stopped before sending what it holds now';

/**
 * The sending pass: the chunks of the input, in order, the same as the checking pass saw (its `plan` says which
 * rows repeat an earlier one or were sent before). A chunk whose requests differ from its digest, or an input
 * that ends early or goes on longer, is an input that changed since it was checked: the pass stops there with an
 * error (arguments cannot change, and have no digests). Rows set aside by --skip-invalid go to `onInvalid` as they
 * are met.
 */
export async function* inputChunks(
  source: ItemSource,
  opts: ScanOptions,
  onInvalid: ((row: InputRow, message: string) => void) | undefined,
  scanned: ScannedChunks,
): AsyncGenerator<Chunk> {
  const { plan } = scanned;
  const digests = source.kind === 'arguments' ? undefined : scanned.chunkDigests;
  const opened = await openRows(source, readOptions(opts));
  const chunker = new Chunker(chunkSize(opts.operation, opts.version));
  let current: InputRow | undefined;
  let lastLine = 0;
  const changed = (where: string) =>
    new TrkError(`${source.display} changed since it was checked (${where}): ${STOPPED}`, {
      hint: 'run the same command again to send the file as it is now',
    });
  const problem = (line: number, message: string) => {
    if (!opts.skipInvalid) throw changed(`${source.locate(line)}: ${message}`);
    onInvalid?.(current ?? { line, cells: [] }, message);
  };
  const checked = (chunk: Chunk): Chunk => {
    if (!digests) return chunk;
    const expected = digests.at(chunk.index);
    const from = source.locate(chunk.rows[0]?.line ?? lastLine);
    if (expected === undefined) throw changed(`${from} and on were not there`);
    if (chunkDigest(chunk.rows.map((r) => textHash(requestText(r.item)))) !== expected) throw changed(`${from} and on`);
    return chunk;
  };
  const where = opened.layout.format === 'arguments' ? 'argument' : 'line';
  let chunks = 0;
  try {
    for await (const row of checkedRows(opened, opts, { onProblem: problem, onRow: (r) => (current = r) })) {
      lastLine = row.line;
      const decision = plan.decision(row.line);
      if (decision === 'repeat' || decision === 'sent') continue;
      if (decision === 'conflict')
        problem(row.line, scanned.conflictDetails.get(row.line) ?? conflict(where, plan.conflicts.get(row.line) ?? 0));
      else if (decision === 'none') throw changed(`${source.locate(row.line)}: a row that was not there`);
      else {
        for (const chunk of chunker.push(row)) {
          chunks += 1;
          yield checked(chunk);
        }
      }
    }
    for (const chunk of chunker.flush()) {
      chunks += 1;
      yield checked(chunk);
    }
    if (digests && chunks < scanned.chunkItems.length) {
      throw changed(`it ends at line ${lastLine}, before the rows checked after it`);
    }
  } finally {
    opened.close();
  }
}

/** A row read otherwise than written: no carrier (with the cell as written), a number tidied (as written, as read). */
interface ReadOtherwise {
  noCarrier?: string | undefined;
  tidied?: [string, string];
  /** The columns a param was made from. */
  param?: string[];
}

/** What was read otherwise than written, counted over the checking pass for the notes of the summary. */
class InputTally {
  tidied = 0;
  tidyExample: [string, string] | undefined;
  noCarrier = 0;
  readonly noCarrierWords = new Set<string>();
  param = 0;
  readonly paramColumns = new Set<string>();
  readonly #carrierColumn: boolean;

  constructor(
    private readonly op: ItemOperation,
    layout: InputLayout,
  ) {
    this.#carrierColumn = layout.columns.includes('carrier');
  }

  add(read: ReadOtherwise): void {
    // A carrier left empty counts where a carrier column was read: without one, no row names a carrier.
    if ('noCarrier' in read && this.#carrierColumn) {
      this.noCarrier += 1;
      const cell = read.noCarrier;
      if (this.noCarrierWords.size < 4)
        this.noCarrierWords.add(cell === undefined || cell === '' ? 'empty' : JSON.stringify(cell));
    }
    if (read.tidied) {
      this.tidied += 1;
      this.tidyExample ??= read.tidied;
    }
    if (read.param) {
      this.param += 1;
      for (const c of read.param) this.paramColumns.add(c);
    }
  }

  notes(repeats: number): string[] {
    const out: string[] = [];
    if (repeats > 0) out.push(`${plural(repeats, 'repeated row')} sent once`);
    if (this.tidied > 0 && this.tidyExample) {
      const [from, to] = this.tidyExample;
      out.push(
        `${plural(this.tidied, 'number')} written with spaces or dots read without them ` +
          `(${JSON.stringify(from)} as ${to})`,
      );
    }
    if (this.noCarrier > 0) {
      const detect = this.op === 'register' ? ': sent without one, for the service to detect' : ': sent without one';
      out.push(`${plural(this.noCarrier, 'row')} named no carrier (${[...this.noCarrierWords].join(', ')})${detect}`);
    }
    if (this.param > 0) {
      out.push(
        `${plural(this.param, 'row')} sent with the param ` +
          `${this.param === 1 ? 'its carrier needs' : 'their carriers need'}, ` +
          `made from ${listWords([...this.paramColumns])}`,
      );
    }
    return out;
  }
}

/** What happens to the rows of an opened input besides the checked ones. */
export interface RowHandlers {
  /** A row's problem (it is not yielded). */
  onProblem: (line: number, message: string) => void;
  /** Every row, as it is read. */
  onRow?: ((row: InputRow) => void) | undefined;
  /** A row of a table with no tracking number (an order not shipped yet): passed over. */
  onNoNumber?: ((row: InputRow) => void) | undefined;
}

/**
 * The rows of an opened input that pass every check, each with what was read otherwise than written; the others
 * go to `onProblem`. Rows of one parcel share the values the first of them gave (order-rows.ts); rows of a table
 * without a number are passed over. Repeats are the caller's concern (repeats.ts).
 */
export async function* checkedRows(
  opened: OpenedInput,
  opts: ScanOptions,
  handlers: RowHandlers,
): AsyncGenerator<ChunkRow & { read: ReadOtherwise | undefined }> {
  const { layout } = opened;
  const { onProblem } = handlers;
  const shared = new SharedOrderCells(layout);
  for await (const row of opened.rows) {
    handlers.onRow?.(row);
    const cells = shared.cellsOf(row);
    const filled = cells === row.cells ? row : { line: row.line, cells: [...cells] };
    const versionProblems: string[] = [];
    const own = rowValues(filled, layout, (field, since) =>
      versionProblems.push(`${field} needs API ${since} or later (--api-version ${since}), or leave it empty`),
    );
    if (own.number === undefined && layout.hasHeader && layout.format !== 'arguments') {
      handlers.onNoNumber?.(row);
      continue;
    }
    const width = checkWidth(row, layout);
    for (const p of [...(width === undefined ? [] : [width]), ...versionProblems]) onProblem(row.line, p);
    const bad = width !== undefined || versionProblems.length > 0;
    const carrierCell = own.carrier;
    dropNoCarrier(own);
    const values = withDefaults(own, opts.defaults);
    const standIns = carrierStandIns(filled.cells, layout);
    if (
      opts.resolveCarrier &&
      !(await namesToCodes(values, opts.resolveCarrier, standIns, (message) => onProblem(row.line, message)))
    )
      continue;
    const made = values.param === undefined ? paramFromColumns(carrierCode(values), filled.cells, layout) : undefined;
    if (made) values.param = made.value;
    const { item, problems, tidied } = checkValues(values, opts);
    for (const p of problems) onProblem(row.line, p);
    if (!item || bad) continue;
    let read: ReadOtherwise | undefined;
    if (values.carrier === undefined) read = { noCarrier: carrierCell };
    if (tidied) (read ??= {}).tidied = [values.number ?? '', item.number];
    if (made) (read ??= {}).param = made.columns;
    yield { line: row.line, cells: row.cells, item, key: item.number.toUpperCase(), read };
  }
}

/** The carrier code of resolved values, if any. */
function carrierCode(values: RowValues): number | undefined {
  return values.carrier === undefined || !/^\d+$/.test(values.carrier) ? undefined : Number(values.carrier);
}

/** The cells that stand in for the carrier where its column gives none (shop-columns.ts). */
interface CarrierStandIns {
  fill?: string | undefined;
  service?: string | undefined;
}

function carrierStandIns(cells: readonly string[], layout: InputLayout): CarrierStandIns {
  const at = layout.carrierColumns;
  if (at === undefined) return {};
  const cell = (i: number | undefined) => (i === undefined ? undefined : cells[i] || undefined);
  return { fill: cell(at.fill), service: cell(at.service) };
}

/** Carrier cells that say "no carrier" (`Other`, `-`, `N/A`) are empty cells: a flag's default applies under them. */
function dropNoCarrier(values: RowValues): void {
  for (const column of Object.keys(values) as ItemField[]) {
    const text = values[column];
    if (text !== undefined && isCarrierColumn(column) && !/^\d+$/.test(text) && isNoCarrier(text))
      delete values[column];
  }
}

/** Refusals whose way out was said: the resolver answers a name it refused with the same error every time. */
const hinted = new WeakSet<UsageError>();

/**
 * Carrier names and codes in `values` replaced by checked codes (or removed: a name for no carrier). An unknown
 * or ambiguous name, or an unknown code, is the row's problem (false); anything else the resolver throws (the
 * carrier list cannot be fetched) ends the pass. A value met before is answered without waiting. The carrier
 * comes from its stand-ins where its own cell gives none, or names several carriers of which the service names one.
 */
async function namesToCodes(
  values: RowValues,
  resolve: CarrierResolver,
  standIns: CarrierStandIns,
  onProblem: (message: string) => void,
): Promise<boolean> {
  if (values.carrier === undefined && standIns.fill !== undefined && !isNoCarrier(standIns.fill))
    values.carrier = standIns.fill;
  let ok = true;
  for (const column of Object.keys(values) as ItemField[]) {
    const text = values[column];
    if (text === undefined || !isCarrierColumn(column)) continue;
    try {
      const code = await resolve(text);
      if (code === undefined) delete values[column];
      else values[column] = String(code);
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      const byService = column === 'carrier' ? await serviceCarrier(resolve, standIns.service, err) : undefined;
      if (byService !== undefined) {
        values[column] = String(byService);
        continue;
      }
      // The way out (an alias, --carrier-map) once per name refused, with its first row.
      const first = err.hint !== undefined && !hinted.has(err);
      if (first) hinted.add(err);
      onProblem(`${column}: ${err.message}${first ? `; ${err.hint}` : ''}`);
      ok = false;
    }
  }
  if (values.carrier === undefined) {
    const byService = await serviceCarrier(resolve, standIns.service, undefined);
    if (byService !== undefined) values.carrier = String(byService);
  }
  return ok;
}

/**
 * The carrier a service cell names beyond doubt (`UPS® Ground`), where the carrier cell named none (`refused`
 * undefined) or several (`refused` an ambiguous name: the service's carrier must be one of them); undefined
 * otherwise: most services name no carrier ("Standard"), and are passed over without a word.
 */
async function serviceCarrier(
  resolve: CarrierResolver,
  service: string | undefined,
  refused: UsageError | undefined,
): Promise<number | undefined> {
  if (service === undefined || isNoCarrier(service)) return undefined;
  // The carriers a refused name stood for (carriers/search.ts AmbiguousCarrierError), without loading the search.
  const candidates = (refused as { candidates?: readonly { key: number }[] } | undefined)?.candidates;
  if (refused !== undefined && candidates === undefined) return undefined;
  let code: number | undefined;
  try {
    code = await resolve(service);
  } catch (err) {
    if (err instanceof UsageError) return undefined;
    throw err;
  }
  if (candidates !== undefined && !candidates.some((c) => c.key === code)) return undefined;
  return code;
}
