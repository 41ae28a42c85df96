// A sandbox running with `speed` (as `trk sandbox start --speed`) moves parcels along on its own, over real HTTP on
// 127.0.0.1: nobody calls advance, yet the listener gets webhooks and a sync that asks for what changed since its
// last look (gettracklist with track_time_from, then gettrackinfo) finds the changes.

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunningSandbox } from '../src/http/server.js';
import { sampleNumber } from '../src/world/index.js';
import { openSandbox, post, Receiver } from './contract-helpers.js';

let sandbox: RunningSandbox | undefined;
let hooks: Receiver | undefined;
afterEach(async () => {
  await sandbox?.close();
  await hooks?.close();
  sandbox = hooks = undefined;
});

/** Every record whose track_time is at or after `from` (all pages). */
async function changedSince(s: RunningSandbox, from: string): Promise<{ number: string; track_time: string }[]> {
  const out: { number: string; track_time: string }[] = [];
  for (let page = 1; ; page++) {
    const a = await post(s, 'v2.1', 'gettracklist', { track_time_from: from, page_no: page });
    out.push(...a.json.data.accepted);
    if (page >= a.json.page.page_total) return out;
  }
}

describe('a sandbox with --speed tells its story on its own', () => {
  it('webhooks reach the listener and an incremental sync sees the changes, with nobody moving the clock', async () => {
    hooks = await new Receiver().start();
    // A day of simulated time per real second, ticking every 50 ms.
    sandbox = await openSandbox({ speed: 86_400, tickMs: 50, webhookUrl: hooks.url });
    const s = sandbox;
    const carriers = [21051, 3011, 100001, 190012];
    const items = Array.from({ length: 24 }, (_, i) => {
      const carrier = carriers[i % 4]!;
      return { number: sampleNumber(carrier, i), carrier };
    });
    expect((await post(s, 'v2.1', 'register', items)).json.data.accepted).toHaveLength(24);
    const registered = new Date(s.clock.now() - 1000).toISOString();

    // The first results come and are pushed, then later changes too.
    const updates = () => hooks!.received.filter((r) => r.event === 'TRACKING_UPDATED').length;
    await vi.waitFor(() => expect(updates()).toBeGreaterThan(24), { timeout: 20_000, interval: 100 });
    const first = await changedSince(s, registered);
    expect(first.length).toBeGreaterThan(0);
    const details = await post(
      s,
      'v2.1',
      'gettrackinfo',
      first.map((r) => ({ number: r.number })),
    );
    expect(details.json.data.accepted.length).toBe(first.length);

    // A later look from the latest track_time seen: only records that changed since, each with a later track_time.
    const watermark = first
      .map((r) => r.track_time)
      .sort()
      .at(-1)!;
    const seenAt = Date.parse(watermark);
    await vi.waitFor(
      async () => {
        const later = (await changedSince(s, watermark)).filter((r) => Date.parse(r.track_time) > seenAt);
        expect(later.length).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(s.state().requests.byOperation['v2.1/gettracklist']).toBeGreaterThan(1);
  });
});
