// What trk notify reads of the store, on SQLite and PostgreSQL: parcels stuck or late since a rule was added (not
// before), narrowed by status, carrier and tag, read a page at a time in key order.

import { describe, expect, it } from 'vitest';
import { matches } from '../../src/mirror/notify/matching.js';
import { ruleOf } from '../../src/mirror/notify/rules.js';
import { detailsRow, recordRow } from '../../src/store/rows.js';
import type { NotifyMatch } from '../../src/store/notify-types.js';
import type { Store } from '../../src/store/types.js';
import { fixtureJson } from '../fixture-files.js';
import { freshStore, STORE_KINDS } from './kinds.js';

const page = fixtureJson('doc-v2/gettracklist_page.json').data.accepted as Record<string, unknown>[];
const yanwen = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0] as Record<string, any>;
const DAY = 86_400_000;
const ADDED = Date.parse('2026-07-01T00:00:00Z');

/** A parcel on its way, its last news `newsDaysBefore` days before the rule was added, its window ending `etaTo`. */
async function parcel(
  store: Store,
  number: string,
  newsDaysBefore: number,
  etaTo: string,
  tag = 'shop',
): Promise<void> {
  const news = new Date(ADDED - newsDaysBefore * DAY).toISOString();
  const item = { ...page[0], number, carrier: 190012, package_status: 'InTransit', latest_event_time: news, tag };
  const row = recordRow(item, 'v2.1');
  await store.writeRecords([row]);
  const d = structuredClone(yanwen);
  d.number = number;
  d.tag = tag;
  d.track_info.latest_status = { status: 'InTransit', sub_status: 'InTransit_Other', sub_status_descr: null };
  d.track_info.latest_event.time_utc = news;
  d.track_info.time_metrics.estimated_delivery_date = { source: '17TRACK', from: etaTo, to: etaTo };
  await store.writeDetails([detailsRow(d, 'v2.1', row.track_time)], 'sync');
}

async function all(store: Store, spec: Record<string, unknown>, now: number): Promise<NotifyMatch[]> {
  const row = (await store.addRule(
    `r${Math.random()}`.slice(0, 12),
    JSON.stringify({ to: 'customer', ...spec }),
    new Date(ADDED).toISOString(),
  ))!;
  const out: NotifyMatch[] = [];
  for await (const m of matches(store, ruleOf(row), await store.lastChange(), now)) out.push(m);
  return out;
}

describe.each(STORE_KINDS)('trk notify in the store ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});

  it('matches parcels that became stuck or late after the rule was added, each state once', async () => {
    const store = await freshStore(kind);
    await parcel(store, 'AA000000001BR', 10, '2026-06-20T00:00:00Z'); // stuck and late before the rule
    await parcel(store, 'AA000000002BR', 3, '2026-07-02T00:00:00Z'); // stuck 4 days after, late on the 3rd
    await parcel(store, 'AA000000003BR', -5, '2026-07-20T00:00:00Z', 'other'); // news after: neither yet
    const now = ADDED + 5 * DAY;
    // Parcel 1 was stuck before the rule (the past); parcel 2 became stuck a day before now (4 days after it).
    const stuck = await all(store, { stuck: 7 }, now);
    expect(stuck.map((m) => m.parcel.number)).toEqual(['AA000000002BR']);
    const stuckLater = await all(store, { stuck: 7 }, ADDED + 20 * DAY);
    expect(stuckLater.map((m) => m.parcel.number)).toEqual(['AA000000002BR', 'AA000000003BR']);
    expect(stuckLater[0]!.change.key).toBe(`stuck:${new Date(ADDED - 3 * DAY).toISOString()}`);
    const late = await all(store, { late: true }, now);
    expect(late.map((m) => m.parcel.number)).toEqual(['AA000000002BR']);
    expect(late[0]!.change.key).toMatch(/^late:2026-07-02/);
    const tagged = await all(store, { stuck: 7, tag: 'OTHER' }, ADDED + 20 * DAY);
    expect(tagged.map((m) => m.parcel.number)).toEqual(['AA000000003BR']);
    const delivered = await all(store, { stuck: 7, when: ['Delivered'] }, ADDED + 20 * DAY);
    expect(delivered).toEqual([]);
    expect(await all(store, { stuck: 7, carrier: 3011 }, ADDED + 20 * DAY)).toEqual([]);
  });
});
