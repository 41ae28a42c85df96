// The store's logic over any SQL connection (sql.ts): SQLite's file (sqlite.ts) and a PostgreSQL server
// (postgres.ts) share it. Every write is one transaction that first locks the records it touches (a server's
// transactions run side by side); every upsert is guarded by the service's own time of what it writes, so that two
// syncs and two listeners writing at once, on one host or several, lose nothing and never put older data over newer.

import { recordFromDetails, recordRow } from './rows.js';
import {
  DETAILS_WITH_SOURCE,
  KEY,
  keysIn,
  NEXT_FULL_SYNC,
  olderDetails,
  PENDING_DETAILS,
  recordsQuery,
  recordsWithoutDetails,
  detailsOfNumber,
  trackedOf,
  UNSEEN,
  UPSERT_DETAILS,
  UPSERT_RECORD,
  type DetailsTimes,
  type Param,
  type Row,
  type Sql,
} from './sql.js';
import { RECORD_COLUMNS } from './schema.js';
import { findQuery, type FindDialect } from './find-sql.js';
import { SHOWN_REFERENCE_FIELDS, type ParcelReferences } from '../service/record-fields.js';
import {
  reportParcelsQuery,
  reportRecordsQuery,
  reportRegisteredQuery,
  reportTransitInDetailsQuery,
  reportWindowsQuery,
  type ReportDialect,
} from './report-sql.js';
import { REPORT_COUNTS } from './types.js';
import type {
  ChangeQuery,
  ChangeRow,
  ChangeSource,
  DetailsRow,
  DetailsWrite,
  MirrorCounts,
  RecordKey,
  RecordQuery,
  RecordRow,
  ReportCounts,
  ReportKey,
  ReportParcel,
  ReportParcelKind,
  ReportQuery,
  ReportRecords,
  ReportRegistered,
  ReportWindows,
  Store,
  StoredRecord,
} from './types.js';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const int = (v: unknown): number => Number(v ?? 0);
const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Before every key, for paging through keys from the start. */
const FIRST: RecordKey = { number: '', carrier: -Infinity };

/**
 * The rows in rounds where each record comes once: the statements of a round are sent together (a server runs them
 * in one round trip), and a record given twice is written a second time only once the first is.
 */
function rounds<R extends RecordKey>(rows: readonly R[]): R[][] {
  const out: R[][] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const id = idOf(row);
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    (out[n] ??= []).push(row);
  }
  return out;
}

function keyParams(k: RecordKey | undefined): Param[] {
  const key = k ?? FIRST;
  return [key.number, Number.isFinite(key.carrier) ? key.carrier : -2147483648];
}

function changeOf(row: Row): ChangeRow {
  return {
    id: int(row.id),
    number: String(row.number),
    carrier: int(row.carrier),
    from_status: str(row.from_status),
    to_status: str(row.to_status),
    from_sub_status: str(row.from_sub_status),
    to_sub_status: str(row.to_sub_status),
    event_time: str(row.event_time),
    detected_at: String(row.detected_at),
    source: row.source === 'webhook' ? 'webhook' : 'sync',
  };
}

/** What the mirror held of a record before new details. */
interface Held {
  details: (DetailsTimes & { package_status: string | null; sub_status: string | null }) | undefined;
  record:
    | { package_status: string | null; track_time: string | null; register_time: string | null; raw: string }
    | undefined;
}
const NOTHING_HELD: Held = { details: undefined, record: undefined };

const idOf = (k: RecordKey): string => `${k.number}\u0000${k.carrier}`;
const rowId = (row: Row): string => idOf({ number: String(row.number), carrier: int(row.carrier) });
const keyOf = (k: RecordKey): Param[] => [k.number, k.carrier];
const SEEN_BY_FULL_SYNC = `UPDATE records SET seen_full_sync = ? WHERE ${KEY}`;

export abstract class SqlStore implements Store {
  abstract readonly location: string;
  protected abstract readonly sql: Sql;
  /** How the report's SQL says what this database says its own way (report-sql.ts). */
  protected abstract readonly reportDialect: ReportDialect;
  /** How this database reads the index of trigrams find goes through (find-sql.ts). */
  protected abstract readonly findDialect: FindDialect;
  abstract close(): Promise<void>;
  abstract writable(): Promise<boolean>;
  abstract check(): Promise<void>;

  async state(name: string): Promise<string | undefined> {
    const rows = await this.sql.all('SELECT value FROM sync_state WHERE name = ?', [name]);
    return str(rows[0]?.value) ?? undefined;
  }

  async setState(values: Readonly<Record<string, string>>): Promise<void> {
    await this.sql.transaction(async (tx) => {
      for (const [name, value] of Object.entries(values)) {
        await tx.run(
          'INSERT INTO sync_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
          [name, value],
        );
      }
    });
  }

  async nextFullSync(): Promise<number> {
    return this.sql.transaction(async (tx) => Number((await tx.all(NEXT_FULL_SYNC))[0]?.value));
  }

  async writeRecords(rows: readonly RecordRow[], fullSync?: number): Promise<{ added: number }> {
    if (rows.length === 0) return { added: 0 };
    return this.sql.transaction(async (tx) => {
      // The locks, what the mirror knew, then the writes: sent together, run in this order (see Sql).
      const locked = tx.lockRecords(rows);
      let added = 0;
      for (const round of rounds(rows)) {
        const [known] = await Promise.all([
          tx.all(`SELECT number FROM records WHERE ${keysIn(round.length)}`, round.flatMap(keyOf)),
          locked,
          ...round.flatMap((row) => [
            tx.run(UPSERT_RECORD, [row.number, row.carrier, ...RECORD_COLUMNS.map((c) => row[c])]),
            ...(fullSync === undefined ? [] : [tx.run(SEEN_BY_FULL_SYNC, [fullSync, row.number, row.carrier])]),
          ]),
        ]);
        added += round.length - known.length;
      }
      return { added };
    });
  }

  async writeDetails(rows: readonly DetailsRow[], source: ChangeSource): Promise<DetailsWrite> {
    if (rows.length === 0) return { stored: 0, changes: [] };
    return this.sql.transaction(async (tx) => {
      // The locks, then what the mirror holds: sent together, run in this order (see Sql).
      const locked = tx.lockRecords(rows);
      const out: DetailsWrite = { stored: 0, changes: [] };
      for (const round of rounds(rows)) {
        const [held] = await Promise.all([this.held(tx, round), locked]);
        await Promise.all(round.map((row) => this.writeOne(tx, row, held.get(idOf(row)) ?? NOTHING_HELD, source, out)));
      }
      out.changes.sort((a, b) => a.id - b.id);
      return out;
    });
  }

  /** One record's details, decided on what the mirror held of it. */
  private async writeOne(tx: Sql, row: DetailsRow, held: Held, source: ChangeSource, out: DetailsWrite): Promise<void> {
    // Older than what the mirror holds (a notification overtaken by a sync, or the reverse): nothing to do. The
    // details held answer a tracking as late as these were asked for with, so the record is not wanted again.
    if (held.details && olderDetails(row, held.details)) return;
    const stored = { ...row, register_time: row.register_time ?? held.record?.register_time ?? null };
    // Decided on what the mirror held, so sent together (see Sql).
    const [, , change] = await Promise.all([
      tx.run(UPSERT_DETAILS, [
        row.number,
        row.carrier,
        ...DETAILS_WITH_SOURCE.map((c) => (c === 'source' ? source : stored[c])),
      ]),
      source === 'webhook' ? this.recordFromNotification(tx, row, held) : undefined,
      this.changeOf(tx, row, held, source),
    ]);
    out.stored += 1;
    if (change) out.changes.push(change);
  }

  /** What the mirror holds of each of these records (each once), by idOf. */
  private async held(tx: Sql, keys: readonly RecordKey[]): Promise<Map<string, Held>> {
    const params = keys.flatMap(keyOf);
    const these = keysIn(keys.length);
    const [details, records] = await Promise.all([
      tx.all(
        `SELECT number, carrier, package_status, sub_status, as_of, record_track_time FROM details WHERE ${these}`,
        params,
      ),
      tx.all(
        `SELECT number, carrier, package_status, track_time, register_time, raw FROM records WHERE ${these}`,
        params,
      ),
    ]);
    const held = new Map<string, Held>();
    const of = (row: Row): Held => held.get(rowId(row)) ?? { details: undefined, record: undefined };
    for (const d of details) {
      const details = {
        package_status: str(d.package_status),
        sub_status: str(d.sub_status),
        as_of: String(d.as_of),
        record_track_time: str(d.record_track_time),
      };
      held.set(rowId(d), { ...of(d), details });
    }
    for (const r of records) {
      const record = {
        package_status: str(r.package_status),
        track_time: str(r.track_time),
        register_time: str(r.register_time),
        raw: String(r.raw),
      };
      held.set(rowId(r), { ...of(r), record });
    }
    return held;
  }

  /**
   * The change new details make, recorded: the status held before (the details', else for a notification the
   * record's, else none) against the new one. A sync's first details of a record are its first sync: no change.
   */
  private async changeOf(tx: Sql, row: DetailsRow, held: Held, source: ChangeSource): Promise<ChangeRow | undefined> {
    if (!held.details && source === 'sync') return undefined;
    const from = held.details ? held.details.package_status : (held.record?.package_status ?? null);
    const known = held.details !== undefined || held.record !== undefined;
    if (known && from === row.package_status) return undefined;
    const change: Omit<ChangeRow, 'id'> = {
      number: row.number,
      carrier: row.carrier,
      from_status: from,
      to_status: row.package_status,
      from_sub_status: held.details?.sub_status ?? null,
      to_sub_status: row.sub_status,
      event_time: row.latest_event_time,
      // When the service found it: the tracking the details answer, from its own answers.
      detected_at: trackedOf(row) || row.latest_event_time || '',
      source,
    };
    const names = Object.keys(change) as (keyof typeof change)[];
    // The lock for changes, then the change: sent together, run in this order (see Sql).
    const [, [inserted]] = await Promise.all([
      tx.lockChanges(),
      tx.all(
        `INSERT INTO changes (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) RETURNING id`,
        names.map((k) => change[k]),
      ),
    ]);
    return { ...change, id: int(inserted?.id) };
  }

  /**
   * A notification's details brought to the record: its status and latest event, when they are at least as new
   * as the record's tracking time; a number the mirror did not list yet gets a record made from them.
   */
  private async recordFromNotification(tx: Sql, row: DetailsRow, held: Held): Promise<void> {
    if (!held.record) {
      const made = recordFromDetails(row);
      await tx.run(UPSERT_RECORD, [made.number, made.carrier, ...RECORD_COLUMNS.map((c) => made[c])]);
      return;
    }
    if (held.record.track_time !== null && row.as_of !== '' && row.as_of < held.record.track_time) return;
    // The copy of the list answer gets the time as the service writes it there; the column keeps it comparable.
    const raw = patchRaw(held.record.raw, {
      package_status: row.package_status,
      tag: row.tag,
      latest_event_time: row.latest_event_time_sent ?? row.latest_event_time,
      latest_event_info: row.latest_event,
    });
    await tx.run(
      `UPDATE records SET package_status = ?, tag = ?, latest_event_time = ?, latest_event_info = ?, raw = ? ` +
        `WHERE ${KEY}`,
      [row.package_status, row.tag, row.latest_event_time, row.latest_event, raw, row.number, row.carrier],
    );
  }

  async markStopped(key: RecordKey, fields: { tag: string | null; param: string | null }): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await tx.lockRecords([key]);
      const [r] = await tx.all(`SELECT raw FROM records WHERE ${KEY}`, [key.number, key.carrier]);
      const stop = { tracking_status: 'Stopped', stop_track_reason: 'Expired' };
      if (!r) {
        const raw = { number: key.number, carrier: key.carrier, param: fields.param, tag: fields.tag, ...stop };
        const made = { ...recordRow(raw, 'v2'), as_of: '' };
        await tx.run(UPSERT_RECORD, [made.number, made.carrier, ...RECORD_COLUMNS.map((c) => made[c])]);
        return;
      }
      await tx.run(`UPDATE records SET tracking_status = ?, stop_track_reason = ?, raw = ? WHERE ${KEY}`, [
        stop.tracking_status,
        stop.stop_track_reason,
        patchRaw(String(r.raw), stop),
        key.number,
        key.carrier,
      ]);
    });
  }

  async pendingDetails(
    after: RecordKey | undefined,
    limit: number,
  ): Promise<(RecordKey & { track_time: string | null })[]> {
    const rows = await this.sql.all(PENDING_DETAILS, [...keyParams(after), limit]);
    return rows.map((r) => ({ number: String(r.number), carrier: int(r.carrier), track_time: str(r.track_time) }));
  }

  async unseen(fullSync: number, after: RecordKey | undefined, limit: number): Promise<RecordKey[]> {
    const rows = await this.sql.all(UNSEEN, [...keyParams(after), fullSync, limit]);
    return rows.map((r) => ({ number: String(r.number), carrier: int(r.carrier) }));
  }

  async deleteRecords(keys: readonly RecordKey[]): Promise<number> {
    return this.sql.transaction(async (tx) => {
      await tx.lockRecords(keys);
      const done = await Promise.all(
        keys.flatMap((k) => [
          tx.run(`DELETE FROM details WHERE ${KEY}`, [k.number, k.carrier]),
          tx.run(`DELETE FROM records WHERE ${KEY}`, [k.number, k.carrier]),
        ]),
      );
      // Every other one is a record's.
      return done.reduce((n, r, i) => n + (i % 2 === 1 ? r.changes : 0), 0);
    });
  }

  async *records(query: RecordQuery): AsyncIterable<StoredRecord[]> {
    const { sql, params } = recordsQuery(query);
    for await (const rows of this.sql.batches(sql, params, 1000)) {
      yield rows.map((r) => ({ raw: String(r.raw), api_version: String(r.api_version) }));
    }
  }

  async find(text: string, limit: number): Promise<RecordKey[]> {
    const { sql, params } = findQuery(text, limit, this.findDialect);
    const rows = await this.sql.all(sql, params, { planEachRun: true });
    return rows.map((r) => ({ number: String(r.number), carrier: int(r.carrier) }));
  }

  async details(
    numbers: readonly string[],
    carrier?: number,
  ): Promise<{ details: StoredRecord[]; withoutDetails: RecordKey[] }> {
    const out = { details: [] as StoredRecord[], withoutDetails: [] as RecordKey[] };
    const byCarrier = carrier !== undefined;
    for (const number of numbers) {
      const params = [number.trim().toLowerCase(), ...(carrier === undefined ? [] : [carrier])];
      const found = await this.sql.all(detailsOfNumber(byCarrier), params);
      out.details.push(...found.map((r) => ({ raw: String(r.raw), api_version: String(r.api_version) })));
      const bare = await this.sql.all(recordsWithoutDetails(byCarrier), params);
      out.withoutDetails.push(...bare.map((r) => ({ number: String(r.number), carrier: int(r.carrier) })));
    }
    return out;
  }

  async changes(query: ChangeQuery): Promise<ChangeRow[]> {
    const where: string[] = ['id > ?'];
    const params: Param[] = [query.afterId ?? 0];
    if (query.since !== undefined) {
      where.push('detected_at >= ?');
      params.push(query.since);
    }
    if (query.status?.length) {
      where.push(`to_status IN (${query.status.map(() => '?').join(', ')})`);
      params.push(...query.status);
    }
    const rows = await this.sql.all(`SELECT * FROM changes WHERE ${where.join(' AND ')} ORDER BY id`, params);
    return rows.map(changeOf);
  }

  async cursor(name: string): Promise<number> {
    const rows = await this.sql.all('SELECT change_id FROM cursors WHERE name = ?', [name]);
    return rows[0] ? int(rows[0].change_id) : 0;
  }

  async advanceCursor(name: string, to: number): Promise<void> {
    await this.sql.transaction((tx) =>
      tx.run(
        'INSERT INTO cursors (name, change_id) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET change_id = ' +
          'excluded.change_id WHERE excluded.change_id > cursors.change_id',
        [name, to],
      ),
    );
  }

  async counts(): Promise<MirrorCounts> {
    const [r] = await this.sql.all(
      'SELECT (SELECT count(*) FROM records) AS records, (SELECT count(*) FROM details) AS details, (SELECT ' +
        'count(*) FROM changes) AS changes',
    );
    return { records: int(r?.records), details: int(r?.details), changes: int(r?.changes) };
  }

  async reportRecords(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportRecords> {
    const { sql, params } = reportRecordsQuery(query, keys);
    const out: ReportRecords = { counts: [], transit: [] };
    let inDetails = 0;
    for (const r of await this.sql.all(sql, params)) {
      const group = groupOf(r);
      out.counts.push({ ...group, ...(Object.fromEntries(REPORT_COUNTS.map((c) => [c, int(r[c])])) as CountsOnly) });
      const known = int(r.known);
      if (known > 0) out.transit.push({ ...group, days: int(r.days), count: known });
      inDetails += int(r.delivered) - known;
    }
    // Delivered parcels whose records do not tell their transit days (none where lists are v2.1 and synced).
    if (inDetails > 0) {
      const other = reportTransitInDetailsQuery(query, keys);
      const rows = await this.sql.all(other.sql, other.params);
      out.transit.push(...rows.map((r) => ({ ...groupOf(r), days: int(r.days), count: int(r.parcels) })));
    }
    return out;
  }

  async reportRegistered(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportRegistered[]> {
    const { sql, params } = reportRegisteredQuery(query, keys);
    return (await this.sql.all(sql, params)).map((r) => ({ ...groupOf(r), registered: int(r.registered) }));
  }

  async reportWindows(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportWindows[]> {
    const { sql, params } = reportWindowsQuery(query, keys, this.reportDialect);
    return (await this.sql.all(sql, params)).map((r) => ({
      ...groupOf(r),
      with_window: int(r.with_window),
      on_time: int(r.on_time),
    }));
  }

  async reportParcels(query: ReportQuery, kind: ReportParcelKind, limit?: number): Promise<ReportParcel[]> {
    const { sql, params } = reportParcelsQuery(query, kind, limit);
    return (await this.sql.all(sql, params)).map((r) => ({
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
}

type CountsOnly = Pick<ReportCounts, (typeof REPORT_COUNTS)[number]>;

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

/** A stored list item with those of `fields` it has set (a v1 item, of other names, is left as received). */
function patchRaw(raw: string, fields: Record<string, unknown>): string {
  const item = JSON.parse(raw) as Record<string, unknown>;
  for (const [k, v] of Object.entries(fields)) if (k in item) item[k] = v;
  return JSON.stringify(item);
}
