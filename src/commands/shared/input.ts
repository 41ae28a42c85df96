// Where item commands get their tracking numbers without -f: arguments or piped stdin, one number per line or
// `NUMBER,CARRIER` rows (CSV, optionally with a `number,carrier` header). readNumbers can read a file too, but
// the commands never pass it one: they hand `-f FILE` to the bulk path (src/bulk/), which reads richer CSV.

import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { numberPattern, type ApiVersion } from '../../api/spec.js';
import { UsageError } from '../../errors.js';
import type { IO } from '../../io.js';
import { restoreCell } from '../../output/csv-cell.js';

export interface NumberItem {
  number: string;
  /** From a CARRIER column; overrides --carrier for this row. */
  carrier?: number;
  /** Where the number came from, for error messages: `argument 2`, `line 7 of orders.txt`. */
  where: string;
}

export interface NumberSource {
  args: readonly string[];
  /** `-f FILE`; `-` is stdin. */
  file?: string | undefined;
}

export type NumberReader = (source: NumberSource, io: IO) => Promise<NumberItem[]>;

const NO_NUMBERS_HINT = 'pass them as arguments, with -f FILE, or on stdin';
const HEADER_NAMES = new Set(['number', 'tracking_number', 'tracking number', 'tracking-number']);

/**
 * Arguments and the file are combined. Without either, piped stdin is read; a terminal on stdin means nobody is
 * going to type numbers, so that is a usage error rather than a silent wait.
 */
export const readNumbers: NumberReader = async (source, io) => {
  const items: NumberItem[] = source.args.map((number, i) => ({ number: number.trim(), where: `argument ${i + 1}` }));
  if (source.file !== undefined) {
    items.push(...(await readFileOrStdin(source.file, io)));
  } else if (items.length === 0) {
    if (io.stdinIsTTY) throw new UsageError('no tracking numbers given', NO_NUMBERS_HINT);
    items.push(...(await parseNumberText(await readAll(io.stdin), 'stdin')));
  }
  return items;
};

async function readFileOrStdin(file: string, io: IO): Promise<NumberItem[]> {
  if (file === '-') return parseNumberText(await readAll(io.stdin), 'stdin');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message;
    throw new UsageError(`cannot read ${file}: ${why}`, 'give a file with one tracking number per line, or - for stdin');
  }
  return parseNumberText(text, file);
}

export async function readBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

export async function readAll(stream: Readable): Promise<string> {
  return (await readBytes(stream)).toString('utf8');
}

/** Parse input text; `origin` names it in messages (`stdin` or the file name). */
export async function parseNumberText(text: string, origin: string): Promise<NumberItem[]> {
  const body = text.replace(/^\uFEFF/, '');
  if (/[,\t]/.test(body)) return parseCsv(body, origin);
  const items: NumberItem[] = [];
  body.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (i === 0 && HEADER_NAMES.has(line.toLowerCase())) return;
    items.push({ number: line, where: `line ${i + 1} of ${origin}` });
  });
  return items;
}

async function parseCsv(text: string, origin: string): Promise<NumberItem[]> {
  const { parse } = await import('csv-parse/sync');
  const delimiter = text.includes('\t') && !text.includes(',') ? '\t' : ',';
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      delimiter,
      trim: true,
      skip_empty_lines: true,
      comment: '#',
      comment_no_infix: true,
      relax_column_count: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    throw new UsageError(`${origin} is not valid CSV: ${(err as Error).message}`, 'one number per line, or NUMBER,CARRIER rows');
  }
  let numberCol = 0;
  let carrierCol: number | undefined = 1;
  const first = rows[0]?.record;
  if (first && first.some((cell) => HEADER_NAMES.has(cell.toLowerCase()))) {
    const names = first.map((c) => c.toLowerCase());
    numberCol = names.findIndex((n) => HEADER_NAMES.has(n));
    const c = names.indexOf('carrier');
    carrierCol = c >= 0 ? c : undefined;
    const unknown = names.find((_, i) => i !== numberCol && i !== carrierCol);
    if (unknown !== undefined) {
      throw new UsageError(
        `${origin}: unknown column ${show(unknown)}`,
        'item commands read a number column and optionally a carrier column',
      );
    }
    rows = rows.slice(1);
  }
  return rows.map(({ record, info }) => {
    const where = `line ${info.lines} of ${origin}`;
    if (record.length > 2 && carrierCol === 1) {
      throw new UsageError(`${where}: expected NUMBER or NUMBER,CARRIER, got ${record.length} fields`, 'fix the line');
    }
    const item: NumberItem = { number: restoreCell(record[numberCol] ?? ''), where };
    const carrierText = carrierCol === undefined ? '' : (record[carrierCol] ?? '');
    if (carrierText !== '') {
      if (!/^\d+$/.test(carrierText)) {
        throw new UsageError(`${where}: carrier ${show(carrierText)} is not a carrier code`, 'carrier codes are integers from the carrier list');
      }
      item.carrier = Number(carrierText);
    }
    return item;
  });
}

/**
 * Every number must match the version's format before anything is sent: one bad line in a file of thousands is
 * cheaper to fix first than to find among the rejections.
 */
export function validateNumbers(items: readonly NumberItem[], version: ApiVersion): void {
  const pattern = numberPattern(version);
  const bad = items.filter((item) => !pattern.test(item.number));
  const first = bad[0];
  if (!first) return;
  const more = bad.length > 1 ? ` and ${bad.length - 1} more` : '';
  const what = first.number === '' ? 'empty tracking number' : `invalid tracking number ${show(first.number)}`;
  const rule =
    version === 'v1' ? 'tracking numbers are 5 to 50 letters or digits' : 'tracking numbers are 5 to 50 letters, digits or hyphens';
  throw new UsageError(`${what} (${first.where})${more}`, `${rule}; correct or remove it, nothing was sent`);
}

/** Drop repeats of the same number and carrier, which would only be rejected or charged twice. */
export function dedupeNumbers(items: readonly NumberItem[]): NumberItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = `${item.number}\u0000${item.carrier ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A value from user input, quoted and made safe for a terminal line. */
export function show(value: string): string {
  const cut = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  return JSON.stringify(cut).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
