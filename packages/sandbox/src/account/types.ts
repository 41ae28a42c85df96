// Shapes of the emulated account: its settings, the persisted state, and the records it keeps.
// Everything in AccountState is plain JSON so that the transport can write it to a file as is.

import type { ApiVersion, PackageStatus, PushStatus, StopReason } from '@trk/service/vocabulary.js';
import type { WebhookEvent } from '@trk/service/types.js';

export interface AccountSettings {
  key: string;
  webhookUrl: string | null;
  quotaTotal: number;
  /** 0 = no daily cap. */
  maxTrackDaily: number;
  ipAllowList: string[];
  disabled: boolean;
  realtimeAllowed: boolean;
  /**
   * Version of the webhook bodies. Absent: each notification uses the version its number was registered
   * with (a v1 client gets v1 bodies, a v2 client v2 bodies).
   */
  webhookVersion?: ApiVersion;
}

export interface WebhookDelivery {
  url: string;
  headers: Record<string, string>;
  /** Exact bytes sent; signed. */
  body: string;
}

/** One registered (number, carrier) pair. Times are ms since the epoch (simulated clock). */
export interface RecordState {
  /** Unique per registration: a record deleted and registered again is a new record. Guards stale schedules. */
  id: number;
  number: string;
  carrier: number;
  /** Last-mile carrier, 0 when none. */
  finalCarrier: number;
  param: string | null;
  tag: string | null;
  email: string | null;
  lang: string | null;
  orderNo: string | null;
  orderTime: string | null;
  remark: string | null;
  /** Version the number was registered with. */
  version: ApiVersion;
  registerMs: number;
  /** Start of the current tracking period (registration, retrack, carrier change): expiry counts from here. */
  trackingStartMs: number;
  tracking: boolean;
  stopMs: number | null;
  stopReason: StopReason | null;
  /**
   * Stop time of the latest TRACKING_STOPPED sent: automatic TRACKING_UPDATED about results from before it
   * (retries still queued) are dropped, even after a retrack.
   */
  stopNotifiedMs: number | null;
  retracked: boolean;
  changeCount: number;
  /** No tracking run yet since registration or the last carrier change (-18019808). */
  pending: boolean;
  /** The translation unit of `lang` has been charged (done at the first result after lang was set). */
  langCharged: boolean;
  /** Next scheduled work: tracking run / expiry check while tracking, retention deletion when stopped. */
  dueMs: number;
  // ---- the stored result of the latest tracking run ----
  /** Latest tracking run: events up to this time are known. Null before the first run. */
  trackMs: number | null;
  status: PackageStatus;
  subStatus: string;
  firstEventMs: number | null;
  lastEventMs: number | null;
  pickupMs: number | null;
  deliveredMs: number | null;
  /** Start of the transit for days_of_transit (pickup, else first event after InfoReceived, else first event). */
  transitStartMs: number | null;
  latestEventInfo: string | null;
  /** UTC offset (minutes) of the provider that reported the latest event: latest_event_time is in it. */
  latestEventOffset: number | null;
  shippingCountry: string | null;
  recipientCountry: string | null;
  /** Fingerprint of the stored result: a run that changes it is a "result change" (TRACKING_UPDATED). */
  resultKey: string | null;
  // ---- push ----
  pushMs: number | null;
  pushStatus: PushStatus;
  pushCode: number | null;
}

export type WebhookEventName = WebhookEvent;

/** A notification waiting in the queue. The body is built when it is sent (from the snapshot time). */
export interface QueuedNotification {
  seq: number;
  recordId: number;
  key: string;
  event: WebhookEventName;
  /** Result as known at this time (the tracking run that caused it). */
  snapshotMs: number;
  /** Manual push: sent even when tracking has stopped since. */
  manual: boolean;
  /** Attempts made so far (0..4). */
  attempts: number;
  dueMs: number;
}

export interface DeliveryLogEntry {
  timeMs: number;
  event: WebhookEventName;
  number: string;
  carrier: number;
  attempt: number;
  status: number;
  url: string;
}

export interface AccountState {
  format: 2;
  nextId: number;
  nextSeq: number;
  quotaUsed: number;
  todayUsed: number;
  /** UTC day number that todayUsed belongs to. */
  today: number;
  /** Field names of the rows in `records` (see persist.ts). */
  columns: string[];
  records: unknown[][];
  queue: QueuedNotification[];
  deliveries: DeliveryLogEntry[];
}
