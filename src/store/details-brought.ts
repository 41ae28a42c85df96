// What new details bring besides themselves (writes.ts decides which are new, on what the mirror held): for a
// notification its record, made or brought up to date, and for either source the change of status they record.
// Written a piece at a time (`pieces`), one statement for many records: a server runs each statement in its own
// round of binding, executing and answering, and a listener's group commit of 64 notifications was some 130 of them.

import { recordFromDetails } from './rows.js';
import {
  CHANGE_COLUMNS,
  insertChanges,
  int,
  pieces,
  trackedOf,
  updateFromNotifications,
  upsertRecords,
  type Param,
  type Sql,
} from './sql.js';
import { RECORD_COLUMNS } from './schema.js';
import type { ChangeRow, ChangeSource, DetailsRow, RecordRow } from './types.js';

/** What the mirror held of a record before new details. */
export interface Held {
  details:
    | { as_of: string; record_track_time: string | null; package_status: string | null; sub_status: string | null }
    | undefined;
  record:
    | { package_status: string | null; track_time: string | null; register_time: string | null; raw: string }
    | undefined;
}

/** New details of a record, and what the mirror held of it. */
export interface NewDetails {
  row: DetailsRow;
  held: Held;
}

export const recordValues = (row: RecordRow): Param[] => [
  row.number,
  row.carrier,
  ...RECORD_COLUMNS.map((c) => row[c]),
];

/** The records, then the changes, that these new details (each of another record) bring: the changes, with ids. */
export async function writeBrought(tx: Sql, newer: readonly NewDetails[], source: ChangeSource): Promise<ChangeRow[]> {
  const notified = source === 'webhook' ? newer : [];
  // A number the mirror did not list yet gets a record made from them.
  const made = notified.flatMap(({ row, held }) => (held.record ? [] : [recordFromDetails(row)]));
  const brought = notified.flatMap(({ row, held }) => {
    const values = broughtUp(row, held);
    return values ? [values] : [];
  });
  const changes = newer.flatMap(({ row, held }) => changeOf(row, held, source) ?? []);
  // Sent together, run in this order (see Sql).
  const [, inserted] = await Promise.all([
    Promise.all([
      ...pieces(made).map((piece) =>
        tx.run(
          upsertRecords(piece.length),
          piece.flatMap((r) => [...recordValues(r), null]),
        ),
      ),
      ...pieces(brought).map((piece) => tx.run(updateFromNotifications(piece.length), piece.flat())),
    ]),
    recordChanges(tx, changes),
  ]);
  return inserted;
}

/**
 * A notification's details brought to its record: its status and latest event, when they are at least as new as
 * the record's tracking time. The values of updateFromNotifications, or undefined.
 */
function broughtUp(row: DetailsRow, held: Held): Param[] | undefined {
  const record = held.record;
  if (!record || (record.track_time !== null && row.as_of !== '' && row.as_of < record.track_time)) return undefined;
  // The copy of the list answer gets the time as the service writes it there; the column keeps it comparable.
  const raw = patchRaw(record.raw, {
    package_status: row.package_status,
    tag: row.tag,
    latest_event_time: row.latest_event_time_sent ?? row.latest_event_time,
    latest_event_info: row.latest_event,
  });
  return [row.number, row.carrier, row.package_status, row.tag, row.latest_event_time, row.latest_event, raw];
}

type NewChange = Omit<ChangeRow, 'id'>;

/**
 * The change new details make: the status held before (the details', else for a notification the record's, else
 * none) against the new one. A sync's first details of a record are its first sync: no change.
 */
function changeOf(row: DetailsRow, held: Held, source: ChangeSource): NewChange | undefined {
  if (!held.details && source === 'sync') return undefined;
  const from = held.details ? held.details.package_status : (held.record?.package_status ?? null);
  const known = held.details !== undefined || held.record !== undefined;
  if (known && from === row.package_status) return undefined;
  return {
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
}

/** The changes recorded (each of another record), after the lock for changes: with their ids. */
async function recordChanges(tx: Sql, changes: readonly NewChange[]): Promise<ChangeRow[]> {
  if (changes.length === 0) return [];
  // The lock, then the changes: sent together, run in this order (see Sql).
  const [, ...inserted] = await Promise.all([
    tx.lockChanges(),
    ...pieces(changes).map((piece) =>
      tx.all(
        insertChanges(piece.length),
        piece.flatMap((c) => CHANGE_COLUMNS.map((k) => c[k])),
      ),
    ),
  ]);
  // A statement's rows come back in no promised order: each change by its record.
  const ids = new Map(inserted.flat().map((r) => [`${String(r.number)}\u0000${int(r.carrier)}`, int(r.id)]));
  return changes.map((c) => ({ ...c, id: ids.get(`${c.number}\u0000${c.carrier}`) ?? 0 }));
}

/** A stored list item with those of `fields` it has set (a v1 item, of other names, is left as received). */
export function patchRaw(raw: string, fields: Record<string, unknown>): string {
  const item = JSON.parse(raw) as Record<string, unknown>;
  for (const [k, v] of Object.entries(fields)) if (k in item) item[k] = v;
  return JSON.stringify(item);
}
