// The store's behaviour, run against each store (kinds.ts): the SQLite file and a PostgreSQL database.
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import type { TrkError } from '../../src/errors.js';
import { REPORT_INDEXES } from '../../src/store/report-sql.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { detailsRow, recordRow } from '../../src/store/rows.js';
import type { RecordQuery, Store } from '../../src/store/types.js';
import { fixtureJson } from '../fixture-files.js';
import { all, freshStore, STORE_KINDS } from './kinds.js';

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
    await (await SqliteStore.open(file)).close();
    // As the trk of migration 2 left it: its index of records in another order, no index of returned parcels.
    const db = new Database(file);
    db.exec('DELETE FROM migrations WHERE version = 3; DROP INDEX records_report; DROP INDEX details_returned');
    db.exec('CREATE INDEX records_report ON records (carrier, (substr(register_time, 1, 10)), origin_country)');
    db.close();
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
    // As a trk of migration 2 left it: migrations after the first add indexes, which a read does without.
    const db = new Database(file);
    db.exec('DELETE FROM migrations WHERE version = 3');
    db.close();
    const reader = await sqlite.open(file, { readOnly: true });
    expect(await reader.writable()).toBe(false);
    expect(await all(reader.records({}))).toHaveLength(1);
    await expect(reader.setState({ account: 'a1' })).rejects.toThrow(/readonly/);
    const migrations = new Database(file);
    expect(migrations.prepare('SELECT max(version) AS v FROM migrations').get()).toMatchObject({ v: 2 });
    migrations.close();
    expect(await (await sqlite.open(file)).writable()).toBe(true);
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

  it('keeps a cursor that only moves forward', async () => {
    const s = await store();
    expect(await s.cursor('nightly')).toBe(0);
    await s.advanceCursor('nightly', 5);
    await s.advanceCursor('nightly', 3);
    expect(await s.cursor('nightly')).toBe(5);
  });
});
