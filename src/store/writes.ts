// The mirror's writes of records and details, over any SQL connection (sql.ts), for SqlStore. Every write is one
// transaction that first locks the records it touches (a server's transactions run side by side); every upsert is
// guarded by the service's own time of what it writes, so that two syncs and two listeners writing at once, on one
// host or several, lose nothing and never put older data over newer. New details that move a record's status add
// a change (changes.ts reads them).

import { recordRow } from './rows.js';
import { patchRaw, recordValues, writeBrought, type Held } from './details-brought.js';
import {
  DETAILS_WITH_SOURCE,
  int,
  KEY,
  keysIn,
  lastOf,
  olderDetails,
  str,
  pieces,
  upsertDetails,
  upsertRecords,
  UPSERT_RECORD,
  type Param,
  type Row,
  type Sql,
} from './sql.js';
import type { ChangeSource, DetailsRow, DetailsWrite, RecordKey, RecordRow } from './types.js';

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

const NOTHING_HELD: Held = { details: undefined, record: undefined };

const idOf = (k: RecordKey): string => `${k.number}\u0000${k.carrier}`;
const rowId = (row: Row): string => idOf({ number: String(row.number), carrier: int(row.carrier) });
const SEEN_BY_FULL_SYNC = 'UPDATE records SET seen_full_sync = ? WHERE (seen_full_sync IS NULL OR seen_full_sync <> ?)';
const upsertRecord = (tx: Sql, row: RecordRow) => tx.run(UPSERT_RECORD, recordValues(row));

/** Records of a list's answers; `fullSync`: the full sync that saw them. */
export async function writeRecords(
  sql: Sql,
  rows: readonly RecordRow[],
  fullSync: number | undefined,
): Promise<{ added: number }> {
  if (rows.length === 0) return { added: 0 };
  return sql.transaction(async (tx) => {
    // The locks, what the mirror knew, the writes of each round, then the commit: none waits for an answer, so a
    // server takes them all in one round trip, and runs them in this order (see Sql): a round's reads see the rounds
    // before it.
    const locked = tx.lockRecords(rows);
    const added = rounds(rows).map((round) => writeRound(tx, round, fullSync));
    tx.sendCommit();
    const [, ...counts] = await Promise.all([locked, ...added]);
    return { added: counts.reduce((a, b) => a + b, 0) };
  });
}

/** One round of writeRecords: how many of its records the mirror did not hold. */
async function writeRound(tx: Sql, round: readonly RecordRow[], fullSync: number | undefined): Promise<number> {
  const these = keysIn(round);
  const [known] = await Promise.all([
    tx.all(`SELECT number FROM records WHERE ${these.where}`, these.params),
    ...pieces(round).map((piece) =>
      tx.run(
        upsertRecords(piece.length),
        piece.flatMap((row) => [...recordValues(row), fullSync ?? null]),
      ),
    ),
    // Those held already, marked as seen by this sync: in a first sync none (PostgreSQL wrote a page 40 % slower
    // updating every row again).
    ...(fullSync === undefined
      ? []
      : [tx.run(`${SEEN_BY_FULL_SYNC} AND ${these.where}`, [fullSync, fullSync, ...these.params])]),
  ]);
  return round.length - known.length;
}

/** Details of tracking answers or notifications, each decided on what the mirror held of its record. */
export async function writeDetails(sql: Sql, rows: readonly DetailsRow[], source: ChangeSource): Promise<DetailsWrite> {
  if (rows.length === 0) return { stored: 0, changes: [] };
  return sql.transaction(async (tx) => {
    // The locks, then what the mirror holds: sent together, run in this order (see Sql).
    const locked = tx.lockRecords(rows);
    const out: DetailsWrite = { stored: 0, changes: [] };
    const all = rounds(rows);
    for (const [i, round] of all.entries()) {
      const [held] = await Promise.all([heldOf(tx, round, source), locked]);
      // Older than what the mirror holds (a notification overtaken by a sync, or the reverse): nothing to do. The
      // details held answer a tracking as late as these were asked for with, so the record is not wanted again.
      const newer = round.flatMap((row) => {
        const h = held.get(idOf(row)) ?? NOTHING_HELD;
        return h.details && olderDetails(row, h.details) ? [] : [{ row, held: h }];
      });
      // Decided on what the mirror held, so sent together (see Sql): the details a piece at a time, then what they
      // bring, and after the last round's the commit.
      const written = Promise.all([
        Promise.all(
          pieces(newer).map((piece) =>
            tx.run(
              upsertDetails(piece.length),
              piece.flatMap(({ row, held }) => detailsValues(row, held, source)),
            ),
          ),
        ),
        writeBrought(tx, newer, source),
      ]);
      if (i === all.length - 1) tx.sendCommit();
      const [, changes] = await written;
      out.stored += newer.length;
      out.changes.push(...changes);
    }
    out.changes.sort((a, b) => a.id - b.id);
    return out;
  });
}

/** The values of UPSERT_DETAILS of a record's details. */
function detailsValues(row: DetailsRow, held: Held, source: ChangeSource): Param[] {
  const stored = { ...row, register_time: row.register_time ?? held.record?.register_time ?? null };
  return [row.number, row.carrier, ...DETAILS_WITH_SOURCE.map((c) => (c === 'source' ? source : stored[c]))];
}

/** What the mirror holds of each of these records (each once), by idOf, for details from `source`. */
async function heldOf(tx: Sql, keys: readonly RecordKey[], source: ChangeSource): Promise<Map<string, Held>> {
  const { where: these, params } = keysIn(keys);
  // The list answer as stored only where a notification patches it: a sync's details leave the record as it is.
  const raw = source === 'webhook' ? 'raw' : "'' AS raw";
  const [details, records] = await Promise.all([
    tx.all(
      `SELECT number, carrier, package_status, sub_status, as_of, record_track_time FROM details WHERE ${these}`,
      params,
    ),
    tx.all(
      `SELECT number, carrier, package_status, track_time, register_time, ${raw} FROM records WHERE ${these}`,
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

/** A record the service stopped tracking (a notification of it); a number the mirror did not know gets a record. */
export async function markStopped(
  sql: Sql,
  key: RecordKey,
  fields: { tag: string | null; param: string | null },
): Promise<void> {
  await sql.transaction(async (tx) => {
    // The lock and what the mirror holds: sent together, run in this order (see Sql).
    const [, [r]] = await Promise.all([
      tx.lockRecords([key]),
      tx.all(`SELECT raw FROM records WHERE ${KEY}`, [key.number, key.carrier]),
    ]);
    const stop = { tracking_status: 'Stopped', stop_track_reason: 'Expired' };
    if (!r) {
      const raw = { number: key.number, carrier: key.carrier, param: fields.param, tag: fields.tag, ...stop };
      await lastOf(tx, upsertRecord(tx, { ...recordRow(raw, 'v2'), as_of: '' }));
      return;
    }
    await lastOf(
      tx,
      tx.run(`UPDATE records SET tracking_status = ?, stop_track_reason = ?, raw = ? WHERE ${KEY}`, [
        stop.tracking_status,
        stop.stop_track_reason,
        patchRaw(String(r.raw), stop),
        key.number,
        key.carrier,
      ]),
    );
  });
}

/** Records and their details taken out; how many records were. */
export async function deleteRecords(sql: Sql, keys: readonly RecordKey[]): Promise<number> {
  return sql.transaction(async (tx) => {
    // The locks, the deletes and the commit: sent together, run in this order (see Sql).
    const locked = tx.lockRecords(keys);
    const deleted = keys.flatMap((k) => [
      tx.run(`DELETE FROM details WHERE ${KEY}`, [k.number, k.carrier]),
      tx.run(`DELETE FROM records WHERE ${KEY}`, [k.number, k.carrier]),
    ]);
    const [, done] = await lastOf(tx, Promise.all([locked, Promise.all(deleted)]));
    // Every other one is a record's.
    return done.reduce((n, r, i) => n + (i % 2 === 1 ? r.changes : 0), 0);
  });
}
