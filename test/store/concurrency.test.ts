// Writers at once on one mirror, as hosts are (kinds.ts: separate connections to PostgreSQL; SQLite's writers in one
// process share its connection, and two processes are in test/e2e/mirror.e2e.test.ts): no update lost, no record or
// change twice, older answers never over newer ones, and a cursor that never passes a change committed after it.

import { describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { PostgresStore } from '../../src/store/postgres.js';
import { detailsRow, recordRow } from '../../src/store/rows.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import type { Store } from '../../src/store/types.js';
import { fixtureJson } from '../fixture-files.js';
import { all, STORE_KINDS } from './kinds.js';

const listed = fixtureJson('doc-v2/gettracklist_page.json').data.accepted[0] as Record<string, unknown>;
const yanwen = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0] as Record<string, any>;

const numbers = (n: number, prefix = 'YT') =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(10, '0')}`);

function details(number: string, status: string, syncTime: string) {
  const item = structuredClone(yanwen);
  item.number = number;
  item.track_info.latest_status = { status, sub_status: `${status}_Other`, sub_status_descr: null };
  for (const p of item.track_info.tracking.providers) p.latest_sync_time = syncTime;
  return detailsRow(item, 'v2', null);
}

function record(number: string, status: string, trackTime: string) {
  return recordRow({ ...listed, number, carrier: 190012, package_status: status, track_time: trackTime }, 'v2.1');
}

/** `list` in slices of `size`, each written by `write`, all at once. */
function inSlices<T>(list: readonly T[], size: number, write: (slice: T[]) => Promise<unknown>): Promise<unknown[]> {
  const slices: T[][] = [];
  for (let i = 0; i < list.length; i += size) slices.push(list.slice(i, i + size));
  return Promise.all(slices.map(write));
}

describe.each(STORE_KINDS)('writers at once on one mirror ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});

  it('two syncs listing the same records at once add each once, and the newer answer stays', async () => {
    const [a, b] = await kind.hosts(await kind.fresh(), 2);
    const list = numbers(300, 'RR');
    // Host a lists what host b listed an hour earlier; their pages interleave, in opposite orders.
    const older = list.map((n) => record(n, 'InTransit', '2026-08-02T10:00:00Z'));
    const newer = list.map((n) => record(n, 'Delivered', '2026-08-02T11:00:00Z'));
    const [addedA, addedB] = await Promise.all([
      inSlices(newer, 40, (s) => a!.writeRecords(s)),
      inSlices([...older].reverse(), 40, (s) => b!.writeRecords(s)),
    ]);
    const added = [...addedA, ...addedB].reduce((n: number, r) => n + (r as { added: number }).added, 0);
    expect(added).toBe(300);
    expect(await a!.counts()).toMatchObject({ records: 300 });
    expect(await all(b!.records({ anyOf: { package_status: ['InTransit'] } }))).toEqual([]);
  });

  it('details written by two hosts at once record each change once, whatever the order of their batches', async () => {
    const location = await kind.fresh();
    const [a, b] = await kind.hosts(location, 2);
    const list = numbers(120);
    await inSlices(list, 40, (s) =>
      a!.writeDetails(
        s.map((n) => details(n, 'InTransit', '2026-06-01T00:00:00Z')),
        'sync',
      ),
    );
    // The same news from a listener and a sync at once, batches in opposite orders (a deadlock without one order
    // of locks).
    const news = list.map((n) => details(n, 'Delivered', '2026-06-03T00:00:00Z'));
    const [viaA, viaB] = await Promise.all([
      inSlices(news, 10, (s) => a!.writeDetails(s, 'webhook')),
      inSlices([...news].reverse(), 10, (s) => b!.writeDetails(s, 'sync')),
    ]);
    const recorded = [...viaA, ...viaB].flatMap((w) => (w as Awaited<ReturnType<Store['writeDetails']>>).changes);
    expect(recorded).toHaveLength(120);
    const changes = await a!.changes({});
    expect(changes).toHaveLength(120);
    expect(new Set(changes.map((c) => c.number)).size).toBe(120);
    expect(changes.every((c) => c.from_status === 'InTransit' && c.to_status === 'Delivered')).toBe(true);
  });

  it('never puts older details over newer ones written by another host at the same time', async () => {
    const [a, b] = await kind.hosts(await kind.fresh(), 2);
    const list = numbers(100);
    await Promise.all([
      inSlices(list, 20, (s) =>
        a!.writeDetails(
          s.map((n) => details(n, 'Delivered', '2026-06-05T00:00:00Z')),
          'webhook',
        ),
      ),
      inSlices([...list].reverse(), 20, (s) =>
        b!.writeDetails(
          s.map((n) => details(n, 'InTransit', '2026-06-04T00:00:00Z')),
          'sync',
        ),
      ),
    ]);
    const held = await a!.details(list);
    expect(held.details.map((d) => JSON.parse(d.raw).track_info.latest_status.status)).toEqual(
      list.map(() => 'Delivered'),
    );
    // Each number's changes lead to Delivered, never back.
    const last = new Map<string, string | null>();
    for (const c of await b!.changes({})) last.set(c.number, c.to_status);
    expect([...last.values()].every((s) => s === 'Delivered')).toBe(true);
  });

  it('a cursor read while two hosts record changes passes every change exactly once', async () => {
    const [a, b, reader] = await kind.hosts(await kind.fresh(), 3);
    const seen: number[] = [];
    let writing = true;
    const read = async () => {
      for (;;) {
        const done = !writing;
        const changes = await reader!.changes({ afterId: await reader!.cursor('nightly') });
        seen.push(...changes.map((c) => c.id));
        if (changes.length > 0) await reader!.advanceCursor('nightly', changes.at(-1)!.id);
        if (done) return;
        // Real time: a pause between reads, while the writers' connections go on.
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    const write = async (host: Store, prefix: string) => {
      // Each notification of a number it did not know is a change: batches of a few, one after the other.
      const list = numbers(240, prefix);
      for (let i = 0; i < list.length; i += 6) {
        await host.writeDetails(
          list.slice(i, i + 6).map((n) => details(n, 'InTransit', '2026-06-01T00:00:00Z')),
          'webhook',
        );
      }
    };
    const reading = read();
    await Promise.all([write(a!, 'AA'), write(b!, 'BB'), write(a!, 'CC'), write(b!, 'DD')]);
    writing = false;
    await reading;
    const ids = (await a!.changes({})).map((c) => c.id);
    expect(ids).toHaveLength(960);
    expect(seen).toEqual(ids);
  });

  it('a cursor advanced by one host is where the others find it', async () => {
    const [a, b] = await kind.hosts(await kind.fresh(), 2);
    await a!.writeDetails([details('YT0000000001', 'InTransit', '2026-06-01T00:00:00Z')], 'webhook');
    const [change] = await b!.changes({});
    await b!.advanceCursor('nightly', change!.id);
    expect(await a!.cursor('nightly')).toBe(change!.id);
    await a!.advanceCursor('nightly', change!.id - 1);
    expect(await b!.cursor('nightly')).toBe(change!.id);
  });
});

const pg = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;

describe.skipIf(pg.missing !== undefined)('the PostgreSQL store started by several hosts at once', () => {
  it('migrates a new database once, under a lock', async () => {
    const location = await pg.fresh();
    const stores = await Promise.all(Array.from({ length: 6 }, () => pg.open(location)));
    for (const s of stores) expect(await s.counts()).toEqual({ records: 0, details: 0, changes: 0 });
    const sql = postgres(location, { onnotice: () => {}, max: 1 });
    try {
      // Each migration once.
      const versions = Array.from({ length: SCHEMA_VERSION }, (_, i) => ({ version: i + 1 }));
      expect(await sql`SELECT version FROM migrations ORDER BY version`).toEqual(versions);
    } finally {
      await sql.end();
    }
  });

  it('refuses a database that holds no mirror for reading, and creates nothing in it', async () => {
    const location = await pg.fresh();
    await expect(PostgresStore.open(location, { mustExist: true })).rejects.toThrow(
      /no mirror in the database postgres:\/\/trk:\*\*\*@/,
    );
    const sql = postgres(location, { onnotice: () => {}, max: 1 });
    try {
      expect(await sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`).toEqual([{ n: 0 }]);
    } finally {
      await sql.end();
    }
  });
});
