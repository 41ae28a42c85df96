// Wire shapes of the service, as the specification describes them. The service may add fields at any time,
// so every object type is open: code must tolerate and pass through what it does not know.

import type { PackageStatus, PushStatus, StopReason, TrackingStatus } from './vocabulary.js';

export interface ItemError {
  code: number;
  message: string;
}

/** An item the service refused: data, never an exception. */
export interface RejectedItem {
  number: string;
  carrier?: number;
  tag?: string | null;
  error: ItemError;
  [extra: string]: unknown;
}

/** The envelope every answer comes in. `page` only with gettracklist. */
export interface Envelope<A = unknown> {
  code: number;
  data: {
    accepted?: A[];
    rejected?: RejectedItem[];
    errors?: ItemError[];
    [extra: string]: unknown;
  } | null;
  page?: PageInfo;
  [extra: string]: unknown;
}

export interface PageInfo {
  data_total: number;
  page_total: number;
  page_no: number;
  page_size: number;
}

/** Accepted/rejected pair, merged over chunks for item commands. */
export interface ItemResults<A = Record<string, unknown>> {
  accepted: A[];
  /**
   * Writes only: items the service answered with an "already in that state" code (registered already, stopped
   * already, ...), which trk counts as done. Kept apart from `rejected`, which is only what the service refused.
   */
  already?: RejectedItem[];
  rejected: RejectedItem[];
}

// ---- requests (v2 names; v1 mapping lives in the client) ----

export interface RegisterRequestItem {
  number: string;
  carrier?: number;
  param?: string;
  tag?: string;
  lang?: string;
  email?: string;
  final_carrier?: number;
  auto_detection?: boolean;
  /** v2.1 */
  order_no?: string;
  /** v2.1 */
  order_time?: string;
  /** v2.1 */
  remark?: string;
}

export interface NumberCarrierItem {
  number: string;
  carrier?: number;
}

export interface ChangeCarrierRequestItem {
  number: string;
  carrier_old?: number;
  carrier_new?: number;
  final_carrier_old?: number;
  final_carrier_new?: number;
}

export interface ChangeInfoRequestItem {
  number: string;
  carrier?: number;
  items: { tag?: string; param?: string; lang?: string };
}

export interface RealtimeRequestItem {
  number: string;
  carrier?: number;
  param?: string;
  final_carrier?: number;
  cacheLevel?: 0 | 1;
}

export interface TrackListFilter {
  number?: string;
  carrier?: number;
  data_origin?: string;
  package_status?: string;
  register_time_from?: string;
  register_time_to?: string;
  tracking_status?: string;
  track_time_from?: string;
  track_time_to?: string;
  push_time_from?: string;
  push_time_to?: string;
  push_status?: string;
  push_status_code?: number;
  stop_track_time_from?: string;
  stop_track_time_to?: string;
  page_no?: number;
  order_by?: string;
}

// ---- responses ----

export interface RegisterAccepted {
  origin: number;
  number: string;
  carrier: number;
  tag?: string | null;
  email?: string | null;
  lang?: string | null;
  [extra: string]: unknown;
}

export interface NumberCarrierAccepted {
  number: string;
  carrier: number;
  [extra: string]: unknown;
}

export interface QuotaRecord {
  quota_total: number;
  quota_used: number;
  quota_remain: number;
  today_used: number;
  max_track_daily: number;
  free_email_quota: number;
  free_email_quotaused: number;
  [extra: string]: unknown;
}

/** A registration record (gettracklist item), v2 with v2.1's extra fields optional. */
export interface TrackRecord {
  number: string;
  param: string | null;
  param_type: string;
  data_origin: string;
  carrier: number;
  final_carrier: number;
  shipping_country: string | null;
  recipient_country: string | null;
  register_time: string;
  tracking_status: TrackingStatus | string;
  package_status: PackageStatus | string;
  track_time: string | null;
  push_time: string | null;
  push_status: PushStatus | string;
  push_status_code: number | null;
  stop_track_time: string | null;
  stop_track_reason: StopReason | string | null;
  is_retracked: boolean;
  carrier_change_count: number;
  tag: string | null;
  // v2.1
  email?: string | null;
  order_no?: string | null;
  order_time?: string | null;
  lang?: string | null;
  remark?: string | null;
  latest_event_time?: string | null;
  latest_event_info?: string | null;
  days_after_order?: number | null;
  days_after_last_update?: number | null;
  days_of_transit?: number | null;
  days_of_transit_done?: number | null;
  delievery_time?: string | null;
  pickup_time?: string | null;
  [extra: string]: unknown;
}

export interface Coordinates {
  longitude: string | null;
  latitude: string | null;
}

export interface Address {
  country: string | null;
  state: string | null;
  city: string | null;
  street: string | null;
  postal_code: string | null;
  coordinates: Coordinates | null;
  [extra: string]: unknown;
}

export interface TimeRaw {
  date: string | null;
  time: string | null;
  timezone: string | null;
}

export interface TrackEvent {
  time_iso: string | null;
  time_utc: string | null;
  time_raw?: TimeRaw | null;
  description: string;
  description_translation?: { lang: string | null; description: string | null } | null;
  location: string | null;
  stage: string | null;
  address: Address | null;
  /** v2.1 */
  sub_status?: string | null;
  [extra: string]: unknown;
}

export interface Milestone {
  key_stage: string;
  time_iso: string | null;
  time_utc: string | null;
  time_raw?: TimeRaw | null;
  [extra: string]: unknown;
}

export interface Provider {
  provider: {
    key: number;
    name: string | null;
    alias: string | null;
    tel: string | null;
    homepage: string | null;
    country: string | null;
    [extra: string]: unknown;
  };
  provider_lang?: string | null;
  service_type: string | null;
  latest_sync_status: string;
  latest_sync_time: string | null;
  events_hash: number;
  events: TrackEvent[];
  [extra: string]: unknown;
}

export interface TimeMetrics {
  /** The service sends the placeholder `--` when there is no result. */
  days_after_order: number | string;
  days_of_transit: number;
  days_of_transit_done: number;
  days_after_last_update: number;
  estimated_delivery_date: { source: string | null; from: string | null; to: string | null };
  [extra: string]: unknown;
}

export interface TrackInfo {
  shipping_info: { shipper_address: Address | null; recipient_address: Address | null; [extra: string]: unknown };
  latest_status: { status: string; sub_status: string; sub_status_descr: string | null; [extra: string]: unknown };
  latest_event: TrackEvent | null;
  time_metrics: TimeMetrics;
  milestone: Milestone[];
  misc_info: Record<string, unknown>;
  tracking: { providers_hash: number; providers: Provider[]; [extra: string]: unknown };
  [extra: string]: unknown;
}

/** Item of gettrackinfo / getRealTimeTrackInfo accepted, and TRACKING_UPDATED data (v2, v2.1). */
export interface TrackDetails {
  number: string;
  carrier: number;
  param: string | null;
  tag: string | null;
  track_info: TrackInfo | null;
  [extra: string]: unknown;
}

// ---- v1 shapes ----

export interface V1Event {
  a: string | null;
  b?: unknown;
  c: string | null;
  d: string | null;
  z: string | null;
  [extra: string]: unknown;
}

export interface V1Track {
  w1: number;
  w2: number;
  b: number;
  c: number;
  e: number;
  f?: number;
  /** The latest event; `{}` when there is none (as the live service answers), null in older examples. */
  z0: V1Event | Record<string, never> | null;
  z1: V1Event[];
  z2: V1Event[];
  z9?: V1Event[];
  is1?: number;
  is2?: number;
  hs?: number;
  [extra: string]: unknown;
}

export interface V1TrackRecord {
  number: string;
  w1: number;
  w2: number;
  b: number;
  c: number;
  e: number;
  rt: string | null;
  tt: string | null;
  pt?: string | null;
  ps: number | null;
  st: string | null;
  sr: number | null;
  ir: boolean;
  ts: boolean | number;
  mc: number;
  tag: string | null;
  [extra: string]: unknown;
}

// ---- webhooks ----

export type WebhookEvent = 'TRACKING_UPDATED' | 'TRACKING_STOPPED';

export interface WebhookBody<D = Record<string, unknown>> {
  event: WebhookEvent | string;
  data: D;
  /** v1 only: signature in the body. */
  sign?: string;
}
