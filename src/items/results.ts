// What an item run produced: counts for the summary and the exit code, the rows set aside for the rejects file
// (`--rejects FILE`, or one of trk's own in the state folder: the input's own columns plus input_line, error_code
// and error_message, in the input's delimiter, line endings and encoding, so the file can be fixed and imported
// again, and opens in a spreadsheet as the input did), and, when asked for, the merged accepted, already (in the
// state asked for) and rejected items of the service for output. Counts are of numbers, never of requests. Rows
// that are not the service's rejections are set aside the same way: those a run never sent because it stopped
// (`not-done`), and those an interrupted run of the file never sent that the new file no longer holds
// (`not-sent`).

import type { WriteStream } from 'node:fs';
import path from 'node:path';
import type { Stringifier } from 'csv-stringify';
import { codeInfo, formatCodeMessage } from '@trk/service/codes.js';
import { PARAM_REQUIRED_CODE } from '@trk/service/param-forms.js';
import { commandName, doneWord, itemOperationSpec } from '@trk/service/operations/index.js';
import type { ItemResults, RejectedItem } from '@trk/service/types.js';
import { InOrder } from './in-order.js';
import { fileReason, TrkError, UsageError } from '../core/errors.js';
import { EXIT, type ExitCode } from '../core/exit-codes.js';
import { REJECT_COLUMNS } from '../output/column-names.js';
import { csvCell } from '../output/csv-cell.js';
import type { Chunk, ChunkRow } from './chunker.js';
import type { ItemOperation } from './fields.js';
import type { ChunkOutcome } from './journal.js';
import type { ProgressCounts } from './progress.js';
import { duration, fmt, plural } from '../core/text.js';
import type { InputLayout, InputRow } from './read.js';
import type { TextDialect } from './read-text.js';
import { encodingStream } from './write-text.js';
import { fsReason } from './source.js';
import { nodeFs } from '../core/node.js';
import { keepPrivate, PRIVATE_FILE_MODE, type Warn } from '../core/private-files.js';

const PARAM_CODES: ReadonlySet<number> = new Set(Object.values(PARAM_REQUIRED_CODE));

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { createWriteStream, renameSync, rmSync, statSync } = nodeFs();

/** The rejects file of an input with no dialect of its own (JSON, arguments): CSV as trk writes it. */
const TRK_CSV: TextDialect = { encoding: 'utf-8', bom: false, delimiter: ',', lineEnding: '\n' };

/** error_code of a row set aside by --skip-invalid (it never reached the service). */
export const INVALID_CODE = 'invalid';

/** A row named in the rejects file that is not a row of this run's input as read (it has no cells here). */
export interface NamedRow {
  number: string;
  carrier?: number | undefined;
  /** Its line in the input it came from, when that is this run's input as checked. */
  line?: number | undefined;
}

/** Why rows not done by the service are named: stopped before them, or left by an interrupted run. */
export type NamedKind = 'not-done' | 'not-sent';

export interface RunSummary {
  operation: ItemOperation;
  /** Valid items in the input. */
  total: number;
  /** Items with a final answer (earlier runs of a resumed journal included). */
  settled: number;
  /** Of them, settled by an earlier run. */
  fromJournal: number;
  accepted: number;
  /** Accepted items found by looking them up after a lost answer. */
  verified: number;
  already: number;
  rejected: number;
  rejectedByCode: { code: number; message: string; count: number }[];
  /** Rows set aside by --skip-invalid. */
  invalid: number;
  /** gettracklist: numbers without any record. */
  notFound: number;
  /** Items left without an answer (interrupted, refused by the account, or stopped by an error). */
  unsettled: number;
  /** Numbers an interrupted run of the file never sent that the new file no longer holds (in the rejects file). */
  leftBehind: number;
  /** register: numbers registered already whose tag was applied with a change of their info. */
  tagApplied: number;
  /** Rows written to the rejects file (none without one). */
  written: number;
  elapsedMs: number;
  /** Items settled by this run per second. */
  perSecond: number;
}

export interface ResultSinkOptions {
  operation: ItemOperation;
  layout: InputLayout;
  total: number;
  /** Keep the service's items for output. */
  collect: boolean;
  rejectsFile?: string | undefined;
  /** The rejects file is trk's own choice: made only if a row goes into it. */
  rejectsOnDemand?: boolean | undefined;
  /** `numbers.csv line 7` / `argument 2`, for rows set aside without a rejects file. */
  locate: (line: number) => string;
  /** --raw-csv: the rejects file's cells as they are, formula-like ones included (src/output/csv-cell.ts). */
  rawCsv?: boolean | undefined;
  /** Each settled chunk's items, e.g. to stream them to stdout. */
  onItems?: ((results: ItemResults) => void) | undefined;
  /** Invalid rows listed on stderr when there is no rejects file: the first this many. */
  listInvalid?: number;
  /** Says when a rejects file found open to others is replaced by a private one (private-files.ts). */
  warn: Warn;
}

interface RejectsOutput {
  stringifier: Stringifier;
  file: WriteStream;
  tmp: string;
  /** Input columns copied (all but earlier reject columns). */
  keep: number[];
  /** Tab-separated: cells as they are, on one line (see #write). */
  tabs: boolean;
  /** The first write that failed (a full disk): the file is given up, and close() says so. */
  failed?: unknown;
}

export class ResultSink {
  /** The items collected (with `collect`), in the input's order. */
  readonly results: ItemResults = { accepted: [], already: [], rejected: [] };
  /** Each chunk's output (items, rejects file) goes in the input's order (in-order.ts). */
  readonly #inOrder = new InOrder<{ chunk: Chunk; rejected: readonly RejectedItem[]; items: ItemResults }>((out) =>
    this.#output(out.chunk, out.rejected, out.items),
  );
  #accepted = 0;
  #verified = 0;
  #already = 0;
  #rejected = 0;
  #notFound = 0;
  #settled = 0;
  #fromJournal = 0;
  #invalid = 0;
  #leftBehind = 0;
  #tagApplied = 0;
  #written = 0;
  readonly invalidLines: string[] = [];
  /** By code; a tag refused for a number registered already is counted apart, under its own words. */
  readonly #byCode = new Map<string, { code: number; message: string; count: number }>();
  readonly #o: ResultSinkOptions;
  #rejects: RejectsOutput | undefined;

  constructor(opts: ResultSinkOptions) {
    this.#o = opts;
  }

  /**
   * Create the rejects file (header only until rows come), under a temporary name beside it that replaces it
   * when the run ends: a file that cannot be written is found before anything is sent, and the file is never
   * left half written. Rewritten in full on every run, resumed ones too.
   */
  async open(): Promise<void> {
    const target = this.#o.rejectsFile;
    if (!target) return;
    const { stringify } = await import('csv-stringify');
    const header = this.#o.layout.header;
    // A rejects file imported again brings its own error columns: replace them rather than repeat them.
    const keep = header
      .map((_, i) => i)
      .filter((i) => !(REJECT_COLUMNS as readonly string[]).includes((header[i] ?? '').trim().toLowerCase()));
    const dialect = this.#o.layout.dialect ?? TRK_CSV;
    const stringifier = stringify({
      header: true,
      columns: [...keep.map((i) => header[i] as string), ...REJECT_COLUMNS],
      delimiter: dialect.delimiter,
      record_delimiter: dialect.lineEnding,
      // Tab-separated text is read unquoted (read.ts): its cells are made one line instead.
      ...(dialect.delimiter === '\t' ? { quote: false } : {}),
    });
    const cannot = (why: string) =>
      new UsageError(
        `cannot write the rejects file ${target}: ${why}`,
        'give a file in a folder you can write to; nothing was sent',
      );
    if (isDirectory(target)) throw cannot('it is a directory');
    const tmp = path.join(path.dirname(path.resolve(target)), `.${path.basename(target)}.${process.pid}.tmp`);
    const file = createWriteStream(tmp, { mode: PRIVATE_FILE_MODE });
    await new Promise<void>((resolve, reject) => {
      file.once('open', () => resolve());
      file.once('error', (err) => reject(cannot(fsReason(err))));
    });
    stringifier.pipe(encodingStream(dialect.encoding, dialect.bom)).pipe(file);
    const rejects: RejectsOutput = { stringifier, file, tmp, keep, tabs: dialect.delimiter === '\t' };
    // A write that fails later (the disk fills during a long run) is kept for close(), which reports it.
    file.on('error', (err) => (rejects.failed ??= err));
    this.#rejects = rejects;
  }

  settle(chunk: Chunk, outcome: ChunkOutcome, replayed: boolean): void {
    const items = chunk.rows.length - (outcome.pending?.length ?? 0);
    this.#settled += items;
    if (replayed) this.#fromJournal += items;
    this.#accepted += outcome.accepted.length;
    for (const a of outcome.accepted) if (a.verified === true) this.#verified += 1;
    this.#already += outcome.already.length;
    this.#rejected += outcome.rejected.length;
    this.#notFound += outcome.notFound ?? 0;
    const tagApplied = (item: object) => (item as { tag_applied?: unknown }).tag_applied === true;
    const tagged = outcome.already.filter(tagApplied);
    this.#tagApplied += tagged.length + outcome.accepted.filter(tagApplied).length;
    for (const r of outcome.rejected) {
      const code = typeof r.error?.code === 'number' ? r.error.code : 0;
      const tagRefused = (r as { tag_applied?: unknown }).tag_applied === false;
      const key = `${tagRefused ? 'tag ' : ''}${code}`;
      const entry = this.#byCode.get(key);
      if (entry) entry.count += 1;
      else {
        const words = codeMessage(code, r.error?.message);
        const message = tagRefused ? `registered already, tag not applied: ${words}` : words;
        this.#byCode.set(key, { code, message, count: 1 });
      }
    }
    // Registered before and now tagged as asked: what the command was for is done, and the row says so.
    const retagged = tagged.map(({ error: _error, ...item }) => item as Record<string, unknown>);
    const merged = {
      accepted: retagged.length > 0 ? [...outcome.accepted, ...retagged] : outcome.accepted,
      already: outcome.already.filter((a) => !tagged.includes(a)),
      rejected: outcome.rejected,
    };
    this.#inOrder.add(chunk.index, { chunk, rejected: outcome.rejected, items: merged }, chunk.rows.length);
  }

  /** Outputs the chunks still waiting for an earlier one: the run ends (a chunk given up never comes). */
  flush(): void {
    this.#inOrder.flush();
  }

  #output(chunk: Chunk, rejected: readonly RejectedItem[], items: ItemResults): void {
    if (this.#rejects && rejected.length > 0) this.#writeRejects(chunk.rows, rejected);
    if (this.#o.collect) {
      for (const a of items.accepted) this.results.accepted.push(a);
      for (const a of items.already ?? []) this.results.already!.push(a);
      for (const r of items.rejected) this.results.rejected.push(r);
    }
    this.#o.onItems?.(items);
  }

  /** A row set aside by --skip-invalid: into the rejects file, or listed on stderr at the end. */
  invalid(row: InputRow, message: string): void {
    this.#invalid += 1;
    if (this.#rejects) {
      const { keep } = this.#rejects;
      this.#write([...keep.map((i) => row.cells[i] ?? ''), String(row.line), INVALID_CODE, message]);
    } else if (this.invalidLines.length < (this.#o.listInvalid ?? 20)) {
      this.invalidLines.push(`${this.#o.locate(row.line)}: ${message}`);
    }
  }

  /** Rows that are not this run's rows as read, into the rejects file (or listed like invalid rows without one). */
  named<R extends NamedRow>(rows: readonly R[], kind: NamedKind, message: (row: R) => string): void {
    if (kind === 'not-sent') this.#leftBehind += rows.length;
    const numberAt = this.#o.layout.columns.indexOf('number');
    const carrierAt = this.#o.layout.columns.indexOf('carrier');
    for (const row of rows) {
      if (!this.#rejects) {
        if (this.invalidLines.length >= (this.#o.listInvalid ?? 20)) continue;
        this.invalidLines.push(`${row.number}: ${message(row)}`);
        continue;
      }
      const cells = this.#rejects.keep.map((i) =>
        i === numberAt ? row.number : i === carrierAt && row.carrier !== undefined ? String(row.carrier) : '',
      );
      this.#write([...cells, row.line === undefined ? '' : String(row.line), kind, message(row)]);
    }
  }

  #writeRejects(rows: readonly ChunkRow[], rejected: readonly RejectedItem[]): void {
    const { keep } = this.#rejects as RejectsOutput;
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const numberAt = this.#o.layout.columns.indexOf('number');
    for (const r of rejected) {
      const row = byKey.get(
        String(r.number ?? '')
          .trim()
          .toUpperCase(),
      );
      const cells = keep.map((i) => (row ? (row.cells[i] ?? '') : i === numberAt ? String(r.number) : ''));
      const code = typeof r.error?.code === 'number' ? r.error.code : '';
      this.#write([...cells, row ? String(row.line) : '', String(code), r.error?.message ?? '']);
    }
  }

  /**
   * One row of the rejects file, its formula-like cells neutralised unless --raw-csv. Tab-separated text is
   * read as it is, neither quoted nor neutralised (read.ts), so its cells go as they are, on one line: an input
   * cell holds no tab or line break, trk's own messages may.
   */
  #write(cells: readonly string[]): void {
    this.#written += 1;
    const { stringifier, tabs } = this.#rejects as RejectsOutput;
    stringifier.write(cells.map((c) => (tabs ? c.replace(/[\t\r\n]+/g, ' ') : csvCell(c, this.#o.rawCsv))));
  }

  /** The rejects file, if the run has one with rows in it (one it made on demand and left empty is none). */
  get rejectsFile(): string | undefined {
    return this.#written > 0 || !this.#o.rejectsOnDemand ? this.#o.rejectsFile : undefined;
  }

  /** Finish the rejects file and put it in place (also after a failed run: what was rejected is data). */
  async close(): Promise<void> {
    this.flush();
    const rejects = this.#rejects;
    if (!rejects) return;
    this.#rejects = undefined;
    const failed = (err: unknown) => {
      rejects.stringifier.destroy();
      rmSync(rejects.tmp, { force: true });
      return new TrkError(`cannot write the rejects file ${this.#o.rejectsFile}: ${fileReason(err)}`, {
        hint:
          'make room and run the same command again: nothing is sent twice, and the rejects file is written ' +
          'in full',
      });
    };
    // A stream that failed earlier never finishes: waiting for it would leave the run hanging.
    if (rejects.failed !== undefined) throw failed(rejects.failed);
    await new Promise<void>((resolve, reject) => {
      rejects.file.once('finish', () => resolve());
      rejects.file.once('error', (err) => reject(failed(err)));
      rejects.stringifier.end();
    });
    try {
      // trk's own file, with nothing to say: not made at all.
      if (this.#o.rejectsOnDemand && this.#written === 0) rmSync(rejects.tmp, { force: true });
      else this.#putInPlace(rejects.tmp, this.#o.rejectsFile as string);
    } catch (err) {
      rmSync(rejects.tmp, { force: true });
      throw new UsageError(`cannot write the rejects file ${this.#o.rejectsFile}: ${fsReason(err)}`);
    }
  }

  /**
   * The finished rejects file replaces what was there: 0600, as it was made. A file there that others could read is
   * set so first, saying so: its rows are customers' data, and the replacement takes its mode away.
   */
  #putInPlace(tmp: string, target: string): void {
    keepPrivate(target, 'rejects file', this.#o.warn);
    renameSync(tmp, target);
  }

  /** Give up the rejects file (nothing was sent after all). */
  discard(): void {
    const rejects = this.#rejects;
    if (!rejects) return;
    this.#rejects = undefined;
    rejects.stringifier.destroy();
    rejects.file.destroy();
    rmSync(rejects.tmp, { force: true });
  }

  counts(): ProgressCounts {
    return { done: this.#settled, total: this.#o.total, rejected: this.#rejected + this.#invalid };
  }

  summary(elapsedMs: number): RunSummary {
    const ran = this.#settled - this.#fromJournal;
    return {
      operation: this.#o.operation,
      total: this.#o.total,
      settled: this.#settled,
      fromJournal: this.#fromJournal,
      accepted: this.#accepted,
      verified: this.#verified,
      already: this.#already,
      rejected: this.#rejected,
      rejectedByCode: [...this.#byCode.values()].map((v) => ({ ...v })).sort((a, b) => b.count - a.count),
      invalid: this.#invalid,
      notFound: this.#notFound,
      unsettled: this.#o.total - this.#settled,
      leftBehind: this.#leftBehind,
      tagApplied: this.#tagApplied,
      written: this.#written,
      elapsedMs,
      perSecond: elapsedMs > 0 ? (ran * 1000) / elapsedMs : 0,
    };
  }
}

/**
 * The exit code of a finished run: 0 when every item ended in the state asked for ("already in that state"
 * counts), 3 when some were rejected (or set aside as invalid) and some done, 1 when none was done.
 */
export function exitCodeOf(
  s: Pick<RunSummary, 'accepted' | 'already' | 'rejected' | 'invalid' | 'notFound'>,
): ExitCode {
  const bad = s.rejected + s.invalid;
  if (bad === 0) return EXIT.ok;
  return s.accepted + s.already + s.notFound > 0 ? EXIT.partial : EXIT.failure;
}

/** The summary for stderr: `register: 1,640 of 3,000 numbers in 16s`, then one line per outcome. */
export function summaryLines(s: RunSummary, rejectsFile?: string): string[] {
  const noun = s.operation === 'gettracklist' ? 'numbers looked up' : s.total === 1 ? 'number' : 'numbers';
  const count = s.unsettled > 0 ? `${fmt(s.settled)} of ${fmt(s.total)}` : fmt(s.total);
  const rate =
    s.perSecond > 0 && s.elapsedMs >= 2000
      ? ` (${s.perSecond >= 10 ? Math.round(s.perSecond) : s.perSecond.toFixed(1)}/s)`
      : '';
  const lines = [`${commandName(s.operation)}: ${count} ${noun} in ${duration(s.elapsedMs / 1000)}${rate}`];
  if (s.fromJournal > 0) lines.push(`  resumed: ${fmt(s.fromJournal)} done by the interrupted run before`);
  const pad = (label: string) => `  ${label.padEnd(19)}`;
  lines.push(
    `${pad(doneWord(s.operation))}${fmt(s.accepted)}` +
      (s.verified > 0 ? `  (${fmt(s.verified)} confirmed by looking them up after a lost answer)` : ''),
  );
  if (s.already > 0)
    lines.push(`${pad(itemOperationSpec(s.operation).already?.words ?? 'already done')}${fmt(s.already)}`);
  if (s.tagApplied > 0) lines.push(`${pad('tag applied')}${fmt(s.tagApplied)}  (to numbers registered already, free)`);
  if (s.notFound > 0) lines.push(`${pad('not registered')}${fmt(s.notFound)}`);
  if (s.rejected > 0) {
    lines.push(`${pad('rejected')}${fmt(s.rejected)}`);
    for (const c of s.rejectedByCode.slice(0, 8)) {
      lines.push(`    ${c.code === 0 ? 'no answer' : c.code} ${c.message}: ${fmt(c.count)}`);
      // A missing param is the input's to give: say which column gives it.
      if (PARAM_CODES.has(c.code)) lines.push(`      ${codeInfo(c.code)?.hint}`);
    }
    if (s.rejectedByCode.length > 8) lines.push(`    ... and ${s.rejectedByCode.length - 8} more codes`);
  }
  if (s.invalid > 0) lines.push(`${pad('invalid, not sent')}${fmt(s.invalid)}`);
  if (s.unsettled > 0) lines.push(`${pad('not done')}${fmt(s.unsettled)}`);
  if (s.leftBehind > 0) lines.push(`  ${leftBehindText(s.leftBehind)}`);
  if (rejectsFile && s.written > 0) lines.push(`  ${plural(s.written, 'row')} written to ${rejectsFile}`);
  return lines;
}

/** `1,434 numbers of the interrupted run are not in the new file and were not sent`. */
export function leftBehindText(count: number): string {
  const [is, was] = count === 1 ? ['is', 'was'] : ['are', 'were'];
  return `${plural(count, 'number')} of the interrupted run ${is} not in the new file and ${was} not sent`;
}

/**
 * With --quiet, the one line a run prints when something was set aside (rejected, invalid, not done, or left by
 * an interrupted run), and where to find it; none when everything ended as asked.
 */
export function setAsideLine(s: RunSummary, rejectsFile: string | undefined): string | undefined {
  const aside = s.rejected + s.invalid;
  const parts: string[] = [];
  if (aside > 0) {
    const why = [s.rejected > 0 && `${fmt(s.rejected)} rejected`, s.invalid > 0 && `${fmt(s.invalid)} invalid`];
    const of = plural(s.total + s.invalid, 'number');
    parts.push(`${fmt(aside)} of ${of} set aside (${why.filter(Boolean).join(', ')})`);
  }
  // Not done and named in the rejects file (a run that stopped): without a file, the error line says it all.
  if (s.unsettled > 0 && rejectsFile && s.written > 0) {
    parts.push(`${fmt(s.unsettled)} of ${plural(s.total, 'number')} not done`);
  }
  if (s.leftBehind > 0) parts.push(leftBehindText(s.leftBehind));
  if (parts.length === 0) return undefined;
  const where = rejectsFile && s.written > 0 ? `: written to ${rejectsFile}` : '';
  return `${commandName(s.operation)}: ${parts.join('; ')}${where}`;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function codeMessage(code: number, said: string | undefined): string {
  if (codeInfo(code))
    return formatCodeMessage(code)
      .replace(/\s*\{\d\}\s*/g, ' ')
      .replace(/\s{2,}/g, ' ')
      .trim();
  return (said ?? 'error').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 120);
}
