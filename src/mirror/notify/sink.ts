// `trk webhook listen --store --notify`: the rules run as notifications arrive. Each notification is stored first
// (the store's sink writes it before the service is answered); once answered, a run of the rules is started, one at
// a time (a notification arriving during a run starts one more after it). The runs share the ledger with
// `trk notify run` from cron: whichever claims a message first sends it, the other never does.

import type { Context } from '../../context/context.js';
import type { ReceivedEvent, Sink } from '../../webhook/listen.js';
import { plural } from '../../core/text.js';
import type { Store } from '../../store/types.js';
import { mailSettings, messageContext, readRules, senders } from './setup.js';
import { NotifyRun } from './run.js';

export class NotifySink implements Sink {
  readonly #store: Store;
  readonly #makeRun: () => NotifyRun;
  readonly #log: (line: string) => void;
  readonly #release: () => Promise<void>;
  #running: Promise<void> | undefined;
  #again = false;
  #sent = 0;
  #problems = 0;

  /** `makeRun`: a run of the rules over `store` (the store's sink's, which closes it after this sink). */
  constructor(store: Store, makeRun: () => NotifyRun, log: (line: string) => void, release: () => Promise<void>) {
    this.#store = store;
    this.#makeRun = makeRun;
    this.#log = log;
    this.#release = release;
  }

  async afterAnswer(ev: ReceivedEvent): Promise<void> {
    // Only a notification the mirror kept can have made a change.
    if (!ev.verified || ev.status !== 200) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#runWhileAsked().finally(() => (this.#running = undefined));
  }

  async #runWhileAsked(): Promise<void> {
    do {
      this.#again = false;
      try {
        const run = this.#makeRun();
        const s = await run.run(await readRules(this.#store));
        this.#sent += s.sent;
        this.#problems += s.failed + s.bounced;
        if (s.sent || s.failed || s.bounced) {
          this.#log(`notify: ${plural(s.sent, 'message')} sent, ${s.failed} failed, ${s.bounced} bounced`);
        }
        for (const p of s.problems) this.#log(p);
      } catch (err) {
        this.#problems += 1;
        this.#log(`notify: the run stopped: ${(err as Error).message} (the next notification or run takes it up)`);
      }
    } while (this.#again);
  }

  /** Before the store's sink closes the mirror: the run under way finishes. */
  async close(): Promise<void> {
    await this.#running;
    await this.#release();
  }

  summary(): { counts: string; notes: string[] } {
    const problems = this.#problems ? `, ${plural(this.#problems, 'message')} failed or bounced` : '';
    return { counts: `${plural(this.#sent, 'message')} sent by the rules${problems}`, notes: [] };
  }
}

/**
 * The sink of --notify over the mirror --store opened: the mail settings checked now (exit 2 before listening when a
 * rule sends mail without them), the rest read at each run (a rule added meanwhile is run too).
 */
export async function openNotifySink(ctx: Context, store: Store): Promise<NotifySink> {
  const s = await ctx.settings();
  const mail = await mailSettings(ctx, await readRules(store));
  const names = await messageContext(ctx);
  const send = senders(ctx, mail ?? (s.smtpUrl && s.smtpFrom ? { url: s.smtpUrl, from: s.smtpFrom } : undefined));
  const opts = { dryRun: false, pace: s.notifyPace, from: s.smtpFrom };
  const output = { out: () => {}, info: (line: string) => ctx.info(line) };
  const makeRun = () => new NotifyRun(store, send, names, opts, output);
  return new NotifySink(
    store,
    makeRun,
    (line) => ctx.io.err(line),
    () => send.close(),
  );
}
