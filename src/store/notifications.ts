// The webhook's side of the mirror: a verified notification written durably, for `trk webhook listen --store`,
// which answers 200 only once `write` has resolved (the service retries what it does not get a 200 for).
// TRACKING_UPDATED brings the record's details (and a change when its status moved, also for a number the mirror
// did not know: from null); TRACKING_STOPPED marks the record no longer tracked.
//
// Notifications that arrive while a commit is on its way are written together in the next transaction (a group
// commit): each commit waits for the disk, so a flood is written a batch at a time, at hundreds a second, while
// each sender still waits only for the commit that holds its notification. What is held is bounded by what the
// listener reads at once.

import type { ApiVersion } from '@trk/service/vocabulary.js';
import { detailsRow, keyOf } from './rows.js';
import type { ChangeRow, Store } from './types.js';

export interface VerifiedNotification {
  /** The body as parsed: `{event, data}`. */
  body: unknown;
  /** The signature rule it passed: v1 bodies have v1's shapes; v2 covers v2 and v2.1. */
  version: 'v1' | 'v2';
}

export interface NotificationOutcome {
  /** What was written: details, a stop, or nothing (an event this store does not keep, or older details). */
  stored: 'details' | 'stopped' | 'nothing';
  change: ChangeRow | undefined;
}

interface Waiting {
  notification: VerifiedNotification;
  resolve(outcome: NotificationOutcome): void;
  reject(err: unknown): void;
}

/** Notifications written in one transaction at most. */
const BATCH = 200;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export class NotificationWriter {
  readonly #store: Store;
  #waiting: Waiting[] = [];
  #writing: Promise<void> | undefined;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Resolves once the notification is committed (or known to need no write). */
  write(notification: VerifiedNotification): Promise<NotificationOutcome> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ notification, resolve, reject });
      this.#writing ??= this.#drain();
    });
  }

  /** Batches until nothing waits. */
  async #drain(): Promise<void> {
    // Let the notifications read in the same turn join the first batch.
    await new Promise<void>((r) => setImmediate(r));
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, BATCH);
      try {
        const outcomes = await this.#writeBatch(batch.map((w) => w.notification));
        for (const [i, w] of batch.entries()) w.resolve(outcomes[i]!);
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.#writing = undefined;
  }

  async #writeBatch(batch: readonly VerifiedNotification[]): Promise<NotificationOutcome[]> {
    const outcomes: NotificationOutcome[] = batch.map(() => ({ stored: 'nothing', change: undefined }));
    const updates = batch.flatMap((n, i) => {
      const body = obj(n.body);
      if (body.event !== 'TRACKING_UPDATED') return [];
      return [{ i, row: detailsRow(body.data, n.version as ApiVersion, null) }];
    });
    const written = await this.#store.writeDetails(
      updates.map((u) => u.row),
      'webhook',
    );
    for (const { i, row } of updates) {
      outcomes[i] = {
        stored: 'details',
        change: written.changes.find((c) => c.number === row.number && c.carrier === row.carrier),
      };
    }
    for (const [i, n] of batch.entries()) {
      const body = obj(n.body);
      if (body.event !== 'TRACKING_STOPPED') continue;
      const data = obj(body.data);
      await this.#store.markStopped(keyOf(String(data.number ?? ''), data.carrier), {
        tag: text(data.tag),
        param: text(data.param),
      });
      outcomes[i] = { stored: 'stopped', change: undefined };
    }
    return outcomes;
  }
}
