// The emulated account: its records, quota, automatic tracking and webhook queue. The transport
// (http/server.ts) calls handle() for every request that passed its own checks, and tick() from a timer and
// after clock jumps. Each operation lives in @trk/sandbox/ops/; this class holds state and schedules, and
// dispatches each request through the emulator's operation table (@trk/sandbox/ops/table.ts).

import type { ApiVersion, Operation, StopReason } from '@trk/service/vocabulary.js';
import type { AccountCore, NewRecord } from './core.js';
import type { Envelope } from './envelope.js';
import { Quota } from './quota.js';
import { RecordStore, recordKey } from './store.js';
import { RETENTION_MS, firstRunDelay, expiryDeadline, invalidCarrierDeadline, nextDue } from './tracking.js';
import type {
  AccountSettings,
  AccountState,
  DeliveryLogEntry,
  RecordState,
  WebhookDelivery,
  WebhookEventName,
} from './types.js';
import { WebhookQueue } from './webhooks.js';
import { type RunSummary, type Tracker, type WorldPort, simWorld, withNumericMetrics } from './world.js';
import { RECORD_COLUMNS, columnIndex, decodeRecord, emptyResult, encodeRecord } from './persist.js';
import { MinHeap } from '../min-heap.js';
import { dispatch } from '../ops/table.js';
import { rulesOf, type ServedVersion } from '../versions.js';

export type {
  AccountSettings,
  AccountState,
  DeliveryLogEntry,
  QueuedNotification,
  RecordState,
  WebhookDelivery,
} from './types.js';

export interface AccountOptions {
  settings: AccountSettings;
  /** Simulated time, ms since the epoch. Assumed never to run backwards. */
  now: () => number;
  /** Send one webhook; resolves to the HTTP status, 0 on a network failure. */
  deliver: (d: WebhookDelivery) => Promise<number>;
  /** The simulated carriers and shipments; replaceable in tests. */
  world?: WorldPort;
  /** days_after_order 0 instead of the spec's `--` when there is no result; default false. */
  numericMetrics?: boolean;
}

/** An entry of the run schedule; stale when the record is gone, re-registered or rescheduled. */
interface RunEntry {
  dueMs: number;
  id: number;
  key: string;
}

export class Account implements AccountCore {
  settings: AccountSettings;
  readonly store = new RecordStore();
  readonly quota: Quota;
  readonly world: WorldPort;
  readonly numericMetrics: boolean;
  readonly #now: () => number;
  readonly #runs = new MinHeap<RunEntry>((e) => e.dueMs);
  readonly #webhooks: WebhookQueue;
  #nextId = 1;

  constructor(opts: AccountOptions, state?: AccountState) {
    this.settings = opts.settings;
    this.#now = opts.now;
    this.numericMetrics = opts.numericMetrics ?? false;
    const world = opts.world ?? simWorld();
    this.world = this.numericMetrics ? withNumericMetrics(world) : world;
    this.quota = new Quota(() => this.settings, this.#now);
    this.#webhooks = new WebhookQueue(this, opts.deliver);
    if (state) this.#restore(state);
  }

  now(): number {
    return this.#now();
  }

  /**
   * One request, after the transport's checks passed, answered by the operation's handler in the emulator's
   * table (@trk/sandbox/ops/table.ts), shaped by the faults `injected` that reach into answers (http/faults.ts).
   * Always answered with HTTP 200.
   */
  handle(version: ServedVersion, op: Operation, body: unknown, injected: { pageOverlap?: number } = {}): Envelope {
    // Work that fell due since the last tick is done first, so that answers never show a stale schedule
    // (webhook sending stays with tick(): it is asynchronous).
    this.#processRuns(this.now());
    return dispatch(this, op, { version: rulesOf(version), served: version, body, ...injected });
  }

  /** Process everything due up to now(): tracking runs, expiry, retention, then the webhook queue. */
  async tick(): Promise<void> {
    const now = this.now();
    this.#processRuns(now);
    await this.#webhooks.sendDue(now);
  }

  toJSON(): AccountState {
    return {
      format: 2,
      nextId: this.#nextId,
      nextSeq: this.#webhooks.nextSeq,
      quotaUsed: this.quota.used,
      todayUsed: this.quota.todayUsed,
      today: this.quota.today,
      columns: [...RECORD_COLUMNS],
      records: Array.from(this.store.values(), encodeRecord),
      queue: this.#webhooks.snapshot(),
      deliveries: this.#webhooks.log.map((d) => ({ ...d })),
    };
  }

  /** Forget every record, the queue and the usage (settings stay). */
  reset(): void {
    this.store.clear();
    this.#runs.clear();
    this.#webhooks.clear();
    this.quota.used = 0;
    this.quota.todayUsed = 0;
    this.#nextId = 1;
  }

  stats(): Record<string, unknown> {
    let tracking = 0;
    for (const r of this.store.values()) if (r.tracking) tracking++;
    return {
      records: this.store.size,
      tracking,
      stopped: this.store.size - tracking,
      queuedWebhooks: this.#webhooks.size,
      inFlightWebhooks: this.#webhooks.inFlight,
      quotaUsed: this.quota.used,
      todayUsed: this.quota.todayUsed,
      scheduled: this.#runs.size,
      nextDueMs: this.#runs.peek()?.dueMs ?? null,
      /** The latest attempts (newest last); deliveries() has the whole history kept. */
      recentDeliveries: this.#webhooks.log.slice(-50),
    };
  }

  /** Delivery history (newest last), at most the last WebhookQueue.LOG_MAX attempts. */
  deliveries(): readonly DeliveryLogEntry[] {
    return this.#webhooks.log;
  }

  // ---- AccountCore: what the operations use ----

  addRecord(init: NewRecord): RecordState {
    const now = this.now();
    const rec: RecordState = {
      id: this.#nextId++,
      ...init,
      registerMs: now,
      trackingStartMs: now,
      tracking: true,
      stopMs: null,
      stopReason: null,
      stopNotifiedMs: null,
      retracked: false,
      changeCount: 0,
      pending: true,
      langCharged: false,
      dueMs: now + firstRunDelay(init.number),
      trackMs: null,
      ...emptyResult(),
      pushMs: null,
      pushStatus: 'NotPushed',
      pushCode: null,
    };
    this.store.add(rec);
    this.schedule(rec);
    return rec;
  }

  removeRecord(rec: RecordState): void {
    // Its schedule entries and queued notifications become stale (id no longer found) and are dropped.
    this.store.delete(rec);
  }

  schedule(rec: RecordState): void {
    this.#runs.push({ dueMs: rec.dueMs, id: rec.id, key: recordKey(rec.number, rec.carrier) });
  }

  stop(rec: RecordState, reason: StopReason, atMs: number): void {
    this.#stopAt(rec, reason, atMs);
    this.schedule(rec);
  }

  #stopAt(rec: RecordState, reason: StopReason, atMs: number): void {
    rec.tracking = false;
    rec.stopMs = atMs;
    rec.stopReason = reason;
    rec.dueMs = atMs + RETENTION_MS;
    // Only the expiry mechanism notifies (TRACKING_STOPPED "sent when a number is no longer tracked by
    // the service's expiry mechanism").
    if (reason === 'Expired') this.queueNotification(rec, 'TRACKING_STOPPED', atMs, false);
  }

  retrack(rec: RecordState): void {
    const now = this.now();
    rec.tracking = true;
    rec.retracked = true;
    rec.stopMs = null;
    rec.stopReason = null;
    rec.trackingStartMs = now;
    rec.dueMs = now + firstRunDelay(rec.number);
    this.schedule(rec);
  }

  changeCarrier(rec: RecordState, carrier: number, finalCarrier: number): void {
    const now = this.now();
    if (carrier !== rec.carrier) this.store.rekey(rec, carrier);
    rec.finalCarrier = finalCarrier;
    rec.changeCount++;
    rec.pending = true;
    rec.trackingStartMs = now;
    // The result under the old carrier no longer stands; the next run gives the first result again.
    Object.assign(rec, emptyResult());
    rec.trackMs = null;
    rec.dueMs = now + firstRunDelay(rec.number);
    this.schedule(rec);
  }

  runNow(rec: RecordState, atMs: number): void {
    this.#run(rec, atMs, this.world.tracker(rec));
    if (rec.tracking) {
      rec.dueMs = nextDue(rec, atMs);
      this.schedule(rec);
    }
  }

  queueNotification(rec: RecordState, event: WebhookEventName, snapshotMs: number, manual: boolean): boolean {
    if (!this.settings.webhookUrl) return false;
    this.#webhooks.enqueue(rec, event, snapshotMs, manual, this.now());
    return true;
  }

  webhookVersion(rec: RecordState): ApiVersion {
    return this.settings.webhookVersion ?? rec.version;
  }

  // ---- tracking ----

  #processRuns(now: number): void {
    for (;;) {
      const top = this.#runs.peek();
      if (!top || top.dueMs > now) return;
      this.#runs.pop();
      const rec = this.store.getByKey(top.key);
      if (!rec || rec.id !== top.id || rec.dueMs !== top.dueMs) continue; // stale
      this.#advance(rec, now);
    }
  }

  /** Bring one record up to `now`: every run, stop and deletion due in between, each at its own time. */
  #advance(rec: RecordState, now: number): void {
    let tracker: Tracker | undefined;
    while (rec.dueMs <= now) {
      const t = rec.dueMs;
      if (!rec.tracking) {
        // Retention: the only work of a stopped record.
        if (rec.stopMs !== null && t >= rec.stopMs + RETENTION_MS) {
          this.store.delete(rec);
          return;
        }
        rec.dueMs = (rec.stopMs ?? t) + RETENTION_MS;
        continue;
      }
      tracker ??= this.world.tracker(rec);
      this.#run(rec, t, tracker);
      const invalid = invalidCarrierDeadline(rec);
      if (invalid !== undefined && t >= invalid) {
        this.#stopAt(rec, 'InvalidCarrier', t);
        continue;
      }
      if (t >= expiryDeadline(rec)) {
        this.#stopAt(rec, 'Expired', t);
        continue;
      }
      rec.dueMs = nextDue(rec, t);
      this.#skipQuietRuns(rec, now, tracker);
    }
    this.schedule(rec);
  }

  /**
   * Runs that cannot change anything (no event before them, no deadline reached) only move track_time.
   * After a clock jump of weeks this turns hundreds of runs per record into one step.
   */
  #skipQuietRuns(rec: RecordState, now: number, tracker: Tracker): void {
    if (rec.trackMs === null) return;
    const first = rec.dueMs;
    const interval = first - rec.trackMs;
    if (interval <= 0) return;
    const limit = Math.min(
      tracker.nextChangeAfter(rec.trackMs),
      expiryDeadline(rec),
      invalidCarrierDeadline(rec) ?? Number.POSITIVE_INFINITY,
      now + 1,
    );
    // Runs at first, first + interval, ... strictly before `limit` all see the result of the last run.
    const k = Math.floor((limit - 1 - first) / interval);
    if (k < 0) return;
    const last = first + k * interval;
    rec.trackMs = last;
    rec.dueMs = nextDue(rec, last);
  }

  /** One tracking run at `t`: events up to t become known; a changed result is notified. */
  #run(rec: RecordState, t: number, tracker: Tracker): void {
    const s = tracker.summaryAt(t);
    rec.trackMs = t;
    rec.pending = false;
    const changed = s.fingerprint !== rec.resultKey;
    this.#keepResult(rec, s);
    if (!changed) return;
    // The translation unit falls due with the first result after lang was set.
    if (rec.lang !== null && !rec.langCharged) rec.langCharged = this.quota.tryCharge(1);
    this.queueNotification(rec, 'TRACKING_UPDATED', t, false);
  }

  /** Keep a run's result on the record: what lists and filters read. */
  #keepResult(rec: RecordState, s: RunSummary): void {
    rec.status = s.status;
    rec.subStatus = s.subStatus;
    rec.firstEventMs = s.firstEventMs;
    rec.lastEventMs = s.lastEventMs;
    rec.pickupMs = s.pickupMs;
    rec.deliveredMs = s.deliveredMs;
    rec.transitStartMs = s.transitStartMs;
    rec.latestEventInfo = s.latestEventInfo;
    rec.latestEventOffset = s.latestEventOffset;
    rec.shippingCountry = s.shippingCountry;
    rec.recipientCountry = s.recipientCountry;
    rec.resultKey = s.fingerprint;
  }

  // ---- state ----

  #restore(state: AccountState): void {
    this.#nextId = state.nextId;
    this.quota.used = state.quotaUsed;
    this.quota.todayUsed = state.todayUsed;
    this.quota.today = state.today;
    if (state.format !== 2) throw new Error(`saved account has format ${String(state.format)}, expected 2`);
    const index = columnIndex(state.columns);
    for (const row of state.records) {
      const rec = decodeRecord(index, row);
      // The stored result is recomputed: the world tells the same story for the same inputs.
      if (rec.trackMs !== null) this.#keepResult(rec, this.world.tracker(rec).summaryAt(rec.trackMs));
      this.store.add(rec);
      this.schedule(rec);
    }
    this.#webhooks.restore(state.queue, state.nextSeq, state.deliveries);
  }
}
