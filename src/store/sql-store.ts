// The store's logic over any SQL connection (sql.ts): SQLite's file (sqlite.ts) and a PostgreSQL server
// (postgres.ts) share it. The class holds the Store interface together; its concerns are modules of their own,
// each written against Sql: the writes of records and details, with the changes they record (writes.ts), the
// changes and their cursors (changes.ts), the report's figures (report-reads.ts); the reads of the offline
// commands and the sync's bookkeeping are here.

import { advanceCursor, readChanges, readCursor } from './changes.js';
import { findQuery, type FindDialect } from './find-sql.js';
import * as notify from './notify-sql.js';
import type {
  ChangeMatchQuery,
  LedgerClaim,
  LedgerCount,
  LedgerRow,
  LedgerSettle,
  NotifyMatch,
  NotifyRuleRow,
  StateMatchQuery,
} from './notify-types.js';
import { reportParcels, reportRecords, reportRegistered, reportWindows } from './report-reads.js';
import type { ReportDialect } from './report-sql.js';
import {
  detailsOfNumber,
  int,
  lastOf,
  NEXT_FULL_SYNC,
  PENDING_DETAILS,
  recordsQuery,
  recordsWithoutDetails,
  str,
  UNSEEN,
  type Param,
  type Sql,
} from './sql.js';
import type {
  ChangeQuery,
  ListedChange,
  ChangeSource,
  DetailsRow,
  DetailsWrite,
  MirrorCounts,
  RecordKey,
  RecordQuery,
  RecordRow,
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
import { deleteRecords, markStopped, writeDetails, writeRecords } from './writes.js';

/** Before every key, for paging through keys from the start. */
const FIRST: RecordKey = { number: '', carrier: -Infinity };

function keyParams(k: RecordKey | undefined): Param[] {
  const key = k ?? FIRST;
  return [key.number, Number.isFinite(key.carrier) ? key.carrier : -2147483648];
}

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
    await this.sql.transaction((tx) =>
      lastOf(
        tx,
        Promise.all(
          Object.entries(values).map(([name, value]) =>
            tx.run(
              'INSERT INTO sync_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = ' +
                'excluded.value',
              [name, value],
            ),
          ),
        ),
      ),
    );
  }

  async nextFullSync(): Promise<number> {
    return this.sql.transaction(async (tx) => Number((await lastOf(tx, tx.all(NEXT_FULL_SYNC)))[0]?.value));
  }

  writeRecords(rows: readonly RecordRow[], fullSync?: number): Promise<{ added: number }> {
    return writeRecords(this.sql, rows, fullSync);
  }

  writeDetails(rows: readonly DetailsRow[], source: ChangeSource): Promise<DetailsWrite> {
    return writeDetails(this.sql, rows, source);
  }

  markStopped(key: RecordKey, fields: { tag: string | null; param: string | null }): Promise<void> {
    return markStopped(this.sql, key, fields);
  }

  deleteRecords(keys: readonly RecordKey[]): Promise<number> {
    return deleteRecords(this.sql, keys);
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

  changes(query: ChangeQuery): Promise<ListedChange[]> {
    return readChanges(this.sql, query);
  }

  cursor(name: string): Promise<number> {
    return readCursor(this.sql, name);
  }

  advanceCursor(name: string, to: number): Promise<void> {
    return advanceCursor(this.sql, name, to);
  }

  async counts(): Promise<MirrorCounts> {
    const [r] = await this.sql.all(
      'SELECT (SELECT count(*) FROM records) AS records, (SELECT count(*) FROM details) AS details, (SELECT ' +
        'count(*) FROM changes) AS changes',
    );
    return { records: int(r?.records), details: int(r?.details), changes: int(r?.changes) };
  }

  reportRecords(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportRecords> {
    return reportRecords(this.sql, query, keys);
  }

  reportRegistered(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportRegistered[]> {
    return reportRegistered(this.sql, query, keys);
  }

  reportWindows(query: ReportQuery, keys: readonly ReportKey[]): Promise<ReportWindows[]> {
    return reportWindows(this.sql, query, keys, this.reportDialect);
  }

  reportParcels(query: ReportQuery, kind: ReportParcelKind, limit?: number): Promise<ReportParcel[]> {
    return reportParcels(this.sql, query, kind, limit);
  }

  addRule(name: string, spec: string, createdAt: string): Promise<NotifyRuleRow | undefined> {
    return notify.addRule(this.sql, name, spec, createdAt);
  }

  rules(): Promise<NotifyRuleRow[]> {
    return notify.readRules(this.sql);
  }

  removeRule(name: string): Promise<boolean> {
    return notify.removeRule(this.sql, name);
  }

  advanceRule(id: number, to: number, runAt: string): Promise<void> {
    return notify.advanceRule(this.sql, id, to, runAt);
  }

  changeMatches(query: ChangeMatchQuery): Promise<NotifyMatch[]> {
    return notify.changeMatches(this.sql, query);
  }

  stateMatches(query: StateMatchQuery): Promise<NotifyMatch[]> {
    return notify.stateMatches(this.sql, query);
  }

  claim(entry: LedgerClaim): Promise<number | undefined> {
    return notify.claim(this.sql, entry);
  }

  retake(id: number, seen: string, hold: string): Promise<boolean> {
    return notify.retake(this.sql, id, seen, hold);
  }

  settle(ids: readonly number[], how: LedgerSettle): Promise<void> {
    return notify.settle(this.sql, ids, how);
  }

  lastChange(): Promise<number> {
    return notify.lastChange(this.sql);
  }

  dueMessages(ruleId: number, now: string, afterId: number, limit: number): Promise<LedgerRow[]> {
    return notify.dueMessages(this.sql, ruleId, now, afterId, limit);
  }

  claimed(claims: readonly string[]): Promise<Set<string>> {
    return notify.claimed(this.sql, claims);
  }

  ledgerCounts(): Promise<LedgerCount[]> {
    return notify.ledgerCounts(this.sql);
  }
}
