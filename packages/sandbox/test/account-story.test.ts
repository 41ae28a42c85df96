// The sandbox tells a story over time: a shop registers parcels every day for a month, and a sync that asks only
// for what the service looked at since its last look (gettracklist with track_time_from, then gettrackinfo) sees
// every change; webhooks report them as they happen; the month ends as a shop's does.

import { describe, expect, it } from 'vitest';
import { findNumber, planShipment, sampleNumber } from '../src/world/index.js';
import { DAY, HOUR, type Json, type TestAccount, START, makeAccount } from './account-fixture.js';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('track_time, the list update time', () => {
  it('moves with every tracking run, so the run that finds a change always moves it past the last look', async () => {
    const t = makeAccount();
    const number = sampleNumber(3011, 7);
    const plan = planShipment(number, 3011, START);
    t.v2('register', [{ number, carrier: 3011 }]);
    await t.advance(30_000);
    const record = () => t.v2('gettracklist', { number }).data.accepted[0];
    const lastRun = () =>
      t.v2('gettrackinfo', [{ number }]).data.accepted[0].track_info.tracking.providers[0].latest_sync_time;
    const look = record().track_time as string;
    expect(look).toBe(lastRun());

    // The next event: the first run after it knows it, and that run's time is track_time, past the last look.
    const next = plan.events.find((e) => e.atMs > Date.parse(look));
    expect(next, 'a later event').toBeDefined();
    await t.advance(next!.atMs - t.now() + 7 * HOUR);
    const rec = record();
    expect(rec.track_time).toBe(lastRun());
    expect(Date.parse(rec.track_time)).toBeGreaterThanOrEqual(next!.atMs);
    expect(Date.parse(rec.track_time)).toBeLessThanOrEqual(t.now());
    const since = new Date(Date.parse(look) + 1000).toISOString();
    expect(t.v2('gettracklist', { track_time_from: since }).page.data_total).toBe(1);
    expect(t.v1('gettracklist', { tracking_time_from: since }).page.data_total).toBe(1);
  });

  it('moves when the service stops tracking by itself (expiry), not when asked to stop', async () => {
    const t = makeAccount();
    const quietNumber = findNumber(3011, { scenario: 'stalled' })!;
    t.v2('register', [
      { number: quietNumber, carrier: 3011 },
      { number: sampleNumber(3011, 12), carrier: 3011 },
    ]);
    await t.advance(30_000);
    const before = t.v2('gettracklist', { number: sampleNumber(3011, 12) }).data.accepted[0].track_time;
    t.v2('stoptrack', [{ number: sampleNumber(3011, 12) }]);
    expect(t.v2('gettracklist', { number: sampleNumber(3011, 12) }).data.accepted[0].track_time).toBe(before);
    await t.advance(60 * DAY);
    const rec = t.v2('gettracklist', { number: quietNumber }).data.accepted[0];
    expect(rec.stop_track_reason).toBe('Expired');
    expect(rec.track_time).toBe(rec.stop_track_time);
  });
});

/** A shop's carrier mix: mostly national parcel services, some cross-border mail and e-commerce lines, some express. */
const MIX = [21051, 21051, 21051, 11031, 7041, 7041, 3011, 3011, 190012, 100001, 100003, 2151];
const PER_DAY = 40;
const DAYS = 30;

interface Seen {
  status: string;
  lastEvent: string | null;
}

/** The shop's mirror: what its syncs learned, and how many changes each found. */
class Mirror {
  readonly records = new Map<string, Seen>();
  watermark: string | null = null;
  readonly changes: number[] = [];

  constructor(private readonly t: TestAccount) {}

  /** gettracklist from the watermark (every page), then gettrackinfo for the records it named. */
  sync(): void {
    const listed: Json[] = [];
    for (let page = 1; ; page++) {
      const since = this.watermark ? { track_time_from: this.watermark } : {};
      const env = this.t.v21('gettracklist', { page_no: page, ...since });
      listed.push(...env.data.accepted);
      if (page >= env.page.page_total) break;
    }
    for (const r of listed) {
      if (r.track_time && (!this.watermark || r.track_time > this.watermark)) this.watermark = r.track_time;
    }
    const numbers = listed.filter((r) => r.track_time !== null).map((r) => r.number as string);
    let changed = 0;
    for (let i = 0; i < numbers.length; i += 40) {
      const env = this.t.v21(
        'gettrackinfo',
        numbers.slice(i, i + 40).map((number) => ({ number })),
      );
      for (const item of env.data.accepted) {
        const info = item.track_info;
        const seen = { status: info.latest_status.status, lastEvent: info.latest_event?.time_utc ?? null };
        const old = this.records.get(item.number);
        if (!old || old.status !== seen.status || old.lastEvent !== seen.lastEvent) changed++;
        this.records.set(item.number, seen);
      }
    }
    this.changes.push(changed);
  }
}

/** What the account holds now, as the mirror would see it. */
function truth(t: TestAccount): Map<string, Seen> {
  const out = new Map<string, Seen>();
  for (const rec of t.account.store.values()) {
    if (rec.trackMs === null) continue;
    out.set(rec.number, { status: rec.status, lastEvent: rec.lastEventMs === null ? null : iso(rec.lastEventMs) });
  }
  return out;
}

describe("a shop's month on the sandbox", () => {
  it("daily syncs see every change; webhooks tell them; the month ends as a shop's", async () => {
    const t = makeAccount({ settings: { webhookUrl: 'http://127.0.0.1:9/hook' } });
    const mirror = new Mirror(t);
    for (let day = 0; day < DAYS; day++) {
      const items = Array.from({ length: PER_DAY }, (_, i) => {
        const carrier = MIX[(day * PER_DAY + i) % MIX.length]!;
        return { number: sampleNumber(carrier, day * PER_DAY + i), carrier };
      });
      expect(t.v21('register', items).data.accepted).toHaveLength(PER_DAY);
      await t.advance(DAY);
      mirror.sync();
      // Nothing the account knows escapes the mirror: every change was in the incremental list.
      expect(mirror.records).toEqual(truth(t));
    }
    // Every day brings changes: the new parcels' first results, and the older ones moving along.
    expect(Math.min(...mirror.changes.slice(1))).toBeGreaterThan(10);
    // Webhooks told of the changes as they happened (one TRACKING_UPDATED per change at least).
    const updates = t.sent.filter((d) => d.body.includes('TRACKING_UPDATED')).length;
    expect(updates).toBeGreaterThanOrEqual(mirror.changes.reduce((a, b) => a + b, 0));

    // The month's end: most parcels of the first three weeks delivered, a few in trouble, the rest on the way.
    const early = [...t.account.store.values()].filter((r) => r.registerMs < START + 21 * DAY);
    const share = (status: string) => early.filter((r) => r.status === status).length / early.length;
    expect(share('Delivered')).toBeGreaterThan(0.4);
    expect(share('Exception') + share('DeliveryFailure')).toBeGreaterThan(0.03);
    expect(share('Exception') + share('DeliveryFailure')).toBeLessThan(0.25);
    expect(new Set(early.map((r) => r.status)).size).toBeGreaterThanOrEqual(6);
    // Carriers tell apart: express parcels delivered far more often than Correios ones.
    const deliveredShare = (carrier: number) => {
      const of = early.filter((r) => r.carrier === carrier);
      return of.filter((r) => r.status === 'Delivered').length / of.length;
    };
    expect(deliveredShare(100001)).toBeGreaterThan(deliveredShare(2151) + 0.15);
    // A month of days simulated, synced and checked: some 10 s alone, more on a loaded machine.
  }, 120_000);
});
