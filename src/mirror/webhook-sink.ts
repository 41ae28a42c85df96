// `trk webhook listen --store`: the listener's sink that keeps each verified notification in the mirror, in a
// SQLite file or a PostgreSQL database alike (NotificationWriter). Its write is awaited before the answer, so the
// service is told 200 only once the notification is committed; a write that fails, or that the database cannot
// finish before the service stops waiting, makes the answer 503, and the service sends the notification again later
// (writing it twice changes nothing: the upserts keep the newest details, and an unchanged status is no change).

import { plural } from '../core/text.js';
import type { ReceivedEvent, Sink } from '../webhook/listen.js';
import { NotificationWriter } from '../store/notifications.js';
import type { Store } from '../store/types.js';

/** The service waits about 5 s for an answer: a write still running after this is answered 503. */
export const STORE_DEADLINE_MS = 4_000;

export class StoreSink implements Sink {
  readonly #store: Store;
  readonly #writer: NotificationWriter;
  readonly #deadlineMs: number;
  #stored = 0;
  #changes = 0;
  #failed = 0;

  constructor(store: Store, opts: { deadlineMs?: number } = {}) {
    this.#store = store;
    this.#writer = new NotificationWriter(store);
    this.#deadlineMs = opts.deadlineMs ?? STORE_DEADLINE_MS;
  }

  async write(ev: ReceivedEvent): Promise<void> {
    // Only what the signature vouches for goes into the account's mirror.
    if (!ev.verified || ev.version === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the mirror took longer than ${this.#deadlineMs / 1000} s`)),
        this.#deadlineMs,
      );
    });
    try {
      const outcome = await Promise.race([this.#writer.write({ body: ev.body, version: ev.version }), late]);
      if (outcome.stored !== 'nothing') this.#stored += 1;
      if (outcome.change) this.#changes += 1;
    } catch (err) {
      this.#failed += 1;
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  summary(): { counts: string; notes: string[] } {
    const failed = this.#failed
      ? `, ${plural(this.#failed, 'write')} failed (answered 503: the service sends them again)`
      : '';
    return {
      counts:
        `${plural(this.#stored, 'notification')} stored in the mirror ` +
        `(${plural(this.#changes, 'status change')})${failed}`,
      notes: [],
    };
  }

  async close(): Promise<void> {
    await this.#store.close();
  }
}
