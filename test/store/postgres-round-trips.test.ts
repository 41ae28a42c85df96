// The store's writes to PostgreSQL in as few round trips as they allow (src/store/postgres-transaction.ts): a
// transaction's BEGIN sent with its first statements and its COMMIT with its last, proved by a proxy that holds the
// server's answers back until trk has sent them (a write that waited for an answer first would never end), and what
// new details bring (records, changes) a statement for many records; a sync's details read no stored list answers;
// the store's other writes as few round trips.
// And what a transaction guarantees kept: a statement that fails after the commit was sent leaves nothing written.

import { afterEach, describe, expect, it } from 'vitest';
import { detailsRow, recordRow } from '../../src/store/rows.js';
import type { RecordRow } from '../../src/store/types.js';
import { fixtureJson } from '../fixture-files.js';
import { all, STORE_KINDS } from './kinds.js';
import { wireProxy, type WireProxy } from './wire-proxy.js';

const pg = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;
const listed = fixtureJson('doc-v2/gettracklist_page.json').data.accepted[0] as Record<string, unknown>;
const yanwen = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0] as Record<string, any>;

const numbers = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `YT${String(from + i).padStart(10, '0')}`);
const records = (list: readonly string[]) =>
  list.map((number) => recordRow({ ...listed, number, carrier: 190012 }, 'v2.1'));
const details = (list: readonly string[]) =>
  list.map((number) => detailsRow({ ...structuredClone(yanwen), number }, 'v2', null));

/** The statements sent from the `from`th on, each by its first three words. */
const sentSince = (proxy: WireProxy, from: number) =>
  proxy.statements.slice(from).map((s) => s.split(/\s+/).slice(0, 3).join(' '));

let proxy: WireProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe.skipIf(pg.missing !== undefined)('the PostgreSQL store in few round trips', () => {
  it('writes a page of records in one round trip: BEGIN, the statements and COMMIT before any answer', async () => {
    proxy = await wireProxy(await pg.fresh());
    const store = await pg.open(proxy.url);
    // The connection's statements prepared (the first run of each asks the server for its parameters' types).
    await store.writeRecords(records(numbers(0, 40)));
    const from = proxy.statements.length;
    proxy.holdAnswers('COMMIT');
    expect(await store.writeRecords(records(numbers(100, 40)))).toEqual({ added: 40 });
    expect(sentSince(proxy, from)).toEqual([
      'BEGIN',
      'SELECT count(pg_advisory_xact_lock(k)) FROM',
      'SELECT number FROM',
      'INSERT INTO records',
      'INSERT INTO records',
      'COMMIT',
    ]);
  });

  it('writes notifications in two round trips: reads with BEGIN, writes with COMMIT, a statement each', async () => {
    proxy = await wireProxy(await pg.fresh());
    const store = await pg.open(proxy.url);
    await store.writeDetails(details(numbers(0, 8)), 'webhook');
    const from = proxy.statements.length;
    // Answered only once the reads are sent; then, once the writes begin, only once the COMMIT is.
    proxy.holdAnswers('FROM records WHERE');
    proxy.holdAnswers('COMMIT', 'INSERT INTO details');
    const written = await store.writeDetails(details(numbers(100, 8)), 'webhook');
    expect(written.changes.map((c) => [c.number, c.from_status, c.to_status])).toEqual(
      numbers(100, 8).map((n) => [n, null, yanwen.track_info.latest_status.status]),
    );
    // Eight notifications of numbers the mirror did not know: their details, records and changes a statement each.
    expect(sentSince(proxy, from)).toEqual([
      'BEGIN',
      'SELECT count(pg_advisory_xact_lock(k)) FROM',
      'SELECT number, carrier,',
      'SELECT number, carrier,',
      'INSERT INTO details',
      'INSERT INTO records',
      'SELECT pg_advisory_xact_lock(CAST($1 AS',
      'INSERT INTO changes',
      'COMMIT',
    ]);
  });

  it("reads the records' stored list answers for notifications alone, which patch them", async () => {
    proxy = await wireProxy(await pg.fresh());
    const store = await pg.open(proxy.url);
    await store.writeRecords(records(numbers(0, 4)));
    const from = proxy.statements.length;
    await store.writeDetails(details(numbers(0, 4)), 'sync');
    const sync = proxy.statements.slice(from).find((s) => s.includes('FROM records WHERE'));
    await store.writeDetails(details(numbers(0, 4)), 'webhook');
    const webhook = proxy.statements
      .slice(from)
      .filter((s) => s.includes('FROM records WHERE'))
      .at(-1);
    expect([sync, webhook].map((s) => /register_time, (raw|'' AS raw) FROM/.exec(s ?? '')?.[1])).toEqual([
      "'' AS raw",
      'raw',
    ]);
  });

  it('moves a cursor, writes the state or deletes records in one round trip, and a stop in two', async () => {
    proxy = await wireProxy(await pg.fresh());
    const store = await pg.open(proxy.url);
    const [a, b, c, d] = records(numbers(0, 4));
    await store.writeRecords([a!, b!, c!, d!]);
    const stop = { tag: null, param: null };
    // Each statement prepared once.
    await store.setState({ one: '1', two: '2' });
    await store.advanceCursor('nightly', 1);
    await store.deleteRecords([a!]);
    await store.markStopped(b!, stop);
    for (const write of [
      () => store.setState({ one: '3', two: '4' }),
      () => store.advanceCursor('nightly', 2),
      () => store.deleteRecords([c!]),
    ]) {
      proxy.holdAnswers('COMMIT');
      await write();
    }
    // The stop's write decided on what the record holds: with the COMMIT once that is read.
    proxy.holdAnswers('COMMIT', 'UPDATE records SET tracking_status');
    await store.markStopped(d!, stop);
    expect([await store.state('two'), await store.cursor('nightly'), (await store.counts()).records]).toEqual([
      '4',
      2,
      2,
    ]);
    const [stopped] = await all(store.records({ numbers: [d!.number] }));
    expect(JSON.parse(stopped!.raw).tracking_status).toBe('Stopped');
  });

  it('leaves nothing written when a statement fails after the commit was sent', async () => {
    const store = await pg.open(await pg.fresh());
    // The second of a number is written in a round of its own, after the first round's records: out of range there.
    const page = records(numbers(0, 10));
    const bad: RecordRow = { ...page[3]!, as_of: '2099-01-01T00:00:00Z', carrier_change_count: 2 ** 40 };
    await expect(store.writeRecords([...page, bad])).rejects.toThrow(/out of range/);
    expect(await store.counts()).toMatchObject({ records: 0 });
    // The connection is whole again: the next transaction writes.
    expect(await store.writeRecords(page)).toEqual({ added: 10 });
  });
});
