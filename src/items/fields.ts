// Input columns: which fields an operation reads (from the operation table), how header cells and JSON keys
// name them, and what happens to the rest. A column the operation does not use is ignored with one note, for
// every command alike, so that the file a shop imported, or what `trk list` and `trk info` wrote, can be fed
// to `trk stop` or `trk push` as it is. A column that looks like a misspelling of a field the operation uses is
// refused instead: ignoring `carier` would send every row without its carrier.

import { ITEM_FIELDS, type ItemField } from '@trk/service/fields.js';
import {
  ITEM_OPERATIONS,
  operationClass,
  operationFields,
  type Item,
  type ItemOperation,
} from '@trk/service/operations/index.js';
import { API_VERSIONS, type ApiVersion } from '@trk/service/vocabulary.js';
import {
  DETAILS_RESULT_COLUMN_NAMES,
  RECORD_COLUMN_NAMES,
  REGISTER_COLUMN_NAMES,
  REJECT_COLUMNS,
} from '../output/column-names.js';
import {
  CARRIER_FILL_COLUMNS,
  COLUMN_PREFIXES,
  FIELD_COLUMNS,
  ORDER_COLUMNS,
  PARAM_SOURCE_COLUMNS,
  PLATFORM_COLUMNS,
  SERVICE_COLUMNS,
} from './shop-columns.js';

export type { ItemField } from '@trk/service/fields.js';
export type { Item, ItemOperation } from '@trk/service/operations/index.js';

/** Fields any operation of `version` takes: the columns a file for this version may fill. */
export function versionFields(version: ApiVersion): readonly ItemField[] {
  const all = new Set<ItemField>();
  for (const op of ITEM_OPERATIONS) for (const f of operationFields(op, version)) all.add(f);
  return ITEM_FIELDS.filter((f) => all.has(f));
}

/** The first version that knows `field`, for the hint of a refusal; undefined for names no version knows. */
export function versionIntroducing(field: string): ApiVersion | undefined {
  for (const v of API_VERSIONS) if ((versionFields(v) as readonly string[]).includes(field)) return v;
  return undefined;
}

export function isItemField(name: string): name is ItemField {
  return (ITEM_FIELDS as readonly string[]).includes(name);
}

/** Column names that mean a field (shop-columns.ts), folded (normaliseName). */
const ALIASES: ReadonlyMap<string, ItemField> = new Map(
  (Object.entries(FIELD_COLUMNS) as [ItemField, readonly string[]][]).flatMap(([field, names]) =>
    names.map((n) => [normaliseName(n), field] as const),
  ),
);

/** The platform names (normalised) a header's columns make mean a field (shop-columns.ts PLATFORM_COLUMNS). */
export function platformColumns(header: readonly string[]): ReadonlyMap<string, ItemField> {
  const names = new Set(header.map(normaliseName));
  const out = new Map<string, ItemField>();
  for (const platform of PLATFORM_COLUMNS) {
    if (!names.has(normaliseName(platform.mark))) continue;
    for (const [name, field] of Object.entries(platform.columns)) out.set(normaliseName(name), field);
  }
  return out;
}

/** Folded names of the registry's other columns: read for the carrier or its param, or describing the order. */
const KNOWN_SHOP_NAMES: ReadonlySet<string> = new Set(
  [...CARRIER_FILL_COLUMNS, ...SERVICE_COLUMNS, ...Object.values(PARAM_SOURCE_COLUMNS).flat(), ...ORDER_COLUMNS].map(
    normaliseName,
  ),
);

const PREFIXES: ReadonlySet<string> = new Set(COLUMN_PREFIXES.map(normaliseName));

/**
 * The name a header cell is read by: as written, or, for `PREFIX: NAME` where PREFIX is an export app's
 * (`Fulfillment: Tracking Number`) and the whole is no name trk knows, NAME.
 */
export function readingName(cell: string, mapping: ColumnMapping = NO_MAPPING): string {
  const whole = normaliseName(cell);
  if (mapping.has(whole) || isItemField(whole) || ALIASES.has(whole) || KNOWN_SHOP_NAMES.has(whole)) return cell;
  const m = /^([^:]+):\s*(.*\S)\s*$/.exec(cell);
  return m && PREFIXES.has(normaliseName(m[1] as string)) ? (m[2] as string) : cell;
}

/** Index of the first of `names` (normalised) among `registry`'s, the earliest in the registry; -1 for none. */
export function bestColumn(names: readonly string[], registry: readonly string[]): number {
  let best = -1;
  let bestRank = Number.MAX_SAFE_INTEGER;
  const ranks = new Map(registry.map((n, i) => [normaliseName(n), i] as const));
  names.forEach((name, i) => {
    const rank = ranks.get(normaliseName(name));
    if (rank !== undefined && rank < bestRank) [best, bestRank] = [i, rank];
  });
  return best;
}

/**
 * Header cell or JSON key → a normal name: lower case, accents dropped, `#` read as "number", every run of
 * characters other than letters and digits one underscore, none at the ends (`Tracking No.` → `tracking_no`,
 * `Order #` → `order_number`). (Not "tracking" alone: that is a column of trk's own tables, a status.)
 */
export function normaliseName(cell: string): string {
  return cell
    .replace(/#/g, ' number ')
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/** Whether `name` stands for its field only as another name of it (a shop's column), not the field's own name. */
export function isAliasName(name: string, mapping: ColumnMapping = NO_MAPPING): boolean {
  const n = normaliseName(name);
  return !mapping.has(n) && !isItemField(n) && ALIASES.has(n);
}

/**
 * How telling a name is for its field, lowest first: the field's own name or a --column mapping (-1), then the
 * registry's shop names in their order (`Order Number` before `Order ID`), then any other (a platform's).
 */
export function nameRank(name: string, field: ItemField, mapping: ColumnMapping = NO_MAPPING): number {
  if (!isAliasName(name, mapping) && fieldOfName(name, mapping) === field) return -1;
  const n = normaliseName(name);
  const at = (FIELD_COLUMNS[field] ?? []).findIndex((c) => normaliseName(c) === n);
  return at < 0 ? Number.MAX_SAFE_INTEGER : at;
}

/**
 * The field a column name stands for: `--column NAME=FIELD` mappings first, then the field names and their
 * aliases; undefined for any other name.
 */
export function fieldOfName(name: string, mapping: ColumnMapping = NO_MAPPING): ItemField | undefined {
  const n = normaliseName(name);
  const mapped = mapping.get(n);
  if (mapped !== undefined) return mapped ?? undefined;
  if (isItemField(n)) return n;
  return ALIASES.get(n);
}

/**
 * `--column tracking_number=number`: names of the input (normalised) → fields; null for a column passed over on
 * purpose (`--column Notes=-`, `--ignore-column Notes`).
 */
export type ColumnMapping = ReadonlyMap<string, ItemField | null>;

/** Whether `name` is a column the user passed over on purpose. */
export function isPassedOver(name: string, mapping: ColumnMapping = NO_MAPPING): boolean {
  return mapping.get(normaliseName(name)) === null;
}
const NO_MAPPING: ColumnMapping = new Map();

/**
 * Columns trk itself writes (`trk list`, `trk info`, item results and rejects files in CSV, TSV and JSON):
 * never taken for misspellings of request fields, so trk's own output is read without complaint.
 */
const TRK_OUTPUT_COLUMNS: ReadonlySet<string> = new Set([
  ...RECORD_COLUMN_NAMES,
  ...DETAILS_RESULT_COLUMN_NAMES,
  ...REGISTER_COLUMN_NAMES,
  ...REJECT_COLUMNS,
]);

/** The field `name` is likely a misspelling of (one or two letters off), among `fields`. */
export function misspelled(name: string, fields: readonly string[]): string | undefined {
  const n = normaliseName(name);
  if (n.length < 3 || TRK_OUTPUT_COLUMNS.has(n) || isItemField(n) || ALIASES.has(n) || KNOWN_SHOP_NAMES.has(n))
    return undefined;
  return fields.find((f) => editDistance(n, f) <= (f.length <= 5 ? 1 : 2));
}

/** Edits between two names, a swap of neighbours counting as one (optimal string alignment). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min(
        (up[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * Parse `--column NAME=FIELD` values (FIELD `-`: pass NAME over) and `--ignore-column NAME` ones into a mapping;
 * throws a message for a bad one.
 */
export function parseColumnMapping(values: readonly string[], ignored: readonly string[] = []): ColumnMapping {
  const mapping = new Map<string, ItemField | null>();
  for (const value of values) {
    const m = /^(.+?)=(.+)$/.exec(value);
    const target = m ? (m[2] as string).trim() : '';
    const field = target === '-' ? null : normaliseName(target);
    if (!m || (field !== null && !isItemField(field))) {
      throw new Error(
        `--column ${value}: give NAME=FIELD, FIELD one of ${ITEM_FIELDS.join(', ')}, or - to pass NAME over`,
      );
    }
    mapping.set(normaliseName(m[1] as string), field);
  }
  for (const name of ignored) {
    if (normaliseName(name) === '') throw new Error(`--ignore-column ${JSON.stringify(name)}: give a column's name`);
    mapping.set(normaliseName(name), null);
  }
  return mapping;
}

/** The values of one input row, by field, after defaults were applied (text as read). */
export type RowValues = Partial<Record<ItemField, string>>;

/** The carrier that makes a row unique for `op` (number + this is the duplicate key and the journal's match). */
export function identityCarrier(op: ItemOperation, item: Item): number | undefined {
  return op === 'changecarrier' ? (item.carrier_old ?? item.carrier) : item.carrier;
}

/** Operations that consume quota: checked against the quota before a run, looked up after lost answers. */
export function isCharging(op: ItemOperation): boolean {
  return operationClass(op) === 'charging';
}

/** Reads change nothing: they are not journaled and simply run again when interrupted. */
export function isReadOnly(op: ItemOperation): boolean {
  return operationClass(op) === 'read';
}

export { operationFields };
