// What a bulk run produced: counts for the summary, the rejected rows for `--rejects FILE` (the input's own
// columns plus error_code and error_message, so the file can be fixed and imported again), and, when asked
// for, the merged accepted/rejected items of the service for --json.

import { createWriteStream, type WriteStream } from 'node:fs';
import type { Stringifier } from 'csv-stringify';
import type { ItemResults, RejectedItem } from '../api/types.js';
import { UsageError } from '../errors.js';
import { codeInfo, formatCodeMessage } from '../api/codes.js';
import { csvCell } from '../output/csv-cell.js';
import type { Chunk, ChunkRow } from './chunker.js';
import { COMMAND_NAME, type BulkOperation } from './fields.js';
import type { InputLayout } from './input.js';
import type { ChunkOutcome } from './journal.js';
import { duration, fmt, type ProgressCounts } from './progress.js';

/** Columns a rejects file adds; ignored when such a file is read back as input. */
export const REJECT_COLUMNS = ['error_code', 'error_message'] as const;

export interface BulkSummary {
  operation: BulkOperation;
  /** Items in the input. */
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
  /** gettracklist: numbers without any record. */
  notFound: number;
  /** Items left without an answer (interrupted or stopped by an error). */
  unsettled: number;
  elapsedMs: number;
  /** Items settled by this run per second. */
  perSecond: number;
  requests: number;
}

export const DONE_WORD: Record<BulkOperation, string> = {
  register: 'registered',
  stoptrack: 'stopped',
  retrack: 're-tracked',
  deletetrack: 'deleted',
  push: 'queued for push',
  gettrackinfo: 'found',
  changecarrier: 'changed',
  changeinfo: 'updated',
  gettracklist: 'records',
};

const ALREADY_WORD: Partial<Record<BulkOperation, string>> = {
  register: 'already registered',
  stoptrack: 'already stopped',
  retrack: 'already re-tracked',
  deletetrack: 'already deleted',
};

export interface ResultSinkOptions {
  operation: BulkOperation;
  layout: InputLayout;
  total: number;
  /** Keep the service's items for --json. */
  collect: boolean;
  rejectsFile?: string | undefined;
  /** --raw-csv: the rejects file's cells as they are, formula-like ones included (src/output/csv-cell.ts). */
  rawCsv?: boolean | undefined;
  /** Each settled chunk's items, e.g. to stream them to stdout. */
  onItems?: ((results: ItemResults) => void) | undefined;
}

interface RejectsOutput {
  stringifier: Stringifier;
  file: WriteStream;
  /** Input columns copied (all but earlier error columns). */
  keep: number[];
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
  readonly #byCode = new Map<number, { message: string; count: number }>();
  readonly #o: ResultSinkOptions;
  #rejects: RejectsOutput | undefined;

  constructor(opts: ResultSinkOptions) {
    this.#o = opts;
  }

  /** Create the rejects file (header only until rows come). Rewritten in full on every run, resumed ones too. */
  async open(): Promise<void> {
    if (!this.#o.rejectsFile) return;
    const { stringify } = await import('csv-stringify');
    const header = this.#o.layout.header;
    // A rejects file imported again brings its own error columns: replace them rather than repeat them.
    const keep = header.map((_, i) => i).filter((i) => !(REJECT_COLUMNS as readonly string[]).includes(normal(header[i] ?? '')));
    const stringifier = stringify({ header: true, columns: [...keep.map((i) => header[i] as string), ...REJECT_COLUMNS] });
    const target = this.#o.rejectsFile;
    const file = createWriteStream(target, { mode: 0o600 });
    await new Promise<void>((resolve, reject) => {
      file.once('open', () => resolve());
      // Opened before any item is sent: a path that cannot be written is the user's to fix, not a failure.
      file.once('error', (err: NodeJS.ErrnoException) => {
        const why = err.code === 'ENOENT' ? 'no such folder' : err.code === 'EISDIR' ? 'it is a directory' : err.code === 'EACCES' ? 'permission denied' : err.message;
        reject(new UsageError(`cannot write the rejects file ${target}: ${why}`, 'give a file in a folder you can write to; nothing was sent'));
      });
    });
    stringifier.pipe(file);
    this.#rejects = { stringifier, file, keep };
  }

  settle(chunk: Chunk, outcome: ChunkOutcome, replayed: boolean): void {
    const items = chunk.rows.length;
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

  #writeRejects(rows: readonly ChunkRow[], rejected: readonly RejectedItem[]): void {
    const { stringifier, keep } = this.#rejects as RejectsOutput;
    const byKey = new Map(rows.map((r) => [r.key, r]));
    for (const r of rejected) {
      const row = byKey.get(String(r.number ?? '').trim().toUpperCase());
      const cells = keep.map((i) => (row ? (row.cells[i] ?? '') : i === this.#o.layout.columns.indexOf('number') ? String(r.number) : ''));
      const code = typeof r.error?.code === 'number' ? r.error.code : '';
      stringifier.write([...cells, String(code), r.error?.message ?? ''].map((c) => csvCell(c, this.#o.rawCsv)));
    }
  }

  async close(): Promise<void> {
    const rejects = this.#rejects;
    if (!rejects) return;
    this.#rejects = undefined;
    await new Promise<void>((resolve, reject) => {
      rejects.file.once('finish', () => resolve());
      rejects.file.once('error', reject);
      rejects.stringifier.end();
    });
  }

  counts(): ProgressCounts {
    return { done: this.#settled, total: this.#o.total, rejected: this.#rejected };
  }

  summary(elapsedMs: number, requests: number): BulkSummary {
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
      notFound: this.#notFound,
      unsettled: this.#o.total - this.#settled,
      elapsedMs,
      perSecond: elapsedMs > 0 ? (ran * 1000) / elapsedMs : 0,
      requests,
    };
  }
}

/** The summary for stderr. */
export function summaryLines(s: BulkSummary, rejectsFile?: string): string[] {
  const noun = s.operation === 'gettracklist' ? 'numbers looked up' : s.total === 1 ? 'item' : 'items';
  const lines = [
    `${COMMAND_NAME[s.operation]}: ${fmt(s.total)} ${noun} in ${duration(s.elapsedMs / 1000)}` +
      (s.perSecond > 0 ? ` (${s.perSecond >= 10 ? Math.round(s.perSecond) : s.perSecond.toFixed(1)}/s)` : '') +
      `, ${fmt(s.requests)} request${s.requests === 1 ? '' : 's'}`,
  ];
  if (s.fromJournal > 0) lines.push(`  resumed: ${fmt(s.fromJournal)} done by the interrupted run before`);
  const pad = (label: string) => `  ${label.padEnd(19)}`;
  lines.push(
    `${pad(DONE_WORD[s.operation])}${fmt(s.accepted)}` +
      (s.verified > 0 ? `  (${fmt(s.verified)} confirmed by looking them up after a lost answer)` : ''),
  );
  if (s.already > 0) lines.push(`${pad(ALREADY_WORD[s.operation] ?? 'already done')}${fmt(s.already)}`);
  if (s.notFound > 0) lines.push(`${pad('not registered')}${fmt(s.notFound)}`);
  if (s.rejected > 0) {
    lines.push(`${pad('rejected')}${fmt(s.rejected)}`);
    for (const c of s.rejectedByCode.slice(0, 8)) lines.push(`    ${c.code === 0 ? 'no answer' : c.code} ${c.message}: ${fmt(c.count)}`);
    if (s.rejectedByCode.length > 8) lines.push(`    ... and ${s.rejectedByCode.length - 8} more codes`);
  }
  if (s.unsettled > 0) lines.push(`${pad('not done')}${fmt(s.unsettled)}`);
  if (rejectsFile && s.rejected > 0) lines.push(`  rejected rows written to ${rejectsFile}`);
  return lines;
}

function codeMessage(code: number, said: string | undefined): string {
  if (codeInfo(code)) return formatCodeMessage(code).replace(/\s*\{\d\}\s*/g, ' ').replace(/\s{2,}/g, ' ').trim();
  return (said ?? 'error').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 120);
}

function normal(name: string): string {
  return name.trim().toLowerCase();
}
