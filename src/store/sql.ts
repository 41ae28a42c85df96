// The SQL of the mirror, written once for every database it runs on: `?` placeholders (a server store numbers
// them), upserts with `ON CONFLICT ... DO UPDATE ... WHERE` guards, row values for paging through keys, and
// nothing else a dialect has alone. What a database needs of its own (opening, locking, transactions) is behind
// `Sql`; the store's logic (sql-store.ts) is written against it.

import { latest } from './rows.js';
import { DETAILS_COLUMNS, RECORD_COLUMNS } from './schema.js';
import { CHOICE_COLUMNS, type RecordKey, type RecordQuery } from './types.js';
import { FILTER_FIELDS, SEARCHED_FIELDS } from '@trk/service/record-fields.js';

export type Param = string | number | null;
export type Row = Record<string, unknown>;

/** A row's value as text, else null (each database's driver gives its own types). */
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** A row's value as a number (a count, a carrier; a missing one is 0). */
export const int = (v: unknown): number => Number(v ?? 0);
export const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** How a query is run. */
export interface QueryOptions {
  /**
   * Planned for the values of each run: a query whose best plan depends on them (a text searched for), which a
   * server would otherwise run by one plan for every value after a few runs (PostgreSQL's generic plans).
   */
  planEachRun?: boolean;
}

/** A connection, as the store's logic uses it. */
export interface Sql {
  all(sql: string, params?: readonly Param[], opts?: QueryOptions): Promise<Row[]>;
  /** Writes only inside transaction(): on a shared connection, a write outside one could join another's. */
  run(sql: string, params?: readonly Param[]): Promise<{ changes: number }>;
  // In a transaction, statements run in the order they are called, whether or not the caller waited for the one
  // before: a server's are sent together (one round trip for many), and each sees what those before it did.
  /** The rows of a query a batch at a time, without holding them all. */
  batches(sql: string, params: readonly Param[], size: number): AsyncIterable<Row[]>;
  /**
   * `fn` in one write transaction, committed when it resolves and rolled back when it throws. The transaction
   * takes the write lock at its start, so that two writers queue instead of failing half-way.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * In a transaction, once its last statement is called: its commit is sent behind them (a server's in the same
   * round trip, rather than in one of its own once `fn` resolves). A statement that fails still makes it a
   * rollback; what `fn` does after it is read the answers.
   */
  sendCommit(): void;
  /**
   * In a transaction, before it reads or writes these records: waits for the other writers of any of them, and
   * holds them until the transaction ends, so that what it read of them stays true until it commits (the change
   * a write records is decided on what the mirror held). SQLite's write lock holds the whole file already; a
   * server, whose transactions run side by side, locks each record.
   */
  lockRecords(keys: readonly RecordKey[]): Promise<void>;
  /**
   * In a transaction, before it records changes (and after lockRecords): changes become visible in the order of
   * their ids, so that a cursor that passed one never misses an earlier one committed later.
   */
  lockChanges(): Promise<void>;
}

/** The last statements of a transaction, called already: its commit sent behind them (see Sql), their answers. */
export function lastOf<T>(tx: Sql, statements: Promise<T>): Promise<T> {
  tx.sendCommit();
  return statements;
}

/**
 * `newer` compares a row offered (`excluded`) with the row held (the table's name); `rows` of distinct keys, each
 * with the values of `columns`, then those of `insertOnly` (written to a new row, never over a held one).
 */
function upsert(
  table: string,
  columns: readonly string[],
  newer: (offered: string, held: string) => string,
  rows = 1,
  insertOnly: readonly string[] = [],
): string {
  const all = ['number', 'carrier', ...columns, ...insertOnly];
  const set = columns.map((c) => `${c} = excluded.${c}`).join(', ');
  const row = `(${all.map(() => '?').join(', ')})`;
  return (
    `INSERT INTO ${table} (${all.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')} ` +
    // Never older over newer: the service's own time of what is stored decides (equal: the later answer wins,
    // which brings what changed without a new time, such as a tag).
    `ON CONFLICT (number, carrier) DO UPDATE SET ${set} WHERE ${newer('excluded', table)}`
  );
}

/** Rows a statement writes at most: 64 records of 36 values, or details of a few kB each. */
const PIECE = 64;

/**
 * The rows in pieces of PIECE, the rest in pieces of powers of two (40: 32 and 8): one statement a piece, and a
 * few shapes of statement for a connection to keep prepared, whatever the count. A server runs each statement in
 * its own round of parsing, planning and executing: PostgreSQL wrote 100,000 records at 850 a second one statement
 * a row.
 */
export function pieces<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  let i = 0;
  for (; rows.length - i >= PIECE; i += PIECE) out.push(rows.slice(i, i + PIECE));
  for (let size = PIECE / 2; size >= 1; size /= 2) {
    if (rows.length - i >= size) {
      out.push(rows.slice(i, i + size));
      i += size;
    }
  }
  return out;
}

/** The statement of `rows` rows (an upsert of a piece), made once a count. */
function byRowCount(make: (rows: number) => string): (rows: number) => string {
  const made = new Map<number, string>();
  return (rows) => {
    let sql = made.get(rows);
    if (sql === undefined) made.set(rows, (sql = make(rows)));
    return sql;
  };
}

/** What decides whether details are newer than others: their tracking (trackedOf), then their providers' time. */
export interface DetailsTimes {
  as_of: string;
  record_track_time: string | null;
}

/**
 * The tracking of the record that details answer: the record's track time they were asked for with, or their
 * providers' latest sync when that is later (a notification's own time). It decides which details are newer, and
 * whether they are current for the record: the providers' time alone can go back in a later answer (the service
 * sends such answers) while the record's tracking moved on. trackedSql says the same in SQL.
 */
export function trackedOf(d: DetailsTimes): string {
  return latest([d.record_track_time, d.as_of]);
}

/** trackedOf of the details row `d` (a table's name or alias), in SQL. */
function trackedSql(d: string): string {
  return `CASE WHEN coalesce(${d}.record_track_time, '') > ${d}.as_of THEN ${d}.record_track_time ELSE ${d}.as_of END`;
}

/** Whether details `a` are older than `b`: of an earlier tracking, or of the same with an earlier providers' time. */
export function olderDetails(a: DetailsTimes, b: DetailsTimes): boolean {
  const [ta, tb] = [trackedOf(a), trackedOf(b)];
  return ta < tb || (ta === tb && a.as_of < b.as_of);
}

const recordsNewer = (offered: string, held: string) => `${offered}.as_of >= ${held}.as_of`;
export const UPSERT_RECORD = upsert('records', RECORD_COLUMNS, recordsNewer);
/**
 * UPSERT_RECORD of `rows` records at once (a piece), each with the full sync that saw it last: a new record is
 * written with it, one held is marked apart (SEEN_BY_FULL_SYNC), whether or not the upsert's guard lets it change.
 */
export const upsertRecords = byRowCount((rows) =>
  upsert('records', RECORD_COLUMNS, recordsNewer, rows, ['seen_full_sync']),
);
export const DETAILS_WITH_SOURCE = [...DETAILS_COLUMNS, 'source'] as const;
/** Guarded as olderDetails decides. */
const detailsNewer = (offered: string, held: string) =>
  `(${trackedSql(offered)}, ${offered}.as_of) >= (${trackedSql(held)}, ${held}.as_of)`;
export const UPSERT_DETAILS = upsert('details', DETAILS_WITH_SOURCE, detailsNewer);
/** UPSERT_DETAILS of `rows` records' details at once (a piece). */
export const upsertDetails = byRowCount((rows) => upsert('details', DETAILS_WITH_SOURCE, detailsNewer, rows));

/** The columns of a change as recorded (its id is the table's own). */
export const CHANGE_COLUMNS = [
  'number',
  'carrier',
  'from_status',
  'to_status',
  'from_sub_status',
  'to_sub_status',
  'event_time',
  'detected_at',
  'source',
] as const;
const valuesOf = (row: string, rows: number) => Array.from({ length: rows }, () => row).join(', ');
/** `rows` changes at once (a piece), each with the values of CHANGE_COLUMNS: their ids, with their records' keys. */
export const insertChanges = byRowCount(
  (rows) =>
    `INSERT INTO changes (${CHANGE_COLUMNS.join(', ')}) ` +
    `VALUES ${valuesOf(`(${CHANGE_COLUMNS.map(() => '?').join(', ')})`, rows)} RETURNING id, number, carrier`,
);
/**
 * Notifications' status, tag and latest event brought to `rows` records at once (a piece), each with its number,
 * carrier, package_status, tag, latest_event_time, latest_event_info and raw.
 */
export const updateFromNotifications = byRowCount(
  (rows) =>
    'UPDATE records SET package_status = v.column3, tag = v.column4, latest_event_time = v.column5, ' +
    'latest_event_info = v.column6, raw = v.column7 ' +
    `FROM (VALUES ${valuesOf('(?, CAST(? AS INTEGER), ?, ?, ?, ?, ?)', rows)}) AS v ` +
    'WHERE records.number = v.column1 AND records.carrier = v.column2',
);

export const KEY = 'number = ? AND carrier = ?';

/**
 * `(number, carrier) IN (...)` of these keys and its parameters (the carrier typed, as a server needs). The list is
 * padded to a power of two with its last key, so that the prepared statements a connection keeps are a few shapes
 * rather than one for every count: a listener's batches of 1 to 200 notifications kept some 600 statements of up to
 * 400 parameters each (webhook listen --store peaked at 100-128 MiB after 2,000 notifications).
 */
export function keysIn(keys: readonly RecordKey[]): { where: string; params: Param[] } {
  const count = keys.length <= 1 ? keys.length : 2 ** Math.ceil(Math.log2(keys.length));
  const params: Param[] = [];
  for (let i = 0; i < count; i++) {
    const k = keys[Math.min(i, keys.length - 1)]!;
    params.push(k.number, k.carrier);
  }
  const values = Array.from({ length: count }, () => '(?, CAST(? AS INTEGER))').join(', ');
  return { where: `(number, carrier) IN (VALUES ${values})`, params };
}

/** The next number of a full sync, taken in one statement: two hosts starting full syncs at once get two. */
export const NEXT_FULL_SYNC =
  "INSERT INTO sync_state (name, value) VALUES ('full_sync_count', '1') ON CONFLICT (name) DO UPDATE " +
  'SET value = CAST(CAST(sync_state.value AS INTEGER) + 1 AS TEXT) RETURNING value';

/**
 * Records whose details are missing, or answer an earlier tracking than the record's (trackedOf). Details fetched
 * for the record's track time answer it whatever they say, stored or found older than those held (which then answer
 * a tracking as late): a record is asked for again only once it moves.
 */
export const PENDING_DETAILS = `SELECT r.number, r.carrier, r.track_time FROM records r
LEFT JOIN details d ON d.number = r.number AND d.carrier = r.carrier
WHERE (r.number, r.carrier) > (?, ?) AND (d.number IS NULL OR ${trackedSql('d')} < coalesce(r.track_time, ''))
ORDER BY r.number, r.carrier LIMIT ?`;

// A number's records by the index of the number: `+carrier` is no column SQLite may look up by an index, which,
// without statistics, it would otherwise do by the report's index (migration 3), whose first column is the carrier:
// every record of the carrier read for one number.
const OF_NUMBER = (byCarrier: boolean) => `lower(number) = ?${byCarrier ? ' AND +carrier = ?' : ''}`;

/** The details of a number (of every carrier, or of one: its parameters the number in lower case, the carrier). */
export const detailsOfNumber = (byCarrier: boolean) =>
  `SELECT raw, api_version FROM details WHERE ${OF_NUMBER(byCarrier)} ORDER BY carrier`;

/** The records of a number without details, as detailsOfNumber. */
export const recordsWithoutDetails = (byCarrier: boolean) =>
  `SELECT number, carrier FROM records r WHERE ${OF_NUMBER(byCarrier)} AND NOT EXISTS ` +
  '(SELECT 1 FROM details d WHERE d.number = r.number AND d.carrier = r.carrier) ORDER BY carrier';

export const UNSEEN = `SELECT number, carrier FROM records
WHERE (number, carrier) > (?, ?) AND (seen_full_sync IS NULL OR seen_full_sync <> ?)
ORDER BY number, carrier LIMIT ?`;

const ORDER_COLUMN: Readonly<Record<string, string>> = {
  RegisterTime: 'register_time',
  PushTime: 'push_time',
  TrackTime: 'track_time',
};

/** `ORDER BY` of a list order (RegisterTimeAsc...): as the service sorts, records without the time first. */
export function orderClause(orderBy: string | undefined): string {
  const m = /^(RegisterTime|PushTime|TrackTime)(Asc|Desc)$/.exec(orderBy ?? 'RegisterTimeAsc');
  const column = `r.${ORDER_COLUMN[m?.[1] ?? 'RegisterTime']!}`;
  const desc = m?.[2] === 'Desc';
  // Ties in the order the mirror first saw the records: the service's registration order. Written so that the
  // time's index gives the order (a whole mirror is never sorted).
  return desc ? `ORDER BY ${column} DESC NULLS LAST, r.id DESC` : `ORDER BY ${column} NULLS FIRST, r.id`;
}

/** `LIKE` pattern of a tag pattern (`*` any text), with `\` escaping LIKE's own wildcards. */
function likePattern(pattern: string): string {
  return pattern
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replaceAll('*', '%');
}

/** The first text after every text that starts with `prefix` (for an index range), in code point order. */
function afterPrefix(prefix: string): string {
  return `${prefix}\u{10ffff}`;
}

class Where {
  readonly parts: string[] = [];
  readonly params: Param[] = [];

  add(sql: string, ...params: Param[]): void {
    this.parts.push(sql);
    this.params.push(...params);
  }

  anyOf(column: string, values: readonly Param[] | undefined): void {
    if (!values?.length) return;
    this.add(`${column} IN (${values.map(() => '?').join(', ')})`, ...values);
  }

  text(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

function numbersFilter(w: Where, numbers: readonly string[] | undefined): void {
  if (!numbers?.length) return;
  if (numbers.length === 1) {
    // One number matches a part of it, in any case, as the service's filter does.
    w.add(`lower(r.number) LIKE ? ESCAPE '\\'`, `%${likePattern(numbers[0]!)}%`);
    return;
  }
  w.add(`lower(r.number) IN (${numbers.map(() => '?').join(', ')})`, ...numbers.map((n) => n.toLowerCase()));
}

function tagsFilter(w: Where, tags: readonly string[] | undefined): void {
  if (!tags?.length) return;
  const any = tags.map((t) => {
    const lower = t.toLowerCase();
    if (!lower.includes('*')) return { sql: 'lower(r.tag) = ?', params: [lower] };
    const prefix = lower.slice(0, lower.indexOf('*'));
    // A known start is an index range; the pattern itself decides the rest.
    const range = prefix === '' ? '' : 'lower(r.tag) >= ? AND lower(r.tag) < ? AND ';
    return {
      sql: `(${range}lower(r.tag) LIKE ? ESCAPE '\\')`,
      params: [...(prefix === '' ? [] : [prefix, afterPrefix(prefix)]), likePattern(t)],
    };
  });
  w.add(`(${any.map((a) => a.sql).join(' OR ')})`, ...any.flatMap((a) => a.params));
}

/** Search: the text, or the start of it, in the number or a customer reference (indexed: each an index range). */
function searchFilter(w: Where, text: string | undefined): void {
  if (text === undefined) return;
  const t = text.trim().toLowerCase();
  const columns = ['number', ...SEARCHED_FIELDS];
  const ranges = columns.map((c) => `SELECT id FROM records WHERE lower(${c}) >= ? AND lower(${c}) < ?`);
  w.add(`r.id IN (${ranges.join(' UNION ')})`, ...columns.flatMap(() => [t, afterPrefix(t)]));
}

/** The offline list's query: the records matching `q`, in its order, with their raw item. */
export function recordsQuery(q: RecordQuery): { sql: string; params: Param[] } {
  const w = new Where();
  for (const column of CHOICE_COLUMNS) w.anyOf(`r.${column}`, q.anyOf?.[column]);
  for (const range of q.ranges ?? []) {
    if (range.from !== undefined) w.add(`r.${range.column} >= ?`, range.from);
    if (range.to !== undefined) w.add(`r.${range.column} <= ?`, range.to);
  }
  numbersFilter(w, q.numbers);
  tagsFilter(w, q.tags);
  for (const { flag, field } of FILTER_FIELDS) {
    const value = q[flag];
    if (value !== undefined) w.add(`lower(r.${field}) = ?`, value.trim().toLowerCase());
  }
  searchFilter(w, q.search);
  const join =
    q.subStatus?.length || q.staleBefore !== undefined
      ? 'LEFT JOIN details d ON d.number = r.number AND d.carrier = r.carrier'
      : '';
  w.anyOf('d.sub_status', q.subStatus);
  if (q.staleBefore !== undefined) {
    w.add(
      "r.tracking_status = 'Tracking' AND coalesce(r.package_status, '') <> 'Delivered' " +
        'AND coalesce(r.latest_event_time, d.latest_event_time, r.register_time) < ?',
      q.staleBefore,
    );
  }
  const page = q.limit === undefined ? '' : ` LIMIT ${Math.trunc(q.limit)} OFFSET ${Math.trunc(q.offset ?? 0)}`;
  return {
    sql: `SELECT r.raw, r.api_version FROM records r ${join} ${w.text()} ${orderClause(q.orderBy)}${page}`,
    params: w.params,
  };
}
