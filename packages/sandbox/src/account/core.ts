// What the operation handlers see of the account: one narrow interface, so that each operation lives in
// its own module (@trk/sandbox/ops/) and the Account class only wires state, schedules and the queue.

import type { ApiVersion, StopReason } from '@trk/service/vocabulary.js';
import type { RecordStore } from './store.js';
import type { Quota } from './quota.js';
import type { AccountSettings, RecordState, WebhookEventName } from './types.js';
import type { WorldPort } from './world.js';

export interface AccountCore {
  readonly settings: AccountSettings;
  now(): number;
  readonly store: RecordStore;
  readonly quota: Quota;
  readonly world: WorldPort;
  /** days_after_order is 0 instead of `--` when there is no result (see metrics.ts). */
  readonly numericMetrics: boolean;
  /** Create, store and schedule a record registered now. */
  addRecord(init: NewRecord): RecordState;
  /** Delete a record and forget its schedules. */
  removeRecord(rec: RecordState): void;
  /** Re-queue a record's schedule after its dueMs changed. */
  schedule(rec: RecordState): void;
  stop(rec: RecordState, reason: StopReason, atMs: number): void;
  retrack(rec: RecordState): void;
  changeCarrier(rec: RecordState, carrier: number, finalCarrier: number): void;
  /** Run the tracking of a record at `atMs` (a real-time query of a registered number). */
  runNow(rec: RecordState, atMs: number): void;
  /** Put a notification in the queue; false when no webhook URL is set. */
  queueNotification(rec: RecordState, event: WebhookEventName, snapshotMs: number, manual: boolean): boolean;
  /** Webhook version used for a record's notifications. */
  webhookVersion(rec: RecordState): ApiVersion;
}

/** What a registration gives a new record; the rest of its state starts at defaults. */
export type NewRecord = Pick<
  RecordState,
  | 'number'
  | 'carrier'
  | 'finalCarrier'
  | 'param'
  | 'tag'
  | 'email'
  | 'lang'
  | 'orderNo'
  | 'orderTime'
  | 'remark'
  | 'version'
>;
