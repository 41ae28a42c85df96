// What an item run produced: counts for the summary and the exit code, the rejected rows for `--rejects FILE`
// (the input's own columns plus input_line, error_code and error_message, so the file can be fixed and imported
// again), and, when asked for, the merged accepted/rejected items of the service for output. Counts are of
// numbers, never of requests.

import type { WriteStream } from 'node:fs';
import path from 'node:path';
import type { Stringifier } from 'csv-stringify';
import { codeInfo, formatCodeMessage } from '../api/codes.js';
import { commandName, doneWord, operationSpec } from '../api/ops.js';
import type { ItemResults, RejectedItem } from '../api/types.js';
import { fileReason, TrkError, UsageError } from '../errors.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import { REJECT_COLUMNS } from '../output/column-names.js';
import { csvCell } from '../output/csv-cell.js';
import type { Chunk, ChunkRow } from './chunker.js';
import type { ItemOperation } from './fields.js';
import type { ChunkOutcome } from './journal.js';
import type { ProgressCounts } from './progress.js';
import { duration, fmt, plural } from '../text.js';
import type { InputLayout, InputRow } from './read.js';
import { fsReason } from './source.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { createWriteStream, renameSync, rmSync, statSync } = process.getBuiltinModule('node:fs');

/** error_code of a row set aside by --skip-invalid (it never reached the service). */
export const INVALID_CODE = 'invalid';

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
  /** `numbers.csv line 7` / `argument 2`, for rows set aside without a rejects file. */
  locate: (line: number) => string;
  /** --raw-csv: the rejects file's cells as they are, formula-like ones included (src/output/csv-cell.ts). */
  rawCsv?: boolean | undefined;
  /** Each settled chunk's items, e.g. to stream them to stdout. */
  onItems?: ((results: ItemResults) => void) | undefined;
  /** Invalid rows listed on stderr when there is no rejects file: the first this many. */
  listInvalid?: number;
}

interface RejectsOutput {
  stringifier: Stringifier;
  file: WriteStream;
  tmp: string;
  /** Input columns copied (all but earlier reject columns). */
  keep: number[];
  /** The first write that failed (a full disk): the file is given up, and close() says so. */
  failed?: unknown;
}

export class ResultSink {
  readonly results: ItemResults = { accepted: [], rejected: [] };
  #accepted = 0;
  #verified = 0;
  #already = 0;
  #rejected = 0;
  #notFound = 0;
  #settled = 0;
  #fromJournal = 0;
  #invalid = 0;
  readonly invalidLines: string[] = [];
  readonly #byCode = new Map<number, { message: string; count: number }>();
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
    const keep = header.map((_, i) => i).filter((i) => !(REJECT_COLUMNS as readonly string[]).includes((header[i] ?? '').trim().toLowerCase()));
    const stringifier = stringify({ header: true, columns: [...keep.map((i) => header[i] as string), ...REJECT_COLUMNS] });
    const cannot = (why: string) => new UsageError(`cannot write the rejects file ${target}: ${why}`, 'give a file in a folder you can write to; nothing was sent');
    if (isDirectory(target)) throw cannot('it is a directory');
    const tmp = path.join(path.dirname(path.resolve(target)), `.${path.basename(target)}.${process.pid}.tmp`);
    const file = createWriteStream(tmp, { mode: 0o600 });
    await new Promise<void>((resolve, reject) => {
      file.once('open', () => resolve());
      file.once('error', (err) => reject(cannot(fsReason(err))));
    });
    stringifier.pipe(file);
    const rejects: RejectsOutput = { stringifier, file, tmp, keep };
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
    for (const r of outcome.rejected) {
      const code = typeof r.error?.code === 'number' ? r.error.code : 0;
      const entry = this.#byCode.get(code);
      if (entry) entry.count += 1;
      else this.#byCode.set(code, { message: codeMessage(code, r.error?.message), count: 1 });
    }
    if (this.#rejects && outcome.rejected.length > 0) this.#writeRejects(chunk.rows, outcome.rejected);
    const merged = { accepted: outcome.accepted, rejected: [...outcome.rejected, ...outcome.already] };
    if (this.#o.collect) {
      for (const a of merged.accepted) this.results.accepted.push(a);
      for (const r of merged.rejected) this.results.rejected.push(r);
    }
    this.#o.onItems?.(merged);
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

  #writeRejects(rows: readonly ChunkRow[], rejected: readonly RejectedItem[]): void {
    const { keep } = this.#rejects as RejectsOutput;
    const byKey = new Map(rows.map((r) => [r.key, r]));
    const numberAt = this.#o.layout.columns.indexOf('number');
    for (const r of rejected) {
      const row = byKey.get(String(r.number ?? '').trim().toUpperCase());
      const cells = keep.map((i) => (row ? (row.cells[i] ?? '') : i === numberAt ? String(r.number) : ''));
      const code = typeof r.error?.code === 'number' ? r.error.code : '';
      this.#write([...cells, row ? String(row.line) : '', String(code), r.error?.message ?? '']);
    }
  }

  /** One row of the rejects file, its formula-like cells neutralised unless --raw-csv. */
  #write(cells: readonly string[]): void {
    (this.#rejects as RejectsOutput).stringifier.write(cells.map((c) => csvCell(c, this.#o.rawCsv)));
  }

  /** Finish the rejects file and put it in place (also after a failed run: what was rejected is data). */
  async close(): Promise<void> {
    const rejects = this.#rejects;
    if (!rejects) return;
    this.#rejects = undefined;
    const failed = (err: unknown) => {
      rejects.stringifier.destroy();
      rmSync(rejects.tmp, { force: true });
      return new TrkError(`cannot write the rejects file ${this.#o.rejectsFile}: ${fileReason(err)}`, {
        hint:
          'make room and run the same command again: nothing is sent twice, and the rejects file is written in full',
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
      renameSync(rejects.tmp, this.#o.rejectsFile as string);
    } catch (err) {
      rmSync(rejects.tmp, { force: true });
      throw new UsageError(`cannot write the rejects file ${this.#o.rejectsFile}: ${fsReason(err)}`);
    }
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
      rejectedByCode: [...this.#byCode.entries()]
        .map(([code, v]) => ({ code, message: v.message, count: v.count }))
        .sort((a, b) => b.count - a.count),
      invalid: this.#invalid,
      notFound: this.#notFound,
      unsettled: this.#o.total - this.#settled,
      elapsedMs,
      perSecond: elapsedMs > 0 ? (ran * 1000) / elapsedMs : 0,
    };
  }
}

/**
 * The exit code of a finished run: 0 when every item ended in the state asked for ("already in that state"
 * counts), 3 when some were rejected (or set aside as invalid) and some done, 1 when none was done.
 */
export function exitCodeOf(s: Pick<RunSummary, 'accepted' | 'already' | 'rejected' | 'invalid' | 'notFound'>): ExitCode {
  const bad = s.rejected + s.invalid;
  if (bad === 0) return EXIT.ok;
  return s.accepted + s.already + s.notFound > 0 ? EXIT.partial : EXIT.failure;
}

/** The summary for stderr: `register: 1,640 of 3,000 numbers in 16s`, then one line per outcome. */
export function summaryLines(s: RunSummary, rejectsFile?: string): string[] {
  const noun = s.operation === 'gettracklist' ? 'numbers looked up' : s.total === 1 ? 'number' : 'numbers';
  const count = s.unsettled > 0 ? `${fmt(s.settled)} of ${fmt(s.total)}` : fmt(s.total);
  const rate = s.perSecond > 0 && s.elapsedMs >= 2000 ? ` (${s.perSecond >= 10 ? Math.round(s.perSecond) : s.perSecond.toFixed(1)}/s)` : '';
  const lines = [`${commandName(s.operation)}: ${count} ${noun} in ${duration(s.elapsedMs / 1000)}${rate}`];
  if (s.fromJournal > 0) lines.push(`  resumed: ${fmt(s.fromJournal)} done by the interrupted run before`);
  const pad = (label: string) => `  ${label.padEnd(19)}`;
  lines.push(
    `${pad(doneWord(s.operation))}${fmt(s.accepted)}` +
      (s.verified > 0 ? `  (${fmt(s.verified)} confirmed by looking them up after a lost answer)` : ''),
  );
  if (s.already > 0) lines.push(`${pad(operationSpec(s.operation).already?.words ?? 'already done')}${fmt(s.already)}`);
  if (s.notFound > 0) lines.push(`${pad('not registered')}${fmt(s.notFound)}`);
  if (s.rejected > 0) {
    lines.push(`${pad('rejected')}${fmt(s.rejected)}`);
    for (const c of s.rejectedByCode.slice(0, 8)) lines.push(`    ${c.code === 0 ? 'no answer' : c.code} ${c.message}: ${fmt(c.count)}`);
    if (s.rejectedByCode.length > 8) lines.push(`    ... and ${s.rejectedByCode.length - 8} more codes`);
  }
  if (s.invalid > 0) lines.push(`${pad('invalid, not sent')}${fmt(s.invalid)}`);
  if (s.unsettled > 0) lines.push(`${pad('not done')}${fmt(s.unsettled)}`);
  if (rejectsFile && s.rejected + s.invalid > 0) lines.push(`  ${plural(s.rejected + s.invalid, 'row')} written to ${rejectsFile}`);
  return lines;
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function codeMessage(code: number, said: string | undefined): string {
  if (codeInfo(code)) return formatCodeMessage(code).replace(/\s*\{\d\}\s*/g, ' ').replace(/\s{2,}/g, ' ').trim();
  return (said ?? 'error').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 120);
}
