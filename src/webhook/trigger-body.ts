// `trk webhook trigger`: a notification made up for a rehearsal, in the shape the service sends (Webhooks, "Body
// shapes"), so that a shop's listener, mirror and rules see what a real parcel would bring them. TRACKING_UPDATED
// carries a whole track_info as gettrackinfo has it (v2, v2.1: events with their sub-status) or v1's `track`;
// TRACKING_STOPPED only names the parcel. The events tell a short story ending in the chosen sub-status, a day
// apart, the last one now. Signed as the service signs (verify.ts): v2 and v2.1 in a `sign` header, v1 in the body.

import { createHash } from 'node:crypto';
import {
  KEY_STAGES,
  mainStatusOf,
  PACKAGE_STATUSES,
  subStatuses,
  SUB_STATUSES_V2,
  V1_PACKAGE_STATUS_CODE,
  type ApiVersion,
  type KeyStage,
  type PackageStatus,
  type WebhookEvent,
} from '@trk/service/vocabulary.js';
import { signedV1Body, signV2 } from './verify.js';

/** What a carrier writes at each sub-status (English), and the milestone it marks: the made-up event's text. */
const EVENT_TEXTS: Readonly<Record<string, readonly [text: string, stage: KeyStage | null]>> = {
  NotFound_Other: ['No information from the carrier yet', null],
  NotFound_InvalidCode: ['The tracking number is not valid', null],
  InfoReceived: ['Shipment information received, awaiting item', 'InfoReceived'],
  InTransit_PickedUp: ['Picked up by the carrier', 'PickedUp'],
  InTransit_Other: ['Processed at sorting facility', null],
  InTransit_Departure: ['Departed from the origin country', 'Departure'],
  InTransit_Arrival: ['Arrived in the destination country', 'Arrival'],
  InTransit_CustomsProcessing: ['Customs clearance in progress', null],
  InTransit_CustomsReleased: ['Released by customs', null],
  InTransit_CustomsRequiringInformation: ['Customs need more information from the recipient', null],
  Expired_Other: ['No update for a long time', null],
  AvailableForPickup_Other: ['Ready for collection at the pickup point', 'AvailableForPickup'],
  OutForDelivery_Other: ['Out for delivery', 'OutForDelivery'],
  DeliveryFailure_Other: ['Delivery attempted, not delivered', null],
  DeliveryFailure_NoBody: ['Delivery attempted: recipient not at home', null],
  DeliveryFailure_Security: ['Delivery attempted: duties or fees to pay', null],
  DeliveryFailure_Rejected: ['Delivery refused by the recipient', null],
  DeliveryFailure_InvalidAddress: ['Delivery attempted: address could not be found', null],
  Delivered_Other: ['Delivered', 'Delivered'],
  Exception_Other: ['The carrier reported a problem with the item', null],
  Exception_Returning: ['Being returned to the sender', 'Returning'],
  Exception_Returned: ['Returned to the sender', 'Returned'],
  Exception_NoBody: ['Recipient could not be reached', null],
  Exception_Security: ['Held for a security or customs check', null],
  Exception_Damage: ['Item damaged', null],
  Exception_Rejected: ['Item refused', null],
  Exception_Delayed: ['Item delayed', null],
  Exception_Lost: ['Item lost', null],
  Exception_Destroyed: ['Item destroyed', null],
  Exception_Cancel: ['Shipment cancelled', null],
};

/** The story before the chosen sub-status: these come first, as far as they precede it. */
const LEAD_UP = ['InfoReceived', 'InTransit_PickedUp', 'InTransit_Other'] as const;

const DAY_MS = 86_400_000;

/** Names without case, spaces, hyphens or underscores: `out-for-delivery` is OutForDelivery. */
const folded = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A STATUS argument: a main status, or a sub-status (which names its main status too); undefined when neither. */
export function parseTriggerStatus(text: string): { status: PackageStatus; subStatus?: string } | undefined {
  const key = folded(text);
  const status = PACKAGE_STATUSES.find((s) => folded(s) === key);
  if (status) return { status };
  const sub = subStatuses('v2.1').find((s) => folded(s) === key);
  const main = sub === undefined ? undefined : mainStatusOf(sub);
  return main === undefined ? undefined : { status: main, subStatus: sub! };
}

/** A status's sub-statuses in `version`: v2.1's customs three under InTransit. */
export function subStatusesOf(status: PackageStatus, version: ApiVersion): string[] {
  return subStatuses(version).filter((s) => mainStatusOf(s) === status);
}

/** The sub-status a status is triggered with when none is named: its first (`_Other` where it has one). */
export function defaultSubStatus(status: PackageStatus): string {
  const subs = SUB_STATUSES_V2[status];
  return subs.find((s) => s.endsWith('_Other')) ?? subs[0]!;
}

export interface TriggerProvider {
  name: string | null;
  homepage: string | null;
  /** ISO 3166-1 code of the carrier's country. */
  country: string | null;
}

export interface TriggerRequest {
  event: WebhookEvent;
  status: PackageStatus;
  subStatus: string;
  version: ApiVersion;
  number: string;
  carrier: number;
  param: string | null;
  tag: string | null;
  provider: TriggerProvider;
  /** The time of the last event and of the service's sync, epoch ms. */
  now: number;
}

interface StoryEvent {
  at: number;
  sub: string;
  text: string;
  stage: KeyStage | null;
}

/** The events, oldest first: the lead-up that precedes the chosen sub-status, then it, a day apart. */
function story(req: TriggerRequest): StoryEvent[] {
  if (req.status === 'NotFound') return [];
  const subs = [...LEAD_UP.slice(0, leadUpLength(req.subStatus)), req.subStatus];
  return subs.map((sub, i) => {
    const [text, stage] = EVENT_TEXTS[sub] ?? [sub, null];
    return { at: req.now - (subs.length - 1 - i) * DAY_MS, sub, text, stage };
  });
}

function leadUpLength(sub: string): number {
  const at = (LEAD_UP as readonly string[]).indexOf(sub);
  if (at >= 0) return at;
  return sub.startsWith('InTransit_') ? 2 : LEAD_UP.length;
}

/** A time as the service writes it: ISO with the carrier's offset (UTC here), in UTC, and the raw parts. */
function times(at: number) {
  const utc = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    time_iso: utc.replace(/Z$/, '+00:00'),
    time_utc: utc,
    time_raw: { date: utc.slice(0, 10), time: utc.slice(11, 19), timezone: '+00:00' },
  };
}

const NO_PLACE = { state: null, city: null, street: null, postal_code: null };
const address = (country: string | null) => ({
  country,
  ...NO_PLACE,
  coordinates: { longitude: null, latitude: null },
});

function v2Event(e: StoryEvent, req: TriggerRequest) {
  return {
    ...times(e.at),
    description: e.text,
    description_translation: null,
    location: null,
    stage: e.stage,
    ...(req.version === 'v2.1' ? { sub_status: e.sub } : {}),
    address: address(null),
  };
}

/** A stable whole number from text, as the service's hashes of event content are. */
function hashOf(text: string): number {
  return createHash('sha256').update(text).digest().readInt32BE(0);
}

const wholeDays = (ms: number) => Math.floor(ms / DAY_MS);

function timeMetrics(events: readonly StoryEvent[], req: TriggerRequest) {
  const first = events[0]?.at ?? req.now;
  const days = wholeDays(req.now - first);
  const ended = req.status === 'Delivered';
  return {
    days_after_order: days,
    days_of_transit: days,
    days_of_transit_done: ended ? days : 0,
    days_after_last_update: 0,
    estimated_delivery_date: { source: null, from: null, to: null },
  };
}

/** track_info as gettrackinfo gives it (v2, v2.1). */
function trackInfo(req: TriggerRequest) {
  const events = story(req);
  const newestFirst = events.map((e) => v2Event(e, req)).reverse();
  const eventsHash = hashOf(JSON.stringify(newestFirst));
  const last = events.at(-1);
  return {
    shipping_info: { shipper_address: address(req.provider.country), recipient_address: address(null) },
    latest_status: {
      status: req.status,
      sub_status: req.subStatus,
      sub_status_descr: (EVENT_TEXTS[req.subStatus] ?? [req.subStatus])[0],
    },
    latest_event: newestFirst[0] ?? null,
    time_metrics: timeMetrics(events, req),
    milestone: KEY_STAGES.map((key_stage) => {
      const reached = events.find((e) => e.stage === key_stage);
      return reached
        ? { key_stage, ...times(reached.at) }
        : { key_stage, time_iso: null, time_utc: null, time_raw: null };
    }),
    misc_info: { risk_factor: 0, service_type: null, local_number: last ? req.number : null, local_key: req.carrier },
    tracking: {
      providers_hash: hashOf(`${req.carrier}/${eventsHash}`),
      providers: [
        {
          provider: { key: req.carrier, name: req.provider.name, alias: null, tel: null, ...providerPlace(req) },
          provider_lang: null,
          service_type: null,
          latest_sync_status: 'Success',
          latest_sync_time: times(req.now).time_utc,
          events_hash: eventsHash,
          events: newestFirst,
        },
      ],
    },
  };
}

const providerPlace = (req: TriggerRequest) => ({ homepage: req.provider.homepage, country: req.provider.country });

/** v1's wall time: `2026-06-01 12:00`. */
const v1Time = (at: number, seconds = false) =>
  new Date(at)
    .toISOString()
    .slice(0, seconds ? 19 : 16)
    .replace('T', ' ');

/** v1's `track` object (Webhooks, v1 body shapes). */
function v1Track(req: TriggerRequest) {
  const events = story(req)
    .map((e) => ({ a: v1Time(e.at), b: null, c: '', d: '', z: e.text }))
    .reverse();
  const never = '2079-01-01 00:00:00';
  return {
    b: 0,
    c: 0,
    e: V1_PACKAGE_STATUS_CODE[req.status],
    f: req.status === 'Delivered' ? req.now : -1,
    w1: req.carrier,
    w2: 0,
    is1: 1,
    is2: 0,
    hs: hashOf(JSON.stringify(events[0] ?? null)),
    z0: events[0] ?? null,
    ln9: null,
    ln1: 'en',
    ln2: null,
    ygt9: 0,
    ygt1: 0,
    ygt2: 0,
    ylt9: never,
    ylt1: v1Time(req.now, true),
    ylt2: never,
    z9: [],
    z1: events,
    z2: [],
    yt: '',
  };
}

/** The notification's `data`, field by field in the order the service sends them. */
export function triggerData(req: TriggerRequest): Record<string, unknown> {
  const { number, carrier, param, tag } = req;
  if (req.version === 'v1') {
    return req.event === 'TRACKING_STOPPED' ? { number, carrier, tag } : { number, tag, track: v1Track(req) };
  }
  const parcel = { number, carrier, param, tag };
  return req.event === 'TRACKING_STOPPED' ? parcel : { ...parcel, track_info: trackInfo(req) };
}

/** The body as it goes on the wire, and the headers the service sends with it (v2's `sign` among them). */
export function signedTrigger(req: TriggerRequest, key: string): { body: string; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const data = triggerData(req);
  if (req.version === 'v1') return { body: signedV1Body(req.event, data, key), headers };
  const body = JSON.stringify({ event: req.event, data });
  return { body, headers: { ...headers, sign: signV2(body, key) } };
}
