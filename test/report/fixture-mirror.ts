// A mirror made from test/fixtures/report/parcels.json: each parcel as the service would answer for it (a list
// item in v2.1, or v2 where the fixture says so, and its gettrackinfo details in v2), written through the store
// as a sync writes them.

import { detailsRow, recordRow } from '../../src/store/rows.js';
import type { Store } from '../../src/store/types.js';
import { fixtureJson } from '../fixture-files.js';

export interface FixtureParcel {
  number: string;
  carrier: number;
  from: string;
  to: string;
  registered: string;
  status: string;
  sub_status?: string;
  tracking?: string;
  transit?: number;
  days_since_update: number;
  latest_event: string | null;
  delivered?: string;
  eta_to?: string | null;
  list_version?: 'v2';
}

export const FIXTURE = fixtureJson<{ now: string; parcels: FixtureParcel[] }>('report/parcels.json');
export const NOW = Date.parse(FIXTURE.now);
const TRACKED = '2026-06-20T06:00:00Z';

function event(p: FixtureParcel): Record<string, unknown> | null {
  if (p.latest_event === null) return null;
  const sub = p.status === 'Delivered' ? 'Delivered_Other' : (p.sub_status ?? `${p.status}_Other`);
  return {
    time_iso: p.latest_event,
    time_utc: p.latest_event,
    time_raw: null,
    description: `${p.status} at ${p.latest_event}`,
    location: null,
    stage: null,
    sub_status: sub,
    address: null,
  };
}

export function listItem(p: FixtureParcel): Record<string, unknown> {
  const v2 = {
    number: p.number,
    carrier: p.carrier,
    shipping_country: p.from,
    recipient_country: p.to,
    register_time: p.registered,
    tracking_status: p.tracking ?? 'Tracking',
    package_status: p.status,
    track_time: TRACKED,
    tag: null,
  };
  if (p.list_version === 'v2') return v2;
  return {
    ...v2,
    order_no: `#${p.number.slice(-3)}`,
    days_after_last_update: p.days_since_update,
    days_of_transit_done: p.transit ?? 0,
    delievery_time: p.delivered ?? null,
    latest_event_time: p.latest_event,
    latest_event_info: event(p)?.description ?? null,
  };
}

export function detailsItem(p: FixtureParcel): Record<string, unknown> {
  const e = event(p);
  return {
    number: p.number,
    carrier: p.carrier,
    param: null,
    tag: null,
    track_info: {
      shipping_info: { shipper_address: { country: p.from }, recipient_address: { country: p.to } },
      latest_status: { status: p.status, sub_status: p.sub_status ?? `${p.status}_Other`, sub_status_descr: null },
      latest_event: e,
      time_metrics: {
        days_after_order: 1,
        days_of_transit: p.transit ?? 0,
        days_of_transit_done: p.transit ?? 0,
        days_after_last_update: p.days_since_update,
        estimated_delivery_date: p.eta_to
          ? { source: 'Official', from: null, to: p.eta_to }
          : { source: null, from: null, to: null },
      },
      // The service tells the delivery's time by its Delivered milestone.
      milestone: p.delivered
        ? [{ key_stage: 'Delivered', time_iso: p.delivered, time_utc: p.delivered, time_raw: null }]
        : [],
      misc_info: {},
      tracking: {
        providers_hash: 1,
        providers: [
          {
            provider: { key: p.carrier },
            latest_sync_status: 'Success',
            latest_sync_time: TRACKED,
            events: e ? [e] : [],
          },
        ],
      },
    },
  };
}

/** Writes every fixture parcel into `store`, records first, as a sync does; marks the mirror synced at `now`. */
export async function writeFixtureMirror(
  store: Store,
  parcels: readonly FixtureParcel[] = FIXTURE.parcels,
): Promise<void> {
  await store.writeRecords(parcels.map((p) => recordRow(listItem(p), p.list_version ?? 'v2.1')));
  await store.writeDetails(
    parcels.map((p) => detailsRow(detailsItem(p), 'v2', new Date(Date.parse(TRACKED)).toISOString())),
    'sync',
  );
  await store.setState({ synced_at: new Date(NOW - 3_600_000).toISOString() });
}
