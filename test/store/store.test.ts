// The store's behaviour, run against each store (kinds.ts): the SQLite file and a PostgreSQL database.
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import Database from 'libsql';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import type { TrkError } from '../../src/core/errors.js';
import { REPORT_INDEXES } from '../../src/store/report-sql.js';
import { MIGRATIONS, MIGRATIONS_TABLE, POSTGRES, READABLE_FROM, SQLITE } from '../../src/store/schema.js';
import { detailsOfNumber, recordsWithoutDetails } from '../../src/store/sql.js';
import { detailsRow, recordRow } from '../../src/store/rows.js';
import type { RecordQuery, Store } from '../../src/store/types.js';
import { fixtureJson } from '../fixture-files.js';
import { all, freshStore, STORE_KINDS, type StoreKind } from './kinds.js';

const page = fixtureJson('doc-v2/gettracklist_page.json').data.accepted as Record<string, unknown>[];
const yanwen = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0] as Record<string, any>;

/** The yanwen details with another status and sync time. */
function details(status: string, syncTime: string, sub = `${status}_Other`): Record<string, any> {
  const item = structuredClone(yanwen);
  item.track_info.latest_status = { status, sub_status: sub, sub_status_descr: null };
  for (const p of item.track_info.tracking.providers) p.latest_sync_time = syncTime;
  return item;
}

describe('the SQLite store', () => {
  const sqlite = STORE_KINDS.find((k) => k.name === 'SQLite')!;

  it('creates its file for the owner alone', async () => {
    const file = await sqlite.fresh();
    await sqlite.open(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("gives a mirror migrated to 2 the report's indexes as they are now (migration 3)", async () => {
    const file = await sqlite.fresh();
    // As the trk of migration 2 left it: its index of records in another order, no index of returned parcels.
    await execute(sqlite, file, [
      ...MIGRATIONS.slice(0, 2).flatMap((m) => m(SQLITE)),
      'CREATE INDEX records_report ON records (carrier, (substr(register_time, 1, 10)), origin_country)',
      MIGRATIONS_TABLE,
      'INSERT INTO migrations (version) VALUES (1), (2)',
    ]);
    await sqlite.open(file);
    const indexes = new Database(file, { readonly: true });
    try {
      const made = indexes.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all();
      expect(made.map((r) => (r as { sql: string }).sql)).toEqual(expect.arrayContaining([...REPORT_INDEXES]));
    } finally {
      indexes.close();
    }
  });

  it('opened read-only, reads the mirror as it is and writes nothing, not even its migrations', async () => {
    const file = await sqlite.fresh();
    const writer = await sqlite.open(file);
    await writer.writeRecords([recordRow(page[0], 'v2.1')]);
    await writer.close();
    const reader = await sqlite.open(file, { readOnly: true });
    expect(await reader.writable()).toBe(false);
    expect(await all(reader.records({}))).toHaveLength(1);
    await expect(reader.setState({ account: 'a1' })).rejects.toThrow(/readonly/);
    await reader.close();
    // As a trk of the schema before find's table left it: read as it is it would not answer find, and it cannot be
    // brought up to date here.
    const db = new Database(file);
    db.exec(`DELETE FROM migrations WHERE version >= ${READABLE_FROM}`);
    db.close();
    await expect(sqlite.open(file, { readOnly: true })).rejects.toThrow(/is of an older trk \(schema 3\)/);
    const migrations = new Database(file);
    expect(migrations.prepare('SELECT max(version) AS v FROM migrations').get()).toMatchObject({ v: 3 });
    migrations.close();
  });

  it('names the file and the way out where a page is damaged: in a query, and in its check of every page', async () => {
    const file = await sqlite.fresh();
    const found: string[] = [];
    const store = await sqlite.open(file, { found: (detail) => found.push(detail) });
    await store.writeRecords([recordRow(page[0], 'v2.1')]);
    await store.check();
    const db = new Database(file);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const { rootpage } = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'records'").get() as {
      rootpage: number;
    };
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, (rootpage - 1) * 4096);
    closeSync(fd);
    const reader = await sqlite.open(file, { found: (detail) => found.push(detail) });
    const wayOut = /: make a new one with "trk sync --full --db NEW\.db" and read that, or move this one aside/;
    for (const [failing, detail] of [
      [all(reader.records({})), 'database disk image is malformed'],
      [reader.check(), 'quick check: '],
    ] as const) {
      const err = (await failing.then(
        () => undefined,
        (e: unknown) => e,
      )) as TrkError;
      expect(err.toLine()).toMatch(new RegExp(`^the mirror ${file} is damaged \\(${detail}`));
      expect(err.toLine()).toMatch(wayOut);
    }
    expect(found).toEqual(['database disk image is malformed', expect.stringMatching(/^quick check: /)]);
  });

  it('refuses to read as it is a mirror of a newer trk, or one that holds no mirror', async () => {
    const newer = await sqlite.fresh();
    await (await sqlite.open(newer)).close();
    const db = new Database(newer);
    db.exec('INSERT INTO migrations (version) VALUES (99)');
    db.close();
    await expect(sqlite.open(newer, { readOnly: true })).rejects.toThrow(/was written by a newer trk \(schema 99,/);
    const empty = await sqlite.fresh();
    new Database(empty).close();
    await expect(sqlite.open(empty, { readOnly: true })).rejects.toThrow(
      /is of an older trk \(schema 0\) and cannot be brought up to date here/,
    );
  });
});

describe('the SQLite store, without statistics', () => {
  const sqlite = STORE_KINDS.find((k) => k.name === 'SQLite')!;

  it("looks a number up by the number's index, with a carrier too (not by the report's, the carrier's)", async () => {
    const file = await sqlite.fresh();
    await sqlite.open(file);
    const db = new Database(file, { readonly: true });
    try {
      for (const byCarrier of [false, true]) {
        for (const sql of [detailsOfNumber(byCarrier), recordsWithoutDetails(byCarrier)]) {
          const params = byCarrier ? ['rr123456789cn', 3011] : ['rr123456789cn'];
          const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
          expect(plan[0]!.detail, sql).toMatch(/^SEARCH \w+ USING INDEX (records|details)_number_any_case /);
        }
      }
    } finally {
      db.close();
    }
  });
});

describe.each(STORE_KINDS)('the $name store', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  const store = () => freshStore(kind);

  it('migrates a new mirror once, and opens it again as it is', async () => {
    const location = await kind.fresh();
    const a = await kind.open(location);
    await a.setState({ account: 'a1' });
    const b = await kind.open(location);
    expect(await a.counts()).toEqual({ records: 0, details: 0, changes: 0 });
    expect(await b.counts()).toEqual({ records: 0, details: 0, changes: 0 });
    expect(await b.state('account')).toBe('a1');
  });

  it('tells whether it can be written: not in a session the database lets read only', async () => {
    const location = await kind.fresh();
    expect(await (await kind.open(location)).writable()).toBe(true);
    const readOnly =
      kind.name === 'SQLite'
        ? await kind.open(location, { readOnly: true })
        : await kind.open(`${location}&default_transaction_read_only=on`);
    expect(await readOnly.writable()).toBe(false);
  });

  it('keeps every field of a list record as a column, times in one form, and the item as received', async () => {
    const s = await store();
    const row = recordRow(page[0], 'v2.1');
    expect(row).toMatchObject({
      number: 'AA123456789BR',
      carrier: 2151,
      order_no: '86574382938',
      tag: 'order-1042',
      email: null,
    });
    expect(row.latest_event_time).toBe('2026-06-30T17:23:00.000Z');
    expect(await s.writeRecords([row])).toEqual({ added: 1 });
    expect(await s.writeRecords([row])).toEqual({ added: 0 });
    const [stored] = await all(s.records({}));
    expect(JSON.parse(stored!.raw)).toEqual(page[0]);
  });

  it('never lets an older list answer overwrite a newer one', async () => {
    const s = await store();
    const newer = recordRow({ ...page[0], package_status: 'Delivered', track_time: '2026-07-01T00:00:00Z' }, 'v2.1');
    const older = recordRow({ ...page[0], package_status: 'InTransit', track_time: '2026-06-29T00:00:00Z' }, 'v2.1');
    await s.writeRecords([newer]);
    await s.writeRecords([older]);
    expect(await all(s.records({ anyOf: { package_status: ['Delivered'] } }))).toHaveLength(1);
    expect(await all(s.records({ anyOf: { package_status: ['InTransit'] } }))).toHaveLength(0);
  });

  it('records a change when details move, not on a first sync, and never older over newer', async () => {
    const s = await store();
    const first = await s.writeDetails(
      [detailsRow(details('InTransit', '2026-06-29T13:00:00Z'), 'v2', '2026-06-29T13:00:00.000Z')],
      'sync',
    );
    expect(first.changes).toEqual([]);
    const moved = await s.writeDetails([detailsRow(details('Delivered', '2026-07-02T13:00:00Z'), 'v2', null)], 'sync');
    expect(moved.changes).toEqual([
      expect.objectContaining({
        number: 'YT2616912345678901',
        from_status: 'InTransit',
        to_status: 'Delivered',
        source: 'sync',
        detected_at: '2026-07-02T13:00:00.000Z',
      }),
    ]);
    const stale = await s.writeDetails(
      [detailsRow(details('Exception', '2026-07-01T13:00:00Z'), 'v2', null)],
      'webhook',
    );
    expect(stale).toEqual({ stored: 0, changes: [] });
    const { details: held } = await s.details(['yt2616912345678901']);
    expect(JSON.parse(held[0]!.raw).track_info.latest_status.status).toBe('Delivered');
  });

  it("takes details that answer a newer tracking of the record, though their providers' time went back", async () => {
    const s = await store();
    const listed = (status: string, trackTime: string) =>
      recordRow(
        { ...page[0], number: yanwen.number, carrier: yanwen.carrier, package_status: status, track_time: trackTime },
        'v2',
      );
    const synced = async (record: ReturnType<typeof listed>, item: Record<string, any>) => {
      await s.writeRecords([record]);
      const [pending] = await s.pendingDetails(undefined, 10);
      return s.writeDetails([detailsRow(item, 'v2', pending!.track_time)], 'sync');
    };
    await synced(listed('NotFound', '2026-06-29T13:00:00Z'), details('NotFound', '2026-06-29T13:00:00Z'));
    // Tracked again a day later: InTransit, though the answer's providers say they synced a day before that.
    const moved = await synced(
      listed('InTransit', '2026-06-30T13:00:00Z'),
      details('InTransit', '2026-06-28T13:00:00Z'),
    );
    expect(moved.stored).toBe(1);
    expect(moved.changes).toEqual([
      expect.objectContaining({
        from_status: 'NotFound',
        to_status: 'InTransit',
        detected_at: '2026-06-30T13:00:00.000Z',
      }),
    ]);
    const { details: held } = await s.details([yanwen.number]);
    expect(JSON.parse(held[0]!.raw).track_info.latest_status.status).toBe('InTransit');
    expect(await s.pendingDetails(undefined, 10)).toEqual([]);
  });

  it('asks for details no more once fetched for the record as it stands, whatever they say', async () => {
    const s = await store();
    const record = { ...page[0], number: yanwen.number, carrier: yanwen.carrier, track_time: '2026-06-30T13:00:00Z' };
    await s.writeRecords([recordRow({ ...record, package_status: 'InTransit' }, 'v2')]);
    const [asked] = await s.pendingDetails(undefined, 10);
    // A notification of a later tracking is stored while the sync's request is on its way: the sync's answer is
    // the older, and the record's tracking is answered all the same.
    await s.writeDetails([detailsRow(details('InTransit', '2026-06-30T19:00:00Z'), 'v2', null)], 'webhook');
    const older = await s.writeDetails(
      [detailsRow(details('NotFound', '2026-06-30T12:00:00Z'), 'v2', asked!.track_time)],
      'sync',
    );
    expect(older).toEqual({ stored: 0, changes: [] });
    expect(await s.pendingDetails(undefined, 10)).toEqual([]);
    // Details whose status is not the list's, fetched for the record's tracking time: what the service says.
    await s.writeRecords([
      recordRow({ ...record, package_status: 'Delivered', track_time: '2026-07-01T13:00:00Z' }, 'v2'),
    ]);
    const [again] = await s.pendingDetails(undefined, 10);
    await s.writeDetails([detailsRow(details('InTransit', '2026-07-01T12:00:00Z'), 'v2', again!.track_time)], 'sync');
    expect(await s.pendingDetails(undefined, 10)).toEqual([]);
  });

  it('takes a notification of a number it did not know as a change from null, with a record', async () => {
    const s = await store();
    const w = await s.writeDetails([detailsRow(details('InTransit', '2026-06-29T13:00:00Z'), 'v2', null)], 'webhook');
    expect(w.changes).toEqual([
      expect.objectContaining({ from_status: null, to_status: 'InTransit', source: 'webhook' }),
    ]);
    expect(await all(s.records({ numbers: ['YT2616912345678901', 'X'] }))).toHaveLength(1);
    const same = await s.writeDetails(
      [detailsRow(details('InTransit', '2026-06-30T13:00:00Z'), 'v2', null)],
      'webhook',
    );
    expect(same.changes).toEqual([]);
  });

  it('gives each change of a batch of notifications the id recorded for its own number', async () => {
    const s = await store();
    const known = { ...page[0], number: 'YT0000000003', carrier: yanwen.carrier, package_status: 'NotFound' };
    await s.writeRecords([recordRow(known, 'v2')]);
    // Numbers the mirror did not know and one it listed, written in one statement whatever the order of its rows.
    const numbers = ['YT0000000005', 'YT0000000001', 'YT0000000003', 'YT0000000004', 'YT0000000002'];
    const statuses = ['InTransit', 'Delivered', 'Exception', 'AvailableForPickup', 'OutForDelivery'];
    const rows = numbers.map((number, i) =>
      detailsRow({ ...details(statuses[i]!, '2026-06-29T13:00:00Z'), number }, 'v2', null),
    );
    const w = await s.writeDetails(rows, 'webhook');
    const recorded = await s.changes({});
    expect(w.changes.map((c) => [c.id, c.number, c.from_status, c.to_status])).toEqual(
      recorded.map((c) => [c.id, c.number, c.from_status, c.to_status]),
    );
    expect(new Map(recorded.map((c) => [c.number, [c.from_status, c.to_status]]))).toEqual(
      new Map(numbers.map((n, i) => [n, [n === known.number ? 'NotFound' : null, statuses[i]]])),
    );
  });

  it("patches a notification's news into the record as the list answer writes it (the carrier's offset)", async () => {
    const s = await store();
    const listed = { ...page[0], number: yanwen.number, carrier: yanwen.carrier, track_time: '2026-06-28T00:00:00Z' };
    await s.writeRecords([recordRow(listed, 'v2')]);
    await s.writeDetails([detailsRow(details('InTransit', '2026-06-29T13:00:00Z'), 'v2', null)], 'webhook');
    const [record] = await all(s.records({ numbers: [yanwen.number] }));
    const raw = JSON.parse(record!.raw);
    // As `trk list` online shows it (and `list --offline` must): not the mirror's UTC form of the same moment.
    expect(raw.latest_event_time).toBe(yanwen.track_info.latest_event.time_iso);
    expect(raw.package_status).toBe('InTransit');
  });

  it('knows which records need details, and which a full sync did not see', async () => {
    const s = await store();
    const rows = ['AB0000000003', 'AB0000000001', 'AB0000000002'].map((number) =>
      recordRow({ ...page[0], number }, 'v2.1'),
    );
    const full = await s.nextFullSync();
    await s.writeRecords(rows.slice(0, 2), full);
    await s.writeRecords(rows.slice(2));
    expect((await s.pendingDetails(undefined, 10)).map((k) => k.number)).toEqual(rows.map((r) => r.number).sort());
    expect((await s.pendingDetails(rows[1], 10)).map((k) => k.number)).toEqual(['AB0000000002', 'AB0000000003']);
    expect((await s.unseen(full, undefined, 10)).map((k) => k.number)).toEqual([rows[2]!.number]);
    expect(await s.deleteRecords([rows[2]!])).toBe(1);
  });

  it('finds records by tag pattern, order number, e-mail and search text, any case', async () => {
    const s = await store();
    const rows = [
      recordRow(
        { ...page[0], number: 'AB0000000001', tag: 'Order-10030', order_no: '#10030', email: 'Ann@Example.com' },
        'v2.1',
      ),
      recordRow(
        { ...page[0], number: 'AB0000000002', tag: 'order-20000', order_no: '#20000', email: 'bob@example.com' },
        'v2.1',
      ),
    ];
    await s.writeRecords(rows);
    const numbers = async (q: Parameters<Store['records']>[0]) =>
      (await all(s.records(q))).map((r) => JSON.parse(r.raw).number);
    expect(await numbers({ tags: ['order-1*'] })).toEqual(['AB0000000001']);
    expect(await numbers({ tags: ['*003*', 'ORDER-2*'] })).toEqual(['AB0000000001', 'AB0000000002']);
    expect(await numbers({ order: '#20000' })).toEqual(['AB0000000002']);
    expect(await numbers({ email: 'ann@example.COM' })).toEqual(['AB0000000001']);
    expect(await numbers({ search: 'ann@' })).toEqual(['AB0000000001']);
    expect(await numbers({ search: 'ab0000000002' })).toEqual(['AB0000000002']);
    expect(await numbers({ search: '#100' })).toEqual(['AB0000000001']);
    expect(await numbers({ numbers: ['0002'] })).toEqual(['AB0000000002']);
    expect(await numbers({ orderBy: 'RegisterTimeDesc' })).toEqual(['AB0000000002', 'AB0000000001']);
  });

  it('searches by the start of the text as written, as SQLite compares, whatever the database sorts by', async () => {
    const s = await store();
    // A zero-width space pasted into a tag: a database sorting by a language's rules ignores it.
    await s.writeRecords([
      recordRow({ ...page[0], number: 'AB0000000001', tag: 'order-10030' }, 'v2.1'),
      recordRow({ ...page[0], number: 'AB0000000002', tag: 'order-\u200b10031' }, 'v2.1'),
      recordRow({ ...page[0], number: 'AB0000000003', tag: 'or\u00adder-10032' }, 'v2.1'),
    ]);
    const numbers = async (q: RecordQuery) => (await all(s.records(q))).map((r) => JSON.parse(r.raw).number);
    expect(await numbers({ search: 'order-1003' })).toEqual(['AB0000000001']);
    expect(await numbers({ tags: ['order-1003*'] })).toEqual(['AB0000000001']);
  });

  it('finds any part of a number, tag, order number or e-mail, literally, letters A to Z in any case', async () => {
    const s = await store();
    const parcels: [string, string | null, string | null, string | null][] = [
      ['AB0000000001', '50%_off', '#2041', 'Ann@Example.com'],
      ['AB0000000002', '50x off', '#12041', "o'brien@example.com"],
      ['AB0000000003', 'a\\b "quoted"', '#99', '\u00dcBER@example.de'],
      ['AB0000000004', 'order-5000', null, null],
      ['CD0000020410', null, null, null],
    ];
    await s.writeRecords(
      parcels.map(([number, tag, order_no, email]) =>
        recordRow({ ...page[0], number, carrier: 3011, tag, order_no, email }, 'v2.1'),
      ),
    );
    const found = async (text: string, limit = 100) => (await s.find(text, limit)).map((k) => k.number.slice(-2));
    // In the order the mirror first saw them.
    expect(await found('2041')).toEqual(['01', '02', '10']);
    expect(await found('#2041')).toEqual(['01']);
    expect(await found('ANN@EXAMPLE.')).toEqual(['01']);
    expect(await found('ab000000000')).toEqual(['01', '02', '03', '04']);
    expect(await found('0', 2)).toEqual(['01', '02']);
    // Wildcards of LIKE, its escape character and quotes match themselves, however short the text.
    for (const [text, numbers] of [
      ['%_o', ['01']],
      ['0%', ['01']],
      ['%', ['01']],
      ['_', ['01']],
      ['%_', ['01']],
      ['0_', []],
      ["o'b", ['02']],
      ["'", ['02']],
      ['"quoted"', ['03']],
      ['"', ['03']],
      ['a\\b', ['03']],
      ['\\', ['03']],
      ['x o', ['02']],
      ['nothing here', []],
    ] as const) {
      expect(await found(text), text).toEqual(numbers);
    }
    // Other letters as written, on every database alike.
    expect(await found('\u00dcbEr')).toEqual(['03']);
    expect(await found('\u00fcber')).toEqual([]);
    // Two characters of three UTF-16 units: shorter than a trigram.
    await s.writeRecords([recordRow({ ...page[0], number: 'EF0000000005', carrier: 3011, tag: '\u{1F4E6}1' }, 'v2.1')]);
    expect(await found('\u{1F4E6}1')).toEqual(['05']);
  });

  it('keeps a cursor that only moves forward', async () => {
    const s = await store();
    expect(await s.cursor('nightly')).toBe(0);
    await s.advanceCursor('nightly', 5);
    await s.advanceCursor('nightly', 3);
    expect(await s.cursor('nightly')).toBe(5);
  });
});

describe.each(STORE_KINDS)('the $name store of an older trk', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});

  it('gives a mirror of schema 3 the index find reads through (migration 4), holding its records', async () => {
    const location = await kind.fresh();
    // As the trk of schema 3 left it, with a record.
    const older = [
      ...MIGRATIONS.slice(0, 3).flatMap((m) => m(kind.name === 'SQLite' ? SQLITE : POSTGRES)),
      MIGRATIONS_TABLE,
      'INSERT INTO migrations (version) VALUES (1), (2), (3)',
      "INSERT INTO records (number, carrier, api_version, raw, order_no, as_of) VALUES ('AB0000000001', 3011, " +
        "'v2.1', '{}', '#2041', '')",
    ];
    await execute(kind, location, older);
    const s = await kind.open(location);
    expect(await s.find('2041', 10)).toEqual([{ number: 'AB0000000001', carrier: 3011 }]);
    await s.writeRecords([recordRow({ ...page[0], number: 'AB0000000002', order_no: '#12041' }, 'v2.1')]);
    expect((await s.find('2041', 10)).map((k) => k.number)).toEqual(['AB0000000001', 'AB0000000002']);
  });
});

/** Runs `statements` on the database at `location`, in order, as sqlite3 or psql would. */
async function execute(kind: StoreKind, location: string, statements: readonly string[]): Promise<void> {
  if (kind.name === 'SQLite') {
    const db = new Database(location);
    try {
      for (const s of statements) db.exec(s);
    } finally {
      db.close();
    }
    return;
  }
  const db = postgres(location, { max: 1, onnotice: () => {} });
  try {
    for (const s of statements) await db.unsafe(s);
  } finally {
    await db.end();
  }
}

const pg = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;

describe.skipIf(pg.missing !== undefined)('the PostgreSQL store and pg_trgm', () => {
  /** Whether the mirror at `location` has find's trigram index, and whether the server has pg_trgm to make one. */
  async function trigrams(location: string): Promise<{ index: boolean; available: boolean }> {
    const db = postgres(location, { max: 1, onnotice: () => {} });
    try {
      const [row] = await db.unsafe(
        "SELECT to_regclass('records_text') IS NOT NULL AS index, " +
          "EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') AS available",
      );
      return { index: row!.index === true, available: row!.available === true };
    } finally {
      await db.end();
    }
  }

  it('indexes trigrams with pg_trgm where the server has it', async () => {
    const location = await pg.fresh();
    await (await pg.open(location)).close();
    const { index, available } = await trigrams(location);
    expect(index).toBe(available);
  });

  it('finds all the same, by reading the records, where the user may not create the extension', async () => {
    const location = await pg.fresh();
    const role = `finder_${process.pid}`;
    await execute(pg, location, [
      `CREATE ROLE ${role} LOGIN PASSWORD 'finder-pw'`,
      `GRANT CREATE ON SCHEMA public TO ${role}`,
    ]);
    const url = new URL(location);
    url.username = role;
    url.password = 'finder-pw';
    const s = await pg.open(url.toString());
    await s.writeRecords([
      recordRow({ ...page[0], number: 'AB0000000001', order_no: '#2041', tag: '50%_off' }, 'v2.1'),
      recordRow({ ...page[0], number: 'AB0000000002', order_no: '#12041', tag: '50x off' }, 'v2.1'),
    ]);
    expect(await trigrams(location)).toMatchObject({ index: false });
    expect((await s.find('2041', 10)).map((k) => k.number)).toEqual(['AB0000000001', 'AB0000000002']);
    expect((await s.find('0%_', 10)).map((k) => k.number)).toEqual(['AB0000000001']);
  });
});
