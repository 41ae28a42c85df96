// The webhook queue: notifications wait here until due, are sent through the transport's `deliver`,
// and are retried on failure 600, 1800 and 3600 seconds (simulated) after each failed attempt, then
// abandoned. A queued entry holds only a reference and the time of the result it reports; the body is
// built when it is sent, so 100,000 queued first results do not hold 100,000 bodies.
//
// Order: the notifications of one record are sent one after the other in queue order (a TRACKING_STOPPED
// never overtakes the TRACKING_UPDATED before it); different records are sent concurrently.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { AccountCore } from './core.js';
import { recordKey } from './store.js';
import { SECOND } from './time.js';
import type { DeliveryLogEntry, QueuedNotification, RecordState, WebhookDelivery, WebhookEventName } from './types.js';
import { signedWebhook } from './webhook-body.js';
import { MinHeap } from '../min-heap.js';
import { translation } from '../ops/track-info.js';

/** Delays before the 2nd, 3rd and 4th attempt. */
export const RETRY_DELAYS_MS = [600 * SECOND, 1800 * SECOND, 3600 * SECOND] as const;
/** Records whose notifications are sent at the same time. */
const CONCURRENCY = 8;
/** Attempts started by one tick at most; the rest wait for the next tick. */
const BATCH_MAX = 500;
const LOG_MAX = 1000;

export class WebhookQueue {
  static readonly LOG_MAX = LOG_MAX;
  readonly #core: AccountCore;
  readonly #deliver: (d: WebhookDelivery) => Promise<number>;
  #heap = new MinHeap<QueuedNotification>((e) => e.dueMs);
  /** Keys of records with a send under way: their next notifications wait. */
  readonly #busy = new Set<string>();
  #inFlight = 0;
  nextSeq = 1;
  log: DeliveryLogEntry[] = [];

  constructor(core: AccountCore, deliver: (d: WebhookDelivery) => Promise<number>) {
    this.#core = core;
    this.#deliver = deliver;
  }

  get size(): number {
    return this.#heap.size;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  enqueue(rec: RecordState, event: WebhookEventName, snapshotMs: number, manual: boolean, now: number): void {
    this.#heap.push({
      seq: this.nextSeq++,
      recordId: rec.id,
      key: recordKey(rec.number, rec.carrier),
      event,
      snapshotMs,
      manual,
      attempts: 0,
      // An automatic notification is due when its result was found (earlier than now after a jump).
      dueMs: Math.min(snapshotMs, now),
    });
  }

  snapshot(): QueuedNotification[] {
    return this.#heap.values().map((e) => ({ ...e }));
  }

  restore(queue: QueuedNotification[], nextSeq: number, log: DeliveryLogEntry[]): void {
    this.#heap = new MinHeap<QueuedNotification>(
      (e) => e.dueMs,
      queue.map((e) => ({ ...e })),
    );
    this.nextSeq = nextSeq;
    this.log = log.slice(-LOG_MAX);
  }

  clear(): void {
    this.#heap.clear();
    this.log = [];
  }

  /** Send what is due at `now`; resolves when the sends started here have finished. */
  async sendDue(now: number): Promise<void> {
    const groups = new Map<string, QueuedNotification[]>();
    const later: QueuedNotification[] = [];
    let taken = 0;
    while (taken < BATCH_MAX) {
      const top = this.#heap.peek();
      if (!top || top.dueMs > now) break;
      this.#heap.pop();
      if (this.#busy.has(top.key)) {
        later.push(top);
        continue;
      }
      const group = groups.get(top.key);
      if (group) group.push(top);
      else groups.set(top.key, [top]);
      taken++;
    }
    for (const e of later) this.#heap.push(e);
    if (groups.size === 0) return;
    for (const group of groups.values()) group.sort((a, b) => a.dueMs - b.dueMs || a.seq - b.seq);
    const pending = [...groups.entries()];
    for (const [key] of pending) this.#busy.add(key);
    const worker = async (): Promise<void> => {
      for (let next = pending.shift(); next; next = pending.shift()) {
        const [key, group] = next;
        try {
          for (const entry of group) await this.#attempt(entry);
        } finally {
          this.#busy.delete(key);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
  }

  async #attempt(entry: QueuedNotification): Promise<void> {
    const core = this.#core;
    const rec = core.store.getByKey(entry.key);
    // Deleted (or deleted and registered again): nothing to report any more.
    if (!rec || rec.id !== entry.recordId) return;
    const url = core.settings.webhookUrl;
    if (!url) return; // webhook removed since: nothing is sent
    if (
      entry.event === 'TRACKING_UPDATED' &&
      !entry.manual &&
      rec.stopNotifiedMs !== null &&
      entry.snapshotMs <= rec.stopNotifiedMs
    ) {
      return; // "No further TRACKING_UPDATED is sent after TRACKING_STOPPED."
    }
    if (entry.event === 'TRACKING_STOPPED') rec.stopNotifiedMs = Math.max(rec.stopNotifiedMs ?? 0, entry.snapshotMs);
    const sentAt = core.now();
    const version = core.webhookVersion(rec);
    const { headers, body } = signedWebhook(
      version,
      entry.event,
      this.#data(rec, entry, version, sentAt),
      core.settings.key,
    );
    this.#inFlight++;
    let status: number;
    try {
      status = await this.#deliver({ url, headers, body });
    } catch {
      status = 0;
    } finally {
      this.#inFlight--;
    }
    if (!Number.isInteger(status)) status = 0;
    entry.attempts++;
    this.log.push({
      timeMs: sentAt,
      event: entry.event,
      number: rec.number,
      carrier: rec.carrier,
      attempt: entry.attempts,
      status,
      url,
    });
    if (this.log.length > LOG_MAX) this.log.splice(0, this.log.length - LOG_MAX);
    // The record may have been deleted while the request was under way.
    if (core.store.getByKey(recordKey(rec.number, rec.carrier)) === rec) {
      rec.pushMs = sentAt;
      rec.pushStatus = status === 200 ? 'Success' : 'Failure';
      rec.pushCode = status;
    }
    const delay = RETRY_DELAYS_MS[entry.attempts - 1];
    if (status !== 200 && delay !== undefined) {
      entry.dueMs = core.now() + delay;
      this.#heap.push(entry);
    }
  }

  #data(rec: RecordState, entry: QueuedNotification, version: ApiVersion, now: number): Record<string, unknown> {
    const core = this.#core;
    if (entry.event === 'TRACKING_STOPPED') {
      return version === 'v1'
        ? { number: rec.number, carrier: rec.carrier, tag: rec.tag }
        : { number: rec.number, carrier: rec.carrier, param: rec.param, tag: rec.tag };
    }
    if (version === 'v1') {
      return { number: rec.number, tag: rec.tag, track: core.world.v1Track(rec, entry.snapshotMs, now, 'webhook') };
    }
    return {
      number: rec.number,
      carrier: rec.carrier,
      param: rec.param,
      tag: rec.tag,
      track_info: core.world.trackInfo(rec, entry.snapshotMs, now, version, translation(rec)),
    };
  }
}
