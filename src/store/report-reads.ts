// What the store counts for `trk report`: the report's queries (report-sql.ts) run, and their rows read as the
// Store interface gives them (types.ts). Only groups come back, never records.

import {
  reportParcelsQuery,
  reportRecordsQuery,
  reportRegisteredQuery,
  reportTransitInDetailsQuery,
  reportWindowsQuery,
  type ReportDialect,
} from './report-sql.js';
import { int, intOrNull, str, type Row, type Sql } from './sql.js';
import { SHOWN_REFERENCE_FIELDS, type ParcelReferences } from '@trk/service/record-fields.js';
import { REPORT_COUNTS } from './types.js';
import type {
  ReportCounts,
  ReportKey,
  ReportParcel,
  ReportParcelKind,
  ReportQuery,
  ReportRecords,
  ReportRegistered,
  ReportWindows,
} from './types.js';

type CountsOnly = Pick<ReportCounts, (typeof REPORT_COUNTS)[number]>;

/** The records' counts and transit days per group. */
export async function reportRecords(sql: Sql, query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportRecords> {
  const { sql: text, params } = reportRecordsQuery(query, keys);
  const out: ReportRecords = { counts: [], transit: [] };
  let inDetails = 0;
  for (const r of await sql.all(text, params)) {
    const group = groupOf(r);
    out.counts.push({ ...group, ...(Object.fromEntries(REPORT_COUNTS.map((c) => [c, int(r[c])])) as CountsOnly) });
    const known = int(r.known);
    if (known > 0) out.transit.push({ ...group, days: int(r.days), count: known });
    inDetails += int(r.delivered) - known;
  }
  // Delivered parcels whose records do not tell their transit days (none where lists are v2.1 and synced).
  if (inDetails > 0) {
    const other = reportTransitInDetailsQuery(query, keys);
    const rows = await sql.all(other.sql, other.params);
    out.transit.push(...rows.map((r) => ({ ...groupOf(r), days: int(r.days), count: int(r.parcels) })));
  }
  return out;
}

/** Parcels registered per group and day. */
export async function reportRegistered(
  sql: Sql,
  query: ReportQuery,
  keys: readonly ReportKey[],
): Promise<ReportRegistered[]> {
  const { sql: text, params } = reportRegisteredQuery(query, keys);
  return (await sql.all(text, params)).map((r) => ({ ...groupOf(r), registered: int(r.registered) }));
}

/** Delivered parcels with an estimated window per group, and those delivered by its end. */
export async function reportWindows(
  sql: Sql,
  query: ReportQuery,
  keys: readonly ReportKey[],
  dialect: ReportDialect,
): Promise<ReportWindows[]> {
  const { sql: text, params } = reportWindowsQuery(query, keys, dialect);
  return (await sql.all(text, params)).map((r) => ({
    ...groupOf(r),
    with_window: int(r.with_window),
    on_time: int(r.on_time),
  }));
}

/** The parcels a report lists (stuck, or in trouble), each with its customer references. */
export async function reportParcels(
  sql: Sql,
  query: ReportQuery,
  kind: ReportParcelKind,
  limit?: number,
): Promise<ReportParcel[]> {
  const { sql: text, params } = reportParcelsQuery(query, kind, limit);
  return (await sql.all(text, params)).map((r) => ({
    number: String(r.number),
    carrier: int(r.carrier),
    origin: str(r.origin),
    destination: str(r.destination),
    package_status: str(r.package_status),
    sub_status: str(r.sub_status),
    register_time: str(r.register_time),
    latest_event_time: str(r.latest_event_time),
    latest_event: str(r.latest_event),
    days_after_last_update: intOrNull(r.days_after_last_update),
    ...references(r),
  }));
}

/** The keys of a report's row (null for those not asked for). */
function groupOf(r: Row): {
  carrier: number | null;
  origin: string | null;
  destination: string | null;
  day: string | null;
} {
  return { carrier: intOrNull(r.carrier), origin: str(r.origin), destination: str(r.destination), day: str(r.day) };
}

/** A listed parcel's customer references, as the report's query names them. */
function references(r: Row): ParcelReferences {
  return Object.fromEntries(SHOWN_REFERENCE_FIELDS.map((field) => [field, str(r[field])])) as ParcelReferences;
}
