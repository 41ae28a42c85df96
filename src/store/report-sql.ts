// The SQL of `trk report`, written once for every database the mirror runs on (as sql.ts): plain aggregates
// (sum of CASE, count, GROUP BY the selected expressions), `substr` for the day of a canonical time, `?`
// placeholders; the one expression a dialect says its own way is behind ReportDialect. The figures themselves
// (percentiles, rates, weeks and months) are computed from these rows in TypeScript (src/report/figures.ts).
//
// A report reads a whole mirror (a million records in well under two seconds), so each query reads one table
// through an index that holds every column it needs (migration 2), and the details of a record are looked up
// only where the record lacks what they tell: joining a million records to their details costs several times
// more than reading either. So:
//   - counts and stuck parcels come from the records: their status is their own (a sync's list answer, or a
//     notification brought to them), as are the days since the last update and the latest event (v2.1);
//   - transit days come from a record listed as delivered (v2.1), else from its details when those say delivered;
//   - the estimated delivery window is only in the details: on-time figures are counted over the details alone,
//     grouped and filtered by their own carrier, countries and registration time (the record's, copied).

import type { Param } from './sql.js';
import type { ReportKey, ReportParcelKind, ReportQuery } from './types.js';

/** The one thing the report's SQL says differently per database: a canonical time a day later, as canonical text. */
export interface ReportDialect {
  dayLater(expr: string): string;
}

export const SQLITE_REPORT: ReportDialect = { dayLater: (expr) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${expr}, '+1 day')` };
export const POSTGRES_REPORT: ReportDialect = {
  dayLater: (expr) => `to_char(((${expr})::timestamptz + interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};

/** Indexes that hold every column a report reads of each table, so that it never reads the items themselves. */
export const REPORT_INDEXES = [
  // In the order of the groups (carrier, day, lane), as the details' index: counts by all three read the groups one
  // after the other, with no sort of the records (any other grouping is folded from them).
  'CREATE INDEX records_report ON records (carrier, (substr(register_time, 1, 10)), origin_country, destination_country, register_time, ' +
    'package_status, tracking_status, days_after_last_update, latest_event_time, days_of_transit_done, delivery_time, number)',
  'CREATE INDEX details_report ON details (carrier, (substr(register_time, 1, 10)), origin_country, destination_country, register_time, ' +
    'package_status, eta_to, delivery_time)',
  // The last news of a record, in order: the stuck parcels are the first ones in it. (An expression in parentheses:
  // PostgreSQL takes no other.)
  'CREATE INDEX records_news ON records ((coalesce(latest_event_time, register_time)))',
];

const STATUS = "coalesce(r.package_status, '')";
const DELIVERED = `${STATUS} = 'Delivered'`;
const IN_TRANSIT = ['InfoReceived', 'InTransit', 'AvailableForPickup', 'OutForDelivery'];
const SAME_RECORD = 'd.number = r.number AND d.carrier = r.carrier';

/**
 * Stuck (two parameters: the days, and the time before which the latest event is too old): still tracked, neither
 * delivered nor expired, and no news for the days, by the service's count as last read or by the latest event's
 * age (the mirror's copy of the count does not age between syncs). A parcel returned to its sender awaits no news
 * (the service counts no days for it): the details' sub-status, looked up for the few parcels that are stuck.
 */
const STUCK =
  `r.tracking_status = 'Tracking' AND ${STATUS} NOT IN ('Delivered', 'Expired') ` +
  'AND (coalesce(r.days_after_last_update, 0) >= ? OR r.latest_event_time < ?) ' +
  // Returned is an Exception's sub-status: only those parcels' details are looked up.
  `AND (${STATUS} <> 'Exception' OR NOT EXISTS (SELECT 1 FROM details d WHERE ${SAME_RECORD} AND d.sub_status = 'Exception_Returned'))`;

/**
 * A delivered record's transit days: its own when it was listed as delivered (v2.1 lists give the delivery time
 * with them), else its details' when they say delivered (a record a notification marked delivered, or listed in a
 * version without the field).
 */
const TRANSIT_DAYS =
  'CASE WHEN r.delivery_time IS NOT NULL AND r.days_of_transit_done IS NOT NULL THEN r.days_of_transit_done ' +
  `ELSE (SELECT d.days_of_transit_done FROM details d WHERE ${SAME_RECORD} AND d.package_status = 'Delivered') END`;

const count = (condition: string, name: string) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END) AS ${name}`;

/** The columns of each key, in the table `t` (records r or details d). */
function keyColumns(keys: readonly ReportKey[], t: 'r' | 'd'): { select: string; groupBy: string[] } {
  const columns: Record<ReportKey, readonly string[]> = {
    carrier: [`${t}.carrier AS carrier`],
    lane: [`${t}.origin_country AS origin`, `${t}.destination_country AS destination`],
    day: [`substr(${t}.register_time, 1, 10) AS day`],
  };
  // In the order of the index records_report, whatever the order of `keys`.
  const selected = (['carrier', 'day', 'lane'] as const).filter((k) => keys.includes(k)).flatMap((k) => columns[k]);
  // The expressions themselves (not their names): PostgreSQL and SQLite both group by them.
  return { select: selected.map((c) => `${c}, `).join(''), groupBy: selected.map((c) => c.replace(/ AS \w+$/, '')) };
}

const groupBy = (expressions: readonly string[]) => (expressions.length === 0 ? '' : ` GROUP BY ${expressions.join(', ')}`);

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

/** The counts of every group of `keys` (without the on-time figures: reportWindowsQuery). */
export function reportCountsQuery(q: ReportQuery, keys: readonly ReportKey[]): { sql: string; params: Param[] } {
  const k = keyColumns(keys, 'r');
  const f = filters(q, 'r');
  const select = [
    'count(*) AS registered',
    count(DELIVERED, 'delivered'),
    count(`${STATUS} = 'Exception'`, 'exceptions'),
    count(`${STATUS} = 'DeliveryFailure'`, 'delivery_failures'),
    count(`${STATUS} IN (${IN_TRANSIT.map((s) => `'${s}'`).join(', ')})`, 'in_transit'),
    count(`${STATUS} = 'NotFound'`, 'not_found'),
    count(`${STATUS} = 'Expired'`, 'expired'),
    count(STUCK, 'stuck'),
  ];
  return {
    sql: `SELECT ${k.select}${select.join(', ')} FROM records r${f.where}${groupBy(k.groupBy)}`,
    params: [q.stuck.days, q.stuck.before, ...f.params],
  };
}

/**
 * Delivered parcels with an estimated delivery window, and those delivered before the end of its last day, by
 * `keys`. The service gives the window as days (`from` and `to` at midnight in the
 * carrier's zone, as its documentation's example does): `to` names the last day, which ends a day later.
 */
export function reportWindowsQuery(q: ReportQuery, keys: readonly ReportKey[], dialect: ReportDialect): { sql: string; params: Param[] } {
  const k = keyColumns(keys, 'd');
  const f = filters(q, 'd', ["d.package_status = 'Delivered'", 'd.eta_to IS NOT NULL', 'd.delivery_time IS NOT NULL']);
  // (Most deliveries come before the window's last day begins: the day later is worked out for the others only.)
  return {
    sql: `SELECT ${k.select}count(*) AS with_window, ${count(`(d.delivery_time < d.eta_to OR d.delivery_time < ${dialect.dayLater('d.eta_to')})`, 'on_time')} FROM details d${f.where}${groupBy(k.groupBy)}`,
    params: f.params,
  };
}

/** How many delivered parcels of each group of `keys` took each number of transit days. */
export function reportTransitQuery(q: ReportQuery, keys: readonly ReportKey[]): { sql: string; params: Param[] } {
  const k = keyColumns(keys, 'r');
  const f = filters(q, 'r', [DELIVERED]);
  const transit = `(${TRANSIT_DAYS})`;
  return {
    sql: `SELECT ${k.select}${transit} AS days, count(*) AS count FROM records r${f.where}${groupBy([...k.groupBy, transit])}`,
    params: f.params,
  };
}

/** Stuck parcels, the longest without news first; or parcels in trouble (Exception, DeliveryFailure), the latest first. */
export function reportParcelsQuery(q: ReportQuery, kind: ReportParcelKind, limit: number | undefined): { sql: string; params: Param[] } {
  const f = filters(q, 'r', [kind === 'stuck' ? STUCK : "r.package_status IN ('Exception', 'DeliveryFailure')"]);
  const columns = [
    'r.number AS number',
    'r.carrier AS carrier',
    'r.origin_country AS origin',
    'r.destination_country AS destination',
    'r.package_status AS package_status',
    `(SELECT d.sub_status FROM details d WHERE ${SAME_RECORD}) AS sub_status`,
    'r.register_time AS register_time',
    `coalesce(r.latest_event_time, (SELECT d.latest_event_time FROM details d WHERE ${SAME_RECORD})) AS latest_event_time`,
    `coalesce(r.latest_event_info, (SELECT d.latest_event FROM details d WHERE ${SAME_RECORD})) AS latest_event`,
    'r.days_after_last_update AS days_after_last_update',
    'r.order_no AS order_no',
    'r.tag AS tag',
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
