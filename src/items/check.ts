// Checks made before anything is sent. Every row is checked against the request rules of the specification
// (number format of the version, tag/email/remark lengths, language codes, integer carrier codes) and against
// the rows before it (the same number and carrier twice). Problems are collected with their line numbers over
// one streaming pass, so a file with a thousand mistakes is fixed in one go rather than one error at a time.

import { commandName } from '../api/ops.js';
import { API_VERSIONS, LANGUAGES, LIMITS, numberPattern, type ApiVersion } from '../api/spec.js';
import { UsageError } from '../errors.js';
import { identityCarrier, operationFields, type Item, type ItemField, type ItemOperation, type RowValues } from './fields.js';
import type { InputLayout, InputRow } from './read.js';
import { show } from '../output/sanitize.js';

export interface CheckOptions {
  operation: ItemOperation;
  version: ApiVersion;
  /**
   * Carrier names → codes (the carriers module's resolver). Names are resolved before a row is checked (see
   * scan.ts); without a resolver only integer codes are accepted.
   */
  resolveCarrier?: CarrierResolver | undefined;
}

/** A code for a carrier name; throws a UsageError (unknown, ambiguous) that becomes the row's problem. */
export type CarrierResolver = (text: string) => number | undefined | Promise<number | undefined>;

export interface Problem {
  line: number;
  message: string;
}

const CARRIER_COLUMNS = new Set<ItemField>(['carrier', 'final_carrier', 'carrier_old', 'carrier_new', 'final_carrier_old', 'final_carrier_new']);
const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'off']);
const LENGTH_LIMITS: Partial<Record<ItemField, number>> = {
  tag: LIMITS.tagMaxLength,
  email: LIMITS.emailMaxLength,
  remark: LIMITS.remarkMaxLength,
};

/** Check the values of one row; `item` is set when there is no problem. */
export function checkValues(values: RowValues, opts: CheckOptions): { item?: Item; problems: string[] } {
  const problems: string[] = [];
  const item: Partial<Item> = {};
  const number = values.number;
  if (number === undefined) {
    problems.push('no tracking number');
  } else if (!numberPattern(opts.version).test(number)) {
    const rule = opts.version === 'v1' ? '5 to 50 letters or digits' : '5 to 50 letters, digits or hyphens';
    problems.push(`number ${show(number)} is not ${rule}`);
  } else {
    item.number = number;
  }
  for (const [column, text] of Object.entries(values) as [ItemField, string][]) {
    if (column === 'number') continue;
    if (CARRIER_COLUMNS.has(column)) {
      const code = carrierCode(text);
      // 0 is how the service says "no carrier" (a list record's final_carrier): the same as an empty cell.
      if (code === 0) continue;
      if (code === undefined) {
        problems.push(
          opts.resolveCarrier
            ? `${column} ${show(text)} is neither a carrier code nor a carrier name trk knows`
            : `${column} ${show(text)} is not a carrier code (a whole number from the carrier list)`,
        );
      } else {
        (item as Record<string, unknown>)[column] = code;
      }
      continue;
    }
    const limit = LENGTH_LIMITS[column];
    if (limit !== undefined) {
      const length = [...text].length;
      if (length > limit) {
        problems.push(`${column} longer than ${limit} characters (${length})`);
        continue;
      }
    }
    if (column === 'lang') {
      const lang = text.toLowerCase();
      if (!(LANGUAGES as readonly string[]).includes(lang)) {
        problems.push(`lang ${show(text)} is not one of ${LANGUAGES.join(', ')}`);
      } else {
        item.lang = lang;
      }
      continue;
    }
    if (column === 'auto_detection') {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) item.auto_detection = true;
      else if (FALSE_WORDS.has(word)) item.auto_detection = false;
      else problems.push(`auto_detection ${show(text)} is not true or false`);
      continue;
    }
    (item as Record<string, unknown>)[column] = text;
  }
  if (opts.operation === 'changecarrier' && item.carrier !== undefined && item.carrier_old === undefined) {
    // In a change-carrier file `carrier` is the carrier the number has now.
    item.carrier_old = item.carrier;
  }
  if (opts.operation === 'changecarrier' && values.carrier_new === undefined && values.final_carrier_new === undefined) {
    problems.push('carrier_new or final_carrier_new is needed');
  }
  if (opts.operation === 'deletetrack' && opts.version === 'v1' && values.carrier === undefined) {
    problems.push('the v1 API needs the carrier to delete a number (--carrier, or a carrier column)');
  }
  if (opts.operation === 'changeinfo' && values.tag === undefined && values.param === undefined && values.lang === undefined) {
    problems.push(`nothing to change (${operationFields('changeinfo', opts.version).slice(2).join(', ')})`);
  }
  return problems.length > 0 ? { problems } : { item: item as Item, problems };
}

function carrierCode(text: string): number | undefined {
  // Codes were zero-padded strings in old carrier lists: "03011" is 3011.
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/** Columns holding a carrier code (or name). */
export function isCarrierColumn(column: ItemField): boolean {
  return CARRIER_COLUMNS.has(column);
}

/**
 * Defaults from flags (`--carrier`, `--tag`, ...) are checked once, named by their flag: a bad --tag is one
 * problem, not one per row.
 */
export function checkDefaults(defaults: RowValues, opts: CheckOptions): void {
  const used = operationFields(opts.operation, opts.version) as readonly string[];
  for (const column of Object.keys(defaults)) {
    if (used.includes(column)) continue;
    const flag = `--${column.replace(/_/g, '-')}`;
    const since = API_VERSIONS.find((v) => (operationFields(opts.operation, v) as readonly string[]).includes(column));
    throw since
      ? new UsageError(`the ${opts.version} API cannot send ${flag}`, `use --api-version ${since}, or drop ${flag}; nothing was sent`)
      : new UsageError(`${flag} does not apply to trk ${commandName(opts.operation)}`, `drop ${flag}; nothing was sent`);
  }
  const { problems } = checkValues({ number: 'XXXXX', ...defaults }, opts);
  // What a row lacks (a new carrier, something to change, v1's carrier to delete) may come from its own cells.
  const first = problems.find((p) => !p.startsWith('carrier_new or') && !p.startsWith('nothing to change') && !p.startsWith('the v1 API needs the carrier'));
  if (first !== undefined) throw new UsageError(`invalid option: ${first}`);
}

/** Values of a row with the defaults under them: a cell wins over a flag. */
export function withDefaults(values: RowValues, defaults: RowValues | undefined): RowValues {
  return defaults ? { ...defaults, ...values } : values;
}

/** Cells beyond the columns the first line set up are a mistake (a stray comma, an unquoted comma in a tag). */
export function checkWidth(row: InputRow, layout: InputLayout): string | undefined {
  const width = layout.width;
  if (width === undefined || row.cells.length <= width) return undefined;
  const extra = row.cells.slice(width);
  if (extra.every((c) => c === '')) return undefined;
  return !layout.hasHeader
    ? `${row.cells.length} values where the first line has ${width} (a comma in a number?)`
    : `${row.cells.length} values but the header names ${width} columns (quote values that contain commas)`;
}

/** The duplicate key of an item: number as the service stores it, and the carrier that identifies the record. */
export function duplicateKey(op: ItemOperation, item: Item): string {
  const carrier = identityCarrier(op, item);
  return `${item.number.toUpperCase()}\u0000${carrier ?? ''}`;
}

/**
 * A set of keys with the line each was first seen on, in typed arrays: a million keys take about 24 MB, where a
 * Set of strings takes several times that. Keys are stored as a 64-bit hash; two different keys sharing one
 * (about 1 in 10^7 for a million rows) would be reported as a duplicate naming both lines, so a person can see.
 */
export class LineIndex {
  #hi: Uint32Array;
  #lo: Uint32Array;
  #line: Uint32Array;
  #size = 0;

  /** `expected`: how many keys are likely; sized once for them, so a large file does not grow it in steps. */
  constructor(expected = 512) {
    let capacity = 1024;
    while (capacity * MAX_LOAD < expected) capacity *= 2;
    this.#hi = new Uint32Array(capacity);
    this.#lo = new Uint32Array(capacity);
    this.#line = new Uint32Array(capacity);
  }

  /** The line `key` was first seen on, or 0 after recording it at `line` (lines start at 1). */
  firstLine(key: string, line: number): number {
    if (this.#size + 1 > this.#line.length * MAX_LOAD) this.#grow();
    hash64(key);
    const mask = this.#line.length - 1;
    for (let i = H1 & mask; ; i = (i + 1) & mask) {
      const at = this.#line[i] as number;
      if (at === 0) {
        this.#hi[i] = H1;
        this.#lo[i] = H2;
        this.#line[i] = line;
        this.#size += 1;
        return 0;
      }
      if (this.#hi[i] === H1 && this.#lo[i] === H2) return at;
    }
  }

  get size(): number {
    return this.#size;
  }

  #grow(): void {
    const [hi, lo, lines] = [this.#hi, this.#lo, this.#line];
    const capacity = lines.length * 2;
    this.#hi = new Uint32Array(capacity);
    this.#lo = new Uint32Array(capacity);
    this.#line = new Uint32Array(capacity);
    const mask = capacity - 1;
    for (let j = 0; j < lines.length; j++) {
      const at = lines[j] as number;
      if (at === 0) continue;
      let i = (hi[j] as number) & mask;
      while (this.#line[i] !== 0) i = (i + 1) & mask;
      this.#hi[i] = hi[j] as number;
      this.#lo[i] = lo[j] as number;
      this.#line[i] = at;
    }
  }
}

/** Share of slots in use before the table doubles. */
const MAX_LOAD = 0.7;

let H1 = 0;
let H2 = 0;

/** Two independent 32-bit string hashes (cyrb53's mixing), left in H1/H2 to spare an allocation per row. */
function hash64(text: string): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  H1 = h1 >>> 0;
  H2 = h2 >>> 0;
}

/** Collects problems, keeping the first `shown` for the report and counting the rest. */
export class ProblemList {
  readonly shown: Problem[] = [];
  count = 0;

  constructor(readonly limit = 20) {}

  add(line: number, message: string): void {
    this.count += 1;
    if (this.shown.length < this.limit) this.shown.push({ line, message });
  }

  /** `line 17: tag longer than 100 characters (123)` lines, then `... and N more`. */
  lines(locate: (line: number) => string = (n) => `line ${n}`): string[] {
    const out = this.shown.map((p) => `${locate(p.line)}: ${p.message}`);
    if (this.count > this.shown.length) out.push(`... and ${this.count - this.shown.length} more`);
    return out;
  }
}
