// Checks made before anything is sent. Every row is checked against the request rules of the specification
// (number format of the version, tag/email/remark lengths, language codes, integer carrier codes) and against
// the rows before it (the same number and carrier twice). Problems are collected with their line numbers over
// one streaming pass, so a file with a thousand mistakes is fixed in one go rather than one error at a time.

import { commandName, rowLacks } from '@trk/service/operations/index.js';
import { API_VERSIONS, numberPattern, type ApiVersion } from '@trk/service/vocabulary.js';
import { UsageError } from '../core/errors.js';
import { CARRIER_FIELDS, parseField } from '@trk/service/fields.js';
import {
  identityCarrier,
  operationFields,
  type Item,
  type ItemField,
  type ItemOperation,
  type RowValues,
} from './fields.js';
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
  /** The flags' values alone, not a row: what a row lacks is left to its cells. */
  flagsOnly?: boolean | undefined;
}

/**
 * A code for a carrier name; throws a UsageError (unknown, ambiguous) that becomes the row's problem. `notes` says
 * which names it read loosely (a service level left out), once each, for the summary.
 */
export type CarrierResolver = ((text: string) => number | undefined | Promise<number | undefined>) & {
  notes?: () => string[];
};

export interface Problem {
  line: number;
  message: string;
}

/**
 * Spaces of any width and dots, as people print numbers (`1Z 999 AA1 01 2345 6784`, `RR 123.456.789 CN`): not
 * part of any carrier's numbers, so they are dropped. Anything else (a comma, an invisible character) is kept
 * and refused, shown escaped.
 */
const PRINTED_SEPARATORS = /[ \t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000.]/g;

/**
 * Check the values of one row; `item` is set when there is no problem, `tidied` when the number lost spaces or dots.
 */
export function checkValues(
  values: RowValues,
  opts: CheckOptions,
): { item?: Item; problems: string[]; tidied?: boolean } {
  const problems: string[] = [];
  const item: Partial<Item> = {};
  const number = values.number;
  const tidy = number?.replace(PRINTED_SEPARATORS, '');
  if (number === undefined || tidy === undefined) {
    problems.push('no tracking number');
  } else if (!numberPattern(opts.version).test(tidy)) {
    const rule = opts.version === 'v1' ? '5 to 50 letters or digits' : '5 to 50 letters, digits or hyphens';
    problems.push(`number ${show(number)} is not ${rule}`);
  } else {
    item.number = tidy;
  }
  for (const [column, text] of Object.entries(values) as [ItemField, string][]) {
    if (column === 'number') continue;
    const parsed = parseField(column, text, show, opts.resolveCarrier !== undefined);
    if ('problem' in parsed) problems.push(parsed.problem);
    else if ('value' in parsed) (item as Record<string, unknown>)[column] = parsed.value;
  }
  if (opts.operation === 'changecarrier' && item.carrier !== undefined && item.carrier_old === undefined) {
    // In a change-carrier file `carrier` is the carrier the number has now.
    item.carrier_old = item.carrier;
  }
  // What a row lacks (a new carrier, something to change, v1's carrier to delete) may come from its own cells.
  const lacks = opts.flagsOnly ? undefined : rowLacks(opts.operation, values, opts.version);
  if (lacks !== undefined) problems.push(lacks);
  if (problems.length > 0) return { problems };
  return number !== item.number ? { item: item as Item, problems, tidied: true } : { item: item as Item, problems };
}

/** Columns holding a carrier code (or name). */
export function isCarrierColumn(column: ItemField): boolean {
  return CARRIER_FIELDS.includes(column);
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
      ? new UsageError(
          `the ${opts.version} API cannot send ${flag}`,
          `use --api-version ${since}, or drop ${flag}; nothing was sent`,
        )
      : new UsageError(
          `${flag} does not apply to trk ${commandName(opts.operation)}`,
          `drop ${flag}; nothing was sent`,
        );
  }
  const [first] = checkValues({ number: 'XXXXX', ...defaults }, { ...opts, flagsOnly: true }).problems;
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

/** Collects problems, keeping the first `shown` for the report and counting the rest. */
export class ProblemList {
  readonly shown: Problem[] = [];
  count = 0;

  constructor(readonly limit = 20) {}

  add(line: number, message: string): void {
    this.count += 1;
    if (this.shown.length < this.limit) this.shown.push({ line, message });
  }

  /** `line 17: tag longer than 100 characters (123)` lines in line order, then `... and N more`. */
  lines(locate: (line: number) => string = (n) => `line ${n}`): string[] {
    // Repeats are judged once the whole input is read: their problems come last, their lines anywhere.
    const out = [...this.shown].sort((a, b) => a.line - b.line).map((p) => `${locate(p.line)}: ${p.message}`);
    if (this.count > this.shown.length) out.push(`... and ${this.count - this.shown.length} more`);
    return out;
  }
}
