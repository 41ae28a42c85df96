// The SQL of `trk notify` (notify-types.ts says what each part is for), for every database alike: the rules, the
// parcels they match (keyset pages: a run of 100,000 matches holds one page), and the ledger, whose unique claim
// decides which of two runs sends a message (INSERT ... ON CONFLICT DO NOTHING).

import { int, str, type Param, type Row, type Sql } from './sql.js';
import type {
  ChangeMatchQuery,
  LedgerClaim,
  LedgerCount,
  LedgerOutcome,
  LedgerRow,
  LedgerSettle,
  NotifyFilter,
  NotifyMatch,
  NotifyParcel,
  NotifyRuleRow,
  StateMatchQuery,
} from './notify-types.js';

const RULE_COLUMNS = 'id, name, spec, created_at, first_change, last_change, last_run_at';

function ruleOf(r: Row): NotifyRuleRow {
  return {
    id: int(r.id),
    name: String(r.name),
    spec: String(r.spec),
    created_at: String(r.created_at),
    first_change: int(r.first_change),
    last_change: int(r.last_change),
    last_run_at: str(r.last_run_at),
  };
}

export async function addRule(sql: Sql, name: string, spec: string, at: string): Promise<NotifyRuleRow | undefined> {
  return sql.transaction(async (tx) => {
    // The changes recorded so far are the past: the rule's cursor starts after the last of them.
    const rows = await tx.all(
      'INSERT INTO notify_rules (name, spec, created_at, first_change, last_change) ' +
        'SELECT ?, ?, ?, m.id, m.id FROM (SELECT coalesce(max(id), 0) AS id FROM changes) m WHERE true ' +
        `ON CONFLICT (name) DO NOTHING RETURNING ${RULE_COLUMNS}`,
      [name, spec, at],
    );
    return rows[0] ? ruleOf(rows[0]) : undefined;
  });
}

export async function readRules(sql: Sql): Promise<NotifyRuleRow[]> {
  return (await sql.all(`SELECT ${RULE_COLUMNS} FROM notify_rules ORDER BY name`)).map(ruleOf);
}

export async function removeRule(sql: Sql, name: string): Promise<boolean> {
  return sql.transaction(async (tx) => (await tx.run('DELETE FROM notify_rules WHERE name = ?', [name])).changes > 0);
}

export async function advanceRule(sql: Sql, id: number, to: number, at: string): Promise<void> {
  await sql.transaction((tx) =>
    tx.run(
      'UPDATE notify_rules SET last_change = CASE WHEN last_change < ? THEN ? ELSE last_change END, ' +
        'last_run_at = ? WHERE id = ?',
      [to, to, at, id],
    ),
  );
}

/** What a message says of a parcel: its record's references and its details' news (either may be missing). */
const PARCEL =
  'r.tag, r.order_no, r.email, coalesce(d.package_status, r.package_status) AS package_status, d.sub_status, ' +
  'coalesce(d.latest_event, r.latest_event_info) AS latest_event, ' +
  'coalesce(d.latest_event_time, r.latest_event_time) AS latest_event_time, d.eta_from, d.eta_to, r.register_time';

function parcelOf(r: Row): NotifyParcel {
  return {
    number: String(r.number),
    carrier: int(r.carrier),
    tag: str(r.tag),
    order_no: str(r.order_no),
    email: str(r.email),
    package_status: str(r.package_status),
    sub_status: str(r.sub_status),
    latest_event: str(r.latest_event),
    latest_event_time: str(r.latest_event_time),
    eta_from: str(r.eta_from),
    eta_to: str(r.eta_to),
    register_time: str(r.register_time),
  };
}

/** The filters of a rule as conditions, on `status` (an expression) and the record `r`. */
function filters(f: NotifyFilter, status: string, carrier: string): { where: string[]; params: Param[] } {
  const where: string[] = [];
  const params: Param[] = [];
  if (f.statuses?.length) {
    where.push(`${status} IN (${f.statuses.map(() => '?').join(', ')})`);
    params.push(...f.statuses);
  }
  if (f.carrier !== undefined) {
    where.push(`${carrier} = ?`);
    params.push(f.carrier);
  }
  if (f.tag !== undefined) {
    where.push('lower(r.tag) = lower(?)');
    params.push(f.tag);
  }
  return { where, params };
}

export async function changeMatches(sql: Sql, q: ChangeMatchQuery): Promise<NotifyMatch[]> {
  const f = filters(q, 'c.to_status', 'c.carrier');
  const rows = await sql.all(
    `SELECT c.id, c.number, c.carrier, c.from_status, c.to_status, c.to_sub_status, c.event_time, c.detected_at, ` +
      `${PARCEL} FROM changes c ` +
      'LEFT JOIN records r ON r.number = c.number AND r.carrier = c.carrier ' +
      'LEFT JOIN details d ON d.number = c.number AND d.carrier = c.carrier ' +
      `WHERE ${['c.id > ?', 'c.id <= ?', ...f.where].join(' AND ')} ORDER BY c.id LIMIT ?`,
    [q.after, q.upTo, ...f.params, q.limit],
  );
  return rows.map((r) => ({
    parcel: parcelOf(r),
    change: {
      id: int(r.id),
      key: `c:${int(r.id)}`,
      from_status: str(r.from_status),
      to_status: str(r.to_status),
      to_sub_status: str(r.to_sub_status),
      event_time: str(r.event_time),
      detected_at: String(r.detected_at),
    },
  }));
}

/** The time of a record's last news: its latest event, else its registration. */
const NEWS = 'coalesce(r.latest_event_time, r.register_time)';

export async function stateMatches(sql: Sql, q: StateMatchQuery): Promise<NotifyMatch[]> {
  const status = 'coalesce(d.package_status, r.package_status)';
  const f = filters(q, status, 'r.carrier');
  const where = [
    '(r.number, r.carrier) > (?, CAST(? AS INTEGER))',
    "r.tracking_status = 'Tracking'",
    `coalesce(${status}, '') NOT IN ('Delivered', 'Expired')`,
    ...f.where,
  ];
  const params: Param[] = [q.after?.number ?? '', q.after?.carrier ?? -2147483648, ...f.params];
  if (q.stuck) {
    where.push(`${NEWS} < ?`, `${NEWS} >= ?`);
    params.push(q.stuck.before, q.stuck.since);
  }
  if (q.late) {
    where.push('d.eta_to < ?', 'd.eta_to >= ?');
    params.push(q.late.before, q.late.since);
  }
  const rows = await sql.all(
    `SELECT r.number, r.carrier, ${NEWS} AS news, ${PARCEL} FROM records r ` +
      'LEFT JOIN details d ON d.number = r.number AND d.carrier = r.carrier ' +
      `WHERE ${where.join(' AND ')} ORDER BY r.number, r.carrier LIMIT ?`,
    [...params, q.limit],
  );
  return rows.map((r) => {
    const parcel = parcelOf(r);
    // One message per state entered: a parcel stuck again after news, or late for a new window, is a new change.
    const key = [q.stuck ? `stuck:${str(r.news) ?? ''}` : '', q.late ? `late:${parcel.eta_to ?? ''}` : '']
      .filter(Boolean)
      .join('|');
    return {
      parcel,
      change: {
        id: null,
        key,
        from_status: null,
        to_status: parcel.package_status,
        to_sub_status: parcel.sub_status,
        event_time: parcel.latest_event_time,
        detected_at: str(r.news) ?? '',
      },
    };
  });
}

const LEDGER_COLUMNS = [
  'claim',
  'rule_id',
  'number',
  'carrier',
  'change_key',
  'target',
  'payload',
  'message_id',
  'claimed_at',
  'next_attempt_at',
] as const;

export async function claim(sql: Sql, c: LedgerClaim): Promise<number | undefined> {
  return sql.transaction(async (tx) => {
    const rows = await tx.all(
      `INSERT INTO notify_ledger (${LEDGER_COLUMNS.join(', ')}, outcome, attempts) ` +
        `VALUES (${LEDGER_COLUMNS.map(() => '?').join(', ')}, 'pending', 1) ` +
        'ON CONFLICT (claim) DO NOTHING RETURNING id',
      LEDGER_COLUMNS.map((k) => c[k]),
    );
    return rows[0] ? int(rows[0].id) : undefined;
  });
}

export async function retake(sql: Sql, id: number, seen: string, hold: string): Promise<boolean> {
  return sql.transaction(
    async (tx) =>
      (
        await tx.run(
          "UPDATE notify_ledger SET outcome = 'pending', attempts = attempts + 1, next_attempt_at = ? " +
            "WHERE id = ? AND outcome IN ('pending', 'failed') AND next_attempt_at = ?",
          [hold, id, seen],
        )
      ).changes > 0,
  );
}

export async function settle(sql: Sql, ids: readonly number[], how: LedgerSettle): Promise<void> {
  await sql.transaction(async (tx) => {
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      await tx.run(
        'UPDATE notify_ledger SET outcome = ?, done_at = ?, next_attempt_at = ?, error = ? ' +
          `WHERE id IN (${part.map(() => '?').join(', ')})`,
        [how.outcome, how.at, how.next_attempt_at ?? null, how.error ?? null, ...part],
      );
    }
  });
}

export async function lastChange(sql: Sql): Promise<number> {
  return int((await sql.all('SELECT coalesce(max(id), 0) AS id FROM changes'))[0]?.id);
}

function ledgerOf(r: Row): LedgerRow {
  return {
    id: int(r.id),
    claim: String(r.claim),
    rule_id: int(r.rule_id),
    number: String(r.number),
    carrier: int(r.carrier),
    change_key: String(r.change_key),
    target: String(r.target),
    payload: String(r.payload),
    message_id: String(r.message_id),
    claimed_at: String(r.claimed_at),
    next_attempt_at: String(r.next_attempt_at ?? ''),
    outcome: String(r.outcome) as LedgerOutcome,
    attempts: int(r.attempts),
    done_at: str(r.done_at),
    error: str(r.error),
  };
}

export async function dueMessages(
  sql: Sql,
  ruleId: number,
  now: string,
  afterId: number,
  limit: number,
): Promise<LedgerRow[]> {
  const rows = await sql.all(
    "SELECT * FROM notify_ledger WHERE rule_id = ? AND outcome IN ('pending', 'failed') AND next_attempt_at <= ? " +
      'AND id > ? ORDER BY id LIMIT ?',
    [ruleId, now, afterId, limit],
  );
  return rows.map(ledgerOf);
}

export async function claimed(sql: Sql, claims: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < claims.length; i += 500) {
    const part = claims.slice(i, i + 500);
    const rows = await sql.all(
      `SELECT claim FROM notify_ledger WHERE claim IN (${part.map(() => '?').join(', ')})`,
      part,
    );
    for (const r of rows) out.add(String(r.claim));
  }
  return out;
}

export async function ledgerCounts(sql: Sql): Promise<LedgerCount[]> {
  const rows = await sql.all('SELECT rule_id, outcome, count(*) AS n FROM notify_ledger GROUP BY rule_id, outcome');
  return rows.map((r) => ({ rule_id: int(r.rule_id), outcome: String(r.outcome) as LedgerOutcome, count: int(r.n) }));
}
