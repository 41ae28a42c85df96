// The SQL of `trk report`, written once for every database the mirror runs on (as sql.ts): plain aggregates
// (sum of CASE, count, GROUP BY the selected expressions), `substr` for the day of a canonical time, `?`
// placeholders; the one expression a dialect says its own way is behind ReportDialect. The figures themselves
// (percentiles, rates, weeks and months) are computed from these rows in TypeScript (src/report/figures.ts).
//
// A report reads a whole mirror (a million records in well under a second of the database's time), so:
//   - each query reads one table through an index that holds every column it needs (migration 3), and groups its
//     rows in the index's order first (carrier, day of registration, lane, then status and transit days for the
//     records), so that no grouping sorts the records: the few groups so made are then grouped as the report asks;
//   - a record's status is a group of its own rather than a test of every record per count (a test of each of a
//     million records costs the database more than reading them), and the transit days are a group too: the
//     counts and the transit-day histograms of every group come from one pass over the records;
//   - few rows go back to trk (each row costs it microseconds): the groups the report asks for, not the records;
//   - the details of a record are looked up only where the record lacks what they tell (joining a million records
//     to their details costs several times more than reading either): whether a stuck exception was returned to
//     its sender, through a partial index of the returned ones; the transit days of a record listed as delivered
//     without them (v2 lists, or a notification's status), through a partial index of those records; the
//     estimated delivery window is only in the details: on-time figures are counted over the details alone,
//     grouped and filtered by their own carrier, countries and registration time (the record's, copied).

import type { Param } from './sql.js';
import type { ReportKey, ReportParcelKind, ReportQuery } from './types.js';
import { SHOWN_REFERENCE_FIELDS } from '@trk/service/record-fields.js';

/** The one thing the report's SQL says differently per database: a canonical time a day later, as canonical text. */
export interface ReportDialect {
  dayLater(expr: string): string;
}

export const SQLITE_REPORT: ReportDialect = { dayLater: (expr) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${expr}, '+1 day')` };
export const POSTGRES_REPORT: ReportDialect = {
  dayLater: (expr) =>
    `to_char(((${expr})::timestamptz + interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};

/** A query's text and its parameters. */
type Query = { sql: string; params: Param[] };

const DELIVERED_WITH_WINDOW = "d.package_status = 'Delivered' AND d.eta_to IS NOT NULL AND d.delivery_time IS NOT NULL";
/** Records listed as delivered whose transit days only their details tell (v2 lists have neither field). */
const TRANSIT_IN_DETAILS =
  "r.package_status = 'Delivered' AND (r.delivery_time IS NULL OR r.days_of_transit_done IS NULL)";

/** The indexes the report reads through (names first: migration 3 makes them anew). */
export const REPORT_INDEX_NAMES = ['records_report', 'details_report', 'records_news', 'details_returned'];
export const REPORT_INDEXES = [
  // Records in the order of their groups (carrier, day, lane, status, transit days), with what stuck counts read.
  'CREATE INDEX records_report ON records (carrier, (substr(register_time, 1, 10)), origin_country, ' +
    'destination_country, package_status, days_of_transit_done, register_time, tracking_status, ' +
    'days_after_last_update, latest_event_time, delivery_time, number)',
  // Delivered parcels with a window alone, in the order of the groups (the status too, which makes it covering).
  'CREATE INDEX details_report ON details (carrier, (substr(register_time, 1, 10)), origin_country, ' +
    'destination_country, register_time, eta_to, delivery_time, package_status) ' +
    `WHERE ${DELIVERED_WITH_WINDOW.replaceAll('d.', '')}`,
  // The last news of a record, in order: the stuck parcels are the first ones in it. (An expression in parentheses:
  // PostgreSQL takes no other.)
  'CREATE INDEX records_news ON records ((coalesce(latest_event_time, register_time)))',
  // Parcels returned to their sender, which await no news: not stuck.
  "CREATE INDEX details_returned ON details (number, carrier) WHERE sub_status = 'Exception_Returned'",
];

const STATUS = "coalesce(r.package_status, '')";
const IN_TRANSIT = ['InfoReceived', 'InTransit', 'AvailableForPickup', 'OutForDelivery'];
const SAME_RECORD = 'd.number = r.number AND d.carrier = r.carrier';

/**
 * Stuck (two parameters: the days, and the time before which the latest event is too old): still tracked, neither
 * delivered nor expired, and no news for the days, by the service's count as last read or by the latest event's
 * age (the mirror's copy of the count does not age between syncs). A parcel returned to its sender awaits no news
 * (the service counts no days for it): the details' sub-status, through the index of the returned ones.
 */
const STUCK =
  `r.tracking_status = 'Tracking' AND ${STATUS} NOT IN ('Delivered', 'Expired') ` +
  'AND (coalesce(r.days_after_last_update, 0) >= ? OR r.latest_event_time < ?) ' +
  // (Returned is an Exception's sub-status: the few returned parcels are read once, not looked up per record.)
  `AND (${STATUS} <> 'Exception' OR (r.number, r.carrier) NOT IN ` +
  "(SELECT number, carrier FROM details WHERE sub_status = 'Exception_Returned'))";

/** `sum` of `value` over the rows where `condition` holds. */
const sumIf = (condition: string, value: string, name: string) =>
  `sum(CASE WHEN ${condition} THEN ${value} ELSE 0 END) AS ${name}`;

/** The columns of the keys, named as the report's rows name them, in the order of the indexes. */
const KEY_COLUMNS: readonly { key: ReportKey; name: string; of: (t: string) => string }[] = [
  { key: 'carrier', name: 'carrier', of: (t) => `${t}.carrier` },
  { key: 'day', name: 'day', of: (t) => `substr(${t}.register_time, 1, 10)` },
  { key: 'lane', name: 'origin', of: (t) => `${t}.origin_country` },
  { key: 'lane', name: 'destination', of: (t) => `${t}.destination_country` },
];

/**
 * The columns of `keys` (every key's for 'all'; the others NULL) and their GROUP BY: of table `t`, or without
 * it, of the groups a query made first (by the names of the columns).
 */
function keyColumns(keys: readonly ReportKey[] | 'all', t?: 'r' | 'd'): { select: string; groupBy: string[] } {
  const asked = KEY_COLUMNS.filter((c) => keys === 'all' || keys.includes(c.key));
  const column = (c: (typeof KEY_COLUMNS)[number]) => (t === undefined ? c.name : c.of(t));
  const selected = (c: (typeof KEY_COLUMNS)[number]) => (t === undefined ? c.name : `${c.of(t)} AS ${c.name}`);
  return {
    select: KEY_COLUMNS.map((c) => (asked.includes(c) ? selected(c) : `NULL AS ${c.name}`)).join(', '),
    groupBy: asked.map(column),
  };
}

const groupBy = (expressions: readonly string[]) =>
  expressions.length === 0 ? '' : ` GROUP BY ${expressions.join(', ')}`;

/** The query's filters on table `t`, after `first` conditions; their parameters in the order of the text. */
function filters(q: ReportQuery, t: 'r' | 'd', first: readonly string[] = []): { where: string; params: Param[] } {
  const parts = [...first];
  const params: Param[] = [];
  const anyOf = (column: string, values: readonly Param[] | undefined) => {
    if (values === undefined) return;
    // An empty set matches nothing (a filter that names no value), rather than everything.
    parts.push(values.length === 0 ? '1 = 0' : `${t}.${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  if (q.since !== undefined) {
    parts.push(`${t}.register_time >= ?`);
    params.push(q.since);
  }
  anyOf('carrier', q.carriers);
  anyOf('origin_country', q.origins);
  anyOf('destination_country', q.destinations);
  return { where: parts.length ? ` WHERE ${parts.join(' AND ')}` : '', params };
}

/**
 * The records' counts and transit days in one pass, by `keys` and by transit days (`days`: those of delivered
 * parcels, NULL for the others), so that a group may take several rows: the counts of REPORT_COUNTS (types.ts), and
 * `known`, the delivered parcels of the row whose records tell their transit days (the others' are in their details:
 * reportTransitInDetailsQuery).
 */
export function reportRecordsQuery(q: ReportQuery, keys: readonly ReportKey[]): Query {
  const all = keyColumns('all', 'r');
  const f = filters(q, 'r');
  // The groups in the index's order, with a record's status and transit days; its delivery time counted (the
  // transit days are the record's own only with it), and the stuck.
  const groups =
    `SELECT ${all.select}, r.package_status AS status, r.days_of_transit_done AS days, count(*) AS n, ` +
    `count(r.delivery_time) AS timed, ${sumIf(STUCK, '1', 'stuck')} FROM records r${f.where}` +
    `${groupBy([...all.groupBy, 'r.package_status', 'r.days_of_transit_done'])}`;
  const status = (s: string) => `status = '${s}'`;
  const counts = [
    'sum(n) AS registered',
    sumIf(status('Delivered'), 'n', 'delivered'),
    sumIf(status('Exception'), 'n', 'exceptions'),
    sumIf(status('DeliveryFailure'), 'n', 'delivery_failures'),
    sumIf(`status IN (${IN_TRANSIT.map((s) => `'${s}'`).join(', ')})`, 'n', 'in_transit'),
    sumIf(status('NotFound'), 'n', 'not_found'),
    sumIf(status('Expired'), 'n', 'expired'),
    'sum(stuck) AS stuck',
    sumIf(`${status('Delivered')} AND days IS NOT NULL`, 'timed', 'known'),
  ];
  const k = keyColumns(keys);
  const transit = `CASE WHEN ${status('Delivered')} THEN days END`;
  return {
    sql:
      `SELECT ${k.select}, ${transit} AS days, ${counts.join(', ')} FROM (${groups}) g` +
      groupBy([...k.groupBy, transit]),
    params: [q.stuck.days, q.stuck.before, ...f.params],
  };
}

/** Parcels registered each day, by `keys` (for weekly volumes). */
export function reportRegisteredQuery(q: ReportQuery, keys: readonly ReportKey[]): Query {
  // Grouped in the index's order as far as the day and `keys` go, then by `keys` and the day.
  const order = KEY_COLUMNS.filter((c) => c.key === 'carrier' || c.key === 'day' || keys.includes(c.key));
  const f = filters(q, 'r');
  const groups =
    `SELECT ${order.map((c) => `${c.of('r')} AS ${c.name}`).join(', ')}, count(*) AS n FROM records r${f.where}` +
    `${groupBy(order.map((c) => c.of('r')))}`;
  const k = keyColumns([...keys, 'day']);
  return { sql: `SELECT ${k.select}, sum(n) AS registered FROM (${groups}) g${groupBy(k.groupBy)}`, params: f.params };
}

/**
 * The transit days of delivered parcels whose records do not tell them (listed in v2, or marked delivered by a
 * notification), from their details, by `keys`: `days` and `parcels`, as the 'transit' rows of reportRecordsQuery.
 */
export function reportTransitInDetailsQuery(q: ReportQuery, keys: readonly ReportKey[]): Query {
  const delivered = ["d.package_status = 'Delivered'", 'd.days_of_transit_done IS NOT NULL'];
  const f = filters(q, 'r', [TRANSIT_IN_DETAILS, ...delivered]);
  const k = keyColumns(keys, 'r');
  return {
    sql:
      `SELECT ${k.select}, d.days_of_transit_done AS days, count(*) AS parcels ` +
      `FROM records r JOIN details d ON ${SAME_RECORD}${f.where}${groupBy([...k.groupBy, 'd.days_of_transit_done'])}`,
    params: f.params,
  };
}

/**
 * Delivered parcels with an estimated delivery window, and those delivered before the end of its last day, by
 * `keys`. The service gives the window as days (`from` and `to` at midnight in the
 * carrier's zone, as its documentation's example does): `to` names the last day, which ends a day later.
 */
export function reportWindowsQuery(q: ReportQuery, keys: readonly ReportKey[], dialect: ReportDialect): Query {
  const all = keyColumns('all', 'd');
  const f = filters(q, 'd', [DELIVERED_WITH_WINDOW]);
  // Most deliveries come before the window's last day begins, or on the UTC day it begins (before the next UTC
  // day, which begins within a day of it): the day later is worked out for the others only.
  const onTime =
    'd.delivery_time < d.eta_to OR substr(d.delivery_time, 1, 10) <= substr(d.eta_to, 1, 10) ' +
    `OR d.delivery_time < ${dialect.dayLater('d.eta_to')}`;
  const groups =
    `SELECT ${all.select}, count(*) AS with_window, ${sumIf(onTime, '1', 'on_time')} FROM details d${f.where}` +
    `${groupBy(all.groupBy)}`;
  const k = keyColumns(keys);
  return {
    sql:
      `SELECT ${k.select}, sum(with_window) AS with_window, sum(on_time) AS on_time ` +
      `FROM (${groups}) w${groupBy(k.groupBy)}`,
    params: f.params,
  };
}

/**
 * Stuck parcels, the longest without news first; or parcels in trouble (Exception, DeliveryFailure), the latest first.
 */
export function reportParcelsQuery(
  q: ReportQuery,
  kind: ReportParcelKind,
  limit: number | undefined,
): { sql: string; params: Param[] } {
  const f = filters(q, 'r', [kind === 'stuck' ? STUCK : "r.package_status IN ('Exception', 'DeliveryFailure')"]);
  const columns = [
    'r.number AS number',
    'r.carrier AS carrier',
    'r.origin_country AS origin',
    'r.destination_country AS destination',
    'r.package_status AS package_status',
    `(SELECT d.sub_status FROM details d WHERE ${SAME_RECORD}) AS sub_status`,
    'r.register_time AS register_time',
    `coalesce(r.latest_event_time, (SELECT d.latest_event_time FROM details d WHERE ${SAME_RECORD})) AS ` +
      `latest_event_time`,
    `coalesce(r.latest_event_info, (SELECT d.latest_event FROM details d WHERE ${SAME_RECORD})) AS latest_event`,
    'r.days_after_last_update AS days_after_last_update',
    ...SHOWN_REFERENCE_FIELDS.map((field) => `r.${field} AS ${field}`),
  ];
  // Without an event, the registration is the last news there is (the expression of the index records_news).
  const news = 'coalesce(r.latest_event_time, r.register_time)';
  // Ties in the order the mirror first saw the records; so ordered, the index gives the order and the first rows
  // end the scan.
  const order = kind === 'stuck' ? `ORDER BY ${news}, r.id` : `ORDER BY ${news} DESC, r.id DESC`;
  const page = limit === undefined ? '' : ` LIMIT ${Math.trunc(limit)}`;
  return {
    sql: `SELECT ${columns.join(', ')} FROM records r${f.where} ${order}${page}`,
    params: kind === 'stuck' ? [q.stuck.days, q.stuck.before, ...f.params] : f.params,
  };
}
