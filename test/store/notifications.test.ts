// Verified notifications into the mirror, against each store (kinds.ts).
import { describe, expect, it } from 'vitest';
import { NotificationWriter } from '../../src/store/notifications.js';
import { recordRow } from '../../src/store/rows.js';
import type { Store } from '../../src/store/types.js';
import { fixtureJson } from '../fixture-files.js';
import { freshStore, STORE_KINDS } from './kinds.js';

const yanwen = fixtureJson('doc-v2/gettrackinfo_yanwen_190012.json').data.accepted[0] as Record<string, any>;
const listed = fixtureJson('doc-v2/gettracklist_page.json').data.accepted[0] as Record<string, unknown>;
const stopped = fixtureJson('doc-v2/webhook_tracking_stopped.json');

function updated(number: string, status: string, syncTime: string): { event: string; data: Record<string, any> } {
  const data = structuredClone(yanwen);
  data.number = number;
  data.track_info.latest_status = { status, sub_status: `${status}_Other`, sub_status_descr: null };
  for (const p of data.track_info.tracking.providers) p.latest_sync_time = syncTime;
  return { event: 'TRACKING_UPDATED', data };
}

describe.each(STORE_KINDS)('storing verified notifications ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  let store: Store | undefined;
  const open = async (): Promise<Store> => (store = await freshStore(kind));

  it('keeps the details of TRACKING_UPDATED and a change from null for a number the mirror did not know', async () => {
    const writer = new NotificationWriter(await open());
    const first = await writer.write({
      body: updated('YT0000000001', 'InTransit', '2026-06-29T13:00:00Z'),
      version: 'v2',
    });
    expect(first).toEqual({
      stored: 'details',
      change: expect.objectContaining({ from_status: null, to_status: 'InTransit', source: 'webhook' }),
    });
    const same = await writer.write({
      body: updated('YT0000000001', 'InTransit', '2026-06-30T13:00:00Z'),
      version: 'v2',
    });
    expect(same.change).toBeUndefined();
    const moved = await writer.write({
      body: updated('YT0000000001', 'Delivered', '2026-07-01T13:00:00Z'),
      version: 'v2',
    });
    expect(moved.change).toMatchObject({
      from_status: 'InTransit',
      to_status: 'Delivered',
      detected_at: '2026-07-01T13:00:00.000Z',
    });
    expect((await store!.changes({})).map((c) => c.to_status)).toEqual(['InTransit', 'Delivered']);
  });

  it('compares with the status a sync listed when the mirror has no details yet', async () => {
    const s = await open();
    await s.writeRecords([
      recordRow({ ...listed, number: 'YT0000000002', carrier: 190012, package_status: 'InTransit' }, 'v2.1'),
    ]);
    const writer = new NotificationWriter(s);
    expect(
      (await writer.write({ body: updated('YT0000000002', 'InTransit', '2026-07-01T13:00:00Z'), version: 'v2' }))
        .change,
    ).toBeUndefined();
    expect((await s.pendingDetails(undefined, 10)).map((k) => k.number)).toEqual([]);
  });

  it('marks a record stopped on TRACKING_STOPPED', async () => {
    const s = await open();
    await s.writeRecords([recordRow(listed, 'v2.1')]);
    const writer = new NotificationWriter(s);
    expect(await writer.write({ body: stopped, version: 'v2' })).toEqual({ stored: 'stopped', change: undefined });
    const rows = [];
    for await (const b of s.records({ anyOf: { tracking_status: ['Stopped'] } })) rows.push(...b);
    expect(rows.map((r) => JSON.parse(r.raw).stop_track_reason)).toEqual(['Expired']);
  });

  it('writes notifications that arrive together in few transactions, each resolved once committed', async () => {
    const s = await open();
    const writer = new NotificationWriter(s);
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        writer.write({
          body: updated(`YT${String(i).padStart(10, '0')}`, 'InTransit', '2026-06-29T13:00:00Z'),
          version: 'v2',
        }),
      ),
    );
    expect(outcomes.every((o) => o.stored === 'details')).toBe(true);
    expect(await s.counts()).toEqual({ records: 300, details: 300, changes: 300 });
  });
});
