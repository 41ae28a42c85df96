// The layout of an input's named columns (a header row, or the keys of JSON objects): which field each column
// gives, by the API's names, the names shops give them (fields.ts, shop-columns.ts) and --column; the columns
// standing in for the carrier or a param; the refusals of a header that cannot be read (two columns of one field,
// no column of numbers, a misspelled name) with the --column that would read it.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import { UsageError } from '../core/errors.js';
import { CARRIER_FIELDS } from '@trk/service/fields.js';
import {
  bestColumn,
  fieldOfName,
  isPassedOver,
  nameRank,
  platformColumns,
  readingName,
  isAliasName,
  misspelled,
  normaliseName,
  operationFields,
  versionIntroducing,
  type ItemField,
  type ItemOperation,
} from './fields.js';
import type { InputFormat, InputLayout, ReadOptions } from './read.js';
import { CARRIER_FILL_COLUMNS, PARAM_SOURCE_COLUMNS, SERVICE_COLUMNS, type ParamSource } from './shop-columns.js';

/** The layout of named columns (a header row, or the keys of JSON objects). */
export function headerLayout(
  names: readonly string[],
  format: InputFormat,
  display: string,
  opts: ReadOptions,
): InputLayout {
  const used = operationFields(opts.operation, opts.version) as readonly string[];
  const layout: InputLayout = {
    format,
    header: [...names],
    columns: [],
    hasHeader: true,
    width: format === 'json' ? undefined : names.length,
    ignored: [],
    otherVersion: new Map(),
    laterVersion: [],
  };
  const typos: string[] = [];
  /** Each field's column so far: where, and how telling its name is (nameRank). */
  const taken = new Map<ItemField, { at: number; written: string; rank: number }>();
  const reading = names.map((n) => readingName(n, opts.mapping));
  const platform = platformColumns(names);
  const standIns = standInColumns(reading, used, opts);
  names.forEach((written, at) => {
    const name = reading[at] as string;
    const named = fieldOfName(name, opts.mapping);
    const platformField = named === undefined ? platform.get(normaliseName(name)) : undefined;
    const field = named ?? platformField;
    if (field === undefined) {
      const near = normaliseName(name) === '' || isPassedOver(name, opts.mapping) ? undefined : misspelled(name, used);
      if (near !== undefined) typos.push(`${written} (${near}?)`);
      else if (normaliseName(name) !== '' && !isPassedOver(name, opts.mapping) && !standIns.read.has(at))
        layout.ignored.push(written);
      layout.columns.push(undefined);
      return;
    }
    const twice = () =>
      new UsageError(
        `${display}: two columns mean ${field} (${written} and another)`,
        'keep one of them, or map them with --column',
      );
    if (used.includes(field)) {
      const column = { at: layout.columns.length, written, rank: nameRank(name, field, opts.mapping) };
      layout.columns.push(field);
      const earlier = taken.get(field);
      if (earlier === undefined) {
        taken.set(field, column);
        return;
      }
      // Two shop names of one field (WooCommerce's Order ID beside its Order Number): the more telling is read,
      // the other ignored. Never for the request's identity, the number and carriers: a wrong pick would send
      // other requests than the shop meant.
      if (isRequestIdentity(field) || column.rank === earlier.rank) throw twice();
      const [kept, dropped] = column.rank < earlier.rank ? [column, earlier] : [earlier, column];
      layout.columns[dropped.at] = undefined;
      (layout.passedOver ??= []).push({ column: dropped.written, read: kept.written, field });
      taken.set(field, kept);
      return;
    }
    const since = versionIntroducing(field);
    // A shop's own name for a field this version cannot send (`Order ID` on v2) is left out, with a note naming
    // the version that sends it; the field's own name (as fields.ts spells it) means it, and a row's value there
    // is refused.
    const laterVersion = since !== undefined && takesInSomeVersion(opts.operation, field);
    const byShopName = platformField !== undefined || isAliasName(name, opts.mapping);
    const otherVersionTakes = laterVersion && !byShopName;
    if (otherVersionTakes) {
      if (taken.has(field)) throw twice();
      taken.set(field, { at: layout.columns.length, written, rank: -1 });
      layout.otherVersion.set(field, since as ApiVersion);
    } else if (laterVersion) {
      layout.laterVersion.push({ column: written, field, since: since as ApiVersion });
    } else {
      layout.ignored.push(written);
    }
    layout.columns.push(otherVersionTakes ? field : undefined);
  });
  Object.assign(layout, standIns.layout, orderColumnOf(reading, platform, opts));
  if (typos.length > 0) {
    throw new UsageError(
      `${display}: unknown column${typos.length === 1 ? '' : 's'} ${typos.join(', ')}`,
      `rename it to the field it means (fields: ${used.join(', ')}), or map it with --column NAME=FIELD; ` +
        `nothing was sent`,
    );
  }
  if (!layout.columns.includes('number')) throw noNumberColumn(display, names, opts);
  return layout;
}

/**
 * The registry's columns that stand in for the carrier or make its param (shop-columns.ts), where the operation
 * sends those fields and no --column mapping says otherwise; `read` holds their positions.
 */
function standInColumns(
  reading: readonly string[],
  used: readonly string[],
  opts: ReadOptions,
): { layout: Pick<InputLayout, 'carrierColumns' | 'paramSources'>; read: Set<number> } {
  const free = reading.map((n) => (opts.mapping?.has(normaliseName(n)) ? '' : n));
  const read = new Set<number>();
  const pick = (registry: readonly string[]): number | undefined => {
    const at = bestColumn(free, registry);
    if (at < 0) return undefined;
    read.add(at);
    return at;
  };
  const layout: Pick<InputLayout, 'carrierColumns' | 'paramSources'> = {};
  if (used.includes('carrier')) {
    const fill = pick(CARRIER_FILL_COLUMNS);
    const service = pick(SERVICE_COLUMNS);
    if (fill !== undefined || service !== undefined)
      layout.carrierColumns = { ...(fill !== undefined && { fill }), ...(service !== undefined && { service }) };
  }
  if (used.includes('param')) {
    const sources: Partial<Record<ParamSource, number>> = {};
    for (const source of Object.keys(PARAM_SOURCE_COLUMNS) as ParamSource[]) {
      const at = pick(PARAM_SOURCE_COLUMNS[source]);
      if (at !== undefined) sources[source] = at;
    }
    if (Object.keys(sources).length > 0) layout.paramSources = sources;
  }
  return { layout, read };
}

/** The column naming the order, by whatever name (sent in this version or not): the most telling of them. */
function orderColumnOf(
  reading: readonly string[],
  platform: ReadonlyMap<string, ItemField>,
  opts: ReadOptions,
): Pick<InputLayout, 'orderColumn'> {
  let best: { at: number; rank: number } | undefined;
  reading.forEach((name, at) => {
    const field = fieldOfName(name, opts.mapping) ?? platform.get(normaliseName(name));
    if (field !== 'order_no') return;
    const rank = nameRank(name, field, opts.mapping);
    if (best === undefined || rank < best.rank) best = { at, rank };
  });
  return best === undefined ? {} : { orderColumn: (best as { at: number }).at };
}

/** Fields that make a request what it is: two columns of one of them are the shop's to settle. */
function isRequestIdentity(field: ItemField): boolean {
  return field === 'number' || CARRIER_FIELDS.includes(field);
}

function takesInSomeVersion(op: ItemOperation, field: ItemField): boolean {
  return (['v1', 'v2', 'v2.1'] as const).some((v) => (operationFields(op, v) as readonly string[]).includes(field));
}

/**
 * No column of tracking numbers: the error names the columns seen and the `--column` that would read the
 * likeliest one as the number (a header), or asks for a header (a first line of data).
 */
export function noNumberColumn(display: string, cells: readonly string[], opts: ReadOptions): UsageError {
  const named = cells.filter((c) => normaliseName(c) !== '');
  const data = cells.some((c) => /^[A-Za-z0-9-]{5,50}$/.test(c) && /\d{4}/.test(c));
  if (data || named.length === 0) {
    return new UsageError(
      `${display}: the first line holds no column names (${listSome(named.map((c) => JSON.stringify(c)))})`,
      'add a header line naming the columns (number, carrier, tag, ...), or give one number a line; nothing was sent',
    );
  }
  const unread = named.filter((c) => fieldOfName(c, opts.mapping) === undefined);
  const seen = `${display}: no column of tracking numbers among ${listSome(
    named.map((c) => JSON.stringify(c)),
    8,
  )}`;
  if (unread.length === 0) return new UsageError(seen, 'add a column "number" of tracking numbers; nothing was sent');
  const likely =
    LIKELY_NUMBER.map((re) => unread.find((c) => re.test(normaliseName(c)))).find((c) => c !== undefined) ?? unread[0]!;
  const carrier = named.some((c) => fieldOfName(c, opts.mapping) === 'carrier')
    ? ''
    : " (and --column 'NAME=carrier' for a column of carriers)";
  return new UsageError(
    seen,
    `say which one holds them: --column ${shellQuote(`${likely}=number`)}${carrier}; nothing was sent`,
  );
}

/** Names that suggest a column of tracking numbers, most telling first. */
const LIKELY_NUMBER = [
  /track|sendung|suivi|seguim|traccia|parcel|paket|colis|awb|barcode|waybill/,
  /number|nummer|numero|code|(^|_)(no|nr|id)(_|$)/,
] as const;

/** A value quoted for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `a, b, c and 12 more` for notes about ignored columns. */
export function listSome(names: readonly string[], max = 5): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
