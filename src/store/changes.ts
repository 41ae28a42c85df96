// The changes of status the mirror recorded (writes.ts adds them), and the cursors that consumers of them move:
// a cursor only ever moves forward, so that two consumers of one name never take a change back.

import { REFERENCE_FIELDS, type ReferenceValues } from '@trk/service/record-fields.js';
import { int, lastOf, str, type Param, type Row, type Sql } from './sql.js';
import type { ChangeQuery, ChangeRow, ListedChange } from './types.js';

/**
 * The changes after `afterId`, in the order they were recorded (which cursors count on), each with the customer
 * references of its parcel's record.
 */
export async function readChanges(sql: Sql, query: ChangeQuery): Promise<ListedChange[]> {
  const where: string[] = ['c.id > ?'];
  const params: Param[] = [query.afterId ?? 0];
  if (query.since !== undefined) {
    where.push('c.detected_at >= ?');
    params.push(query.since);
  }
  if (query.status?.length) {
    where.push(`c.to_status IN (${query.status.map(() => '?').join(', ')})`);
    params.push(...query.status);
  }
  const references = REFERENCE_FIELDS.map((f) => `r.${f}`).join(', ');
  const rows = await sql.all(
    `SELECT c.*, ${references} FROM changes c LEFT JOIN records r ON r.number = c.number AND r.carrier = c.carrier ` +
      `WHERE ${where.join(' AND ')} ORDER BY c.id`,
    params,
  );
  return rows.map((row) => ({ ...changeOf(row), ...referencesOf(row) }));
}

function referencesOf(row: Row): ReferenceValues {
  return Object.fromEntries(REFERENCE_FIELDS.map((f) => [f, str(row[f])])) as ReferenceValues;
}

/** The last change a cursor took (0: none). */
export async function readCursor(sql: Sql, name: string): Promise<number> {
  const rows = await sql.all('SELECT change_id FROM cursors WHERE name = ?', [name]);
  return rows[0] ? int(rows[0].change_id) : 0;
}

/** Moves a cursor to `to`, never back. */
export async function advanceCursor(sql: Sql, name: string, to: number): Promise<void> {
  await sql.transaction((tx) =>
    lastOf(
      tx,
      tx.run(
        'INSERT INTO cursors (name, change_id) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET change_id = ' +
          'excluded.change_id WHERE excluded.change_id > cursors.change_id',
        [name, to],
      ),
    ),
  );
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
