// `trk sync`: the account's records (gettracklist, every page) and their tracking details (gettrackinfo, 40 a
// request) into the mirror, at the service's ceiling.
//
// - Incremental by default: the records whose tracking or stop time is at or after the latest service time the last
//   sync saw (less a margin, for answers the service wrote late), one query each (SINCE says why those two), in the
//   order of that time, so that records moving during the read go to the end rather than shift pages; then the
//   details of the records whose track time moved past the tracking their details answer, or that have none. A
//   first sync, and `--full`, read every record instead, and take out of the mirror those the service no longer
//   has (each confirmed missing by an exact lookup before it goes: a page that shifted during the read must not
//   delete a record).
// - Several requests in flight (pages as src/api/pages.ts reads them, details by a pool of workers), all through
//   the context's client, whose pacer holds the shared rate budget.
// - Crash-safe: each page's records and each answer's details are one transaction; the watermark is written
//   once the listing is done. A sync killed at any point leaves a consistent mirror, and the next one asks only
//   for the details still missing (the mirror itself says which: `pendingDetails`).
// - Times come from the service's answers alone: the watermark is the latest time seen in them.
// - The summary counts records, each once however many answers it is in (RecordsMet).

import type { ApiClient } from '../api/client.js';
import { wireBody } from '../api/request-body.js';
import { AuthenticationError, EndpointNotFoundError } from '../api/errors.js';
import { trackListPages, type TrackListQuery } from '../api/pages.js';
import { LIMITS, type ApiVersion } from '@trk/service/vocabulary.js';
import type { Envelope, TrackListFilter } from '@trk/service/types.js';
import { InterruptedError, stopExitCode } from '../core/errors.js';
import { claimMirror } from './open.js';
import { canonicalMs, detailsRow, recordRow } from '../store/rows.js';
import type { RecordKey, Store } from '../store/types.js';

/** Records a listing rereads before the watermark: answers the service wrote a little after their time (a commit
 * that took seconds); a wider margin costs every sync the records tracked in it. */
export const WATERMARK_MARGIN_MS = 2 * 60_000;
/** gettrackinfo requests in flight at once (the pacer still starts at most 3 a second). */
export const DETAILS_IN_FLIGHT = 8;

export interface SyncOptions {
  full?: boolean | undefined;
  /** The account's identity (see accountId): a mirror of another account is refused. */
  account: string;
  /** The profile's version: what a v1-only account lists in. */
  version: ApiVersion;
  /** A client of `version`, and one of v2.1 when it differs. */
  client(version: ApiVersion): Promise<ApiClient>;
  /** Now, for the mirror's age (the service's clock under --sandbox). */
  now(): number;
  signal: AbortSignal;
  onProgress?: (p: SyncProgress) => void;
}

export interface SyncProgress {
  phase: 'records' | 'deletions';
  pagesDone: number;
  pagesTotal: number | undefined;
  detailsDone: number;
}

export interface SyncSummary {
  full: boolean;
  list_version: ApiVersion;
  records_listed: number;
  records_added: number;
  records_deleted: number;
  details_fetched: number;
  changes: number;
  requests: number;
  watermark: string | null;
}

const LIST_VERSION = 'list_version';
const WATERMARK = 'watermark';
/** When a sync last read every page of the mirror (its check). */
const CHECKED_AT = 'checked_at';
/** How often a sync checks every page: damage no read met is found within a day of hourly syncs. */
const CHECK_EVERY_MS = 24 * 3_600_000;

/**
 * The incremental queries, each from the watermark on (in that field's order where the version can sort), and why
 * each is asked: the tracking time's alone would be what a watermark costs, and one more query is the most this
 * list may grow by.
 */
const SINCE: readonly [keyof TrackListFilter, string | undefined][] = [
  // Every run of the service's tracking moves it, changed or not: a new record's first result (within seconds of
  // its registration), every new event, an automatic stop (expiry, an invalid carrier: taken at a run), a retrack
  // or a change of carrier once tracked again. A push follows the run that changed the record, whose tracking
  // time this query meets: a push status that comes after the sync read the record is mirrored at its next run
  // (or by `webhook listen --store`, which stores the push itself).
  ['track_time_from', 'TrackTimeAsc'],
  // A stop by stoptrack (trk stop, another client) moves no tracking time, and the record is never tracked again:
  // without this query the mirror would show it tracking for ever.
  ['stop_track_time_from', undefined],
];

/** How the list is read: its version, the client of it once settled, and the listing run through it. */
interface Lister {
  version: ApiVersion;
  /** The client of the version the list is read in, once its first answer settled it. */
  settled: Promise<ApiClient>;
  list(read: (client: ApiClient) => Promise<void>): Promise<void>;
}

/** The account cannot use a version: no such endpoint, or the service's code for a version not enabled. */
function refusesVersion(err: unknown): boolean {
  return err instanceof EndpointNotFoundError || (err instanceof AuthenticationError && err.serviceCode === -18010005);
}

type PendingKey = RecordKey & { track_time: string | null };

const idOf = (k: RecordKey): string => `${k.number}\u0000${k.carrier}`;

/** What a run did with a record (RecordsMet). */
const LISTED = 1;
const ASKED = 2;

/**
 * The records a run met, each once however often: listed (the summary counts records, not rows of answers: a
 * record is in two incremental queries when registered and tracked since the watermark, and the service's pages
 * repeat records that moved between two page reads), and whose details it asked for (never twice: one the service
 * does not answer for stays pending for the next sync rather than be asked for again and again). One map for both
 * rather than a set each, since a full sync lists and asks for every record: 300,000 records keep about 26 MiB here
 * on Node 20, where two sets of the same keys took 75 MiB.
 */
class RecordsMet {
  readonly #flags = new Map<string, number>();

  /** Marks `k` with `flag`: true when it had no such mark yet. */
  mark(k: RecordKey, flag: typeof LISTED | typeof ASKED): boolean {
    const id = idOf(k);
    const flags = this.#flags.get(id) ?? 0;
    if (flags & flag) return false;
    this.#flags.set(id, flags | flag);
    return true;
  }
}

/** A count that others can wait on: pages written, then done. */
class Progress {
  count = 0;
  done = false;
  #waiting: (() => void)[] = [];

  notify(): void {
    this.count += 1;
    for (const wake of this.#waiting.splice(0)) wake();
  }

  settle(): void {
    this.done = true;
    this.notify();
  }

  /** Resolves once the count passed `seen` (or the end came). */
  after(seen: number): Promise<void> {
    if (this.count > seen || this.done) return Promise.resolve();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

export class SyncRun {
  readonly #store: Store;
  readonly #opts: SyncOptions;
  readonly #summary: SyncSummary;
  #latestSeen = '';
  /** Pages written, and the end of the listing: what the details workers wait for when nothing is pending. */
  readonly #listed = new Progress();
  readonly #met = new RecordsMet();
  /** The listing failed: the details workers stop too. */
  #halted = false;
  #progress: SyncProgress = { phase: 'records', pagesDone: 0, pagesTotal: 0, detailsDone: 0 };
  /** Told of every page written: the first one settles the version of a first sync (#lister). */
  #onFirstPage: (() => void) | undefined;

  constructor(store: Store, opts: SyncOptions) {
    this.#store = store;
    this.#opts = opts;
    this.#summary = {
      full: false,
      list_version: opts.version,
      records_listed: 0,
      records_added: 0,
      records_deleted: 0,
      details_fetched: 0,
      changes: 0,
      requests: 0,
      watermark: null,
    };
  }

  /** Once a day, before anything is asked or written: every page read, a damaged mirror refused (open.ts). */
  async #checkDaily(): Promise<void> {
    const checked = await this.#store.state(CHECKED_AT);
    const now = this.#opts.now();
    if (checked !== undefined && now - Date.parse(checked) < CHECK_EVERY_MS) return;
    await this.#store.check();
    await this.#store.setState({ [CHECKED_AT]: canonicalMs(now) });
  }

  async run(): Promise<SyncSummary> {
    await claimMirror(this.#store, this.#opts.account);
    await this.#checkDaily();
    const watermark = await this.#store.state(WATERMARK);
    const full = this.#opts.full === true || watermark === undefined;
    this.#summary.full = full;
    this.#latestSeen = watermark ?? '';
    const lister = await this.#lister();
    // Details are asked for while the list is still read: the requests of both keep the budget busy, and neither
    // phase waits for the last answers of the other.
    const listing = (async () => {
      try {
        await lister.list((client) => (full ? this.#fullListing(client) : this.#listSince(client, watermark!)));
      } catch (err) {
        this.#halted = true;
        throw err;
      } finally {
        this.#listed.settle();
      }
      this.#summary.watermark = this.#latestSeen || null;
      // The listing is complete: the next sync starts from what it saw (details still missing are found anyway).
      await this.#store.setState({
        ...(this.#latestSeen ? { [WATERMARK]: this.#latestSeen } : {}),
        [LIST_VERSION]: lister.version,
        ...(full ? { last_full_sync_at: canonicalMs(this.#opts.now()) } : {}),
      });
    })();
    const details = lister.settled.then((client) => this.#fetchDetails(client));
    // Either failing stops the other (their requests share the abort of this run).
    const results = await Promise.allSettled([listing, details]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await this.#store.setState({ synced_at: canonicalMs(this.#opts.now()) });
    return this.#summary;
  }

  /**
   * The version the list is read in. v2.1 lists carry order number, e-mail, remark and the latest event, which
   * search needs: read in v2.1 whatever the profile's version, unless the account cannot use it (then what the
   * profile's version gives). A first sync finds out from the listing's own first answer, with no request of its
   * own: refused before any page came, the listing starts again in the profile's version. What it found is kept
   * in the mirror for every later sync.
   */
  async #lister(): Promise<Lister> {
    const known = (await this.#store.state(LIST_VERSION)) as ApiVersion | undefined;
    const preferred: ApiVersion = known ?? 'v2.1';
    const fallback = known === undefined && preferred !== this.#opts.version ? this.#opts.version : undefined;
    let client = await this.#opts.client(preferred);
    this.#summary.list_version = preferred;
    let settle: (c: ApiClient) => void = () => {};
    const settled = new Promise<ApiClient>((resolve) => (settle = resolve));
    if (fallback === undefined) settle(client);
    else this.#onFirstPage = () => settle(client);
    const lister: Lister = {
      version: preferred,
      settled,
      list: async (read) => {
        try {
          await read(client);
        } catch (err) {
          if (fallback === undefined || this.#progress.pagesDone > 0 || !refusesVersion(err)) throw err;
          client = await this.#opts.client(fallback);
          lister.version = this.#summary.list_version = fallback;
          settle(client);
          await read(client);
        } finally {
          // The details workers stop with a failed listing: they must not wait for a version for ever.
          settle(client);
        }
      },
    };
    return lister;
  }

  async #call<A>(client: ApiClient, op: 'gettracklist' | 'gettrackinfo', body: unknown): Promise<Envelope<A>> {
    this.#summary.requests += 1;
    return client.call<A>(op, body, { signal: this.#opts.signal });
  }

  #checkStopped(): void {
    if (this.#opts.signal.aborted) throw new InterruptedError('interrupted', stopExitCode(this.#opts.signal));
  }

  #report(patch: Partial<SyncProgress>): void {
    this.#progress = { ...this.#progress, ...patch };
    this.#opts.onProgress?.(this.#progress);
  }

  /** The pages of `query`, checked against the service's counts (src/api/pages.ts), each request counted. */
  #pages(client: ApiClient, query: TrackListQuery) {
    return trackListPages<Record<string, unknown>>({
      client,
      query,
      signal: this.#opts.signal,
      onRequest: () => {
        this.#summary.requests += 1;
      },
    });
  }

  /** Every page of one query, each written in one transaction as it comes. */
  async #listQuery(client: ApiClient, filter: TrackListFilter, fullSync?: number): Promise<void> {
    const totalBefore = this.#progress.pagesTotal ?? 0;
    // A page that comes after Ctrl-C is not handed on: nothing of it is written.
    for await (const page of this.#pages(client, { filter })) {
      if (page.pageNo === 1 && page.sentPageTotal !== undefined) {
        this.#report({ pagesTotal: totalBefore + page.sentPageTotal });
      }
      const rows = page.records.map((item) => recordRow(item, client.version));
      for (const r of rows) if (r.as_of > this.#latestSeen) this.#latestSeen = r.as_of;
      const { added } = await this.#store.writeRecords(rows, fullSync);
      this.#listed.notify();
      this.#onFirstPage?.();
      this.#summary.records_listed += rows.filter((r) => this.#met.mark(r, LISTED)).length;
      this.#summary.records_added += added;
      this.#report({ pagesDone: this.#progress.pagesDone + 1 });
    }
  }

  async #fullListing(client: ApiClient): Promise<void> {
    const fullSync = await this.#store.nextFullSync();
    await this.#listQuery(client, {}, fullSync);
    this.#report({ phase: 'deletions' });
    await this.#reconcileDeletions(client, fullSync);
  }

  async #listSince(client: ApiClient, watermark: string): Promise<void> {
    const from = new Date(Date.parse(watermark) - WATERMARK_MARGIN_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
    // The queries at once: each is at least a round trip, and they do not depend on each other.
    await Promise.all(
      SINCE.map(([field, order]) => {
        const filter: TrackListFilter = { [field]: from };
        // v1 cannot sort a list: its default order stands.
        if (order !== undefined && client.version !== 'v1') filter.order_by = order;
        return this.#listQuery(client, filter);
      }),
    );
  }

  /**
   * Records the full listing did not see: gone from the service, unless a page shifted under the read. Each is
   * looked up exactly (200 numbers a request) and leaves the mirror only when the service does not have it.
   */
  async #reconcileDeletions(client: ApiClient, fullSync: number): Promise<void> {
    let after: RecordKey | undefined;
    for (;;) {
      const unseen = await this.#store.unseen(fullSync, after, LIMITS.listNumberFilterMax);
      if (unseen.length === 0) return;
      after = unseen[unseen.length - 1];
      const present = new Set<string>();
      const numbers = [...new Set(unseen.map((k) => k.number))];
      // One number is a partial match for the service; the records it names are checked exactly here.
      const filter = { number: numbers.join(',') };
      for await (const page of this.#pages(client, { filter })) {
        for (const item of page.records) present.add(idOf(recordRow(item, client.version)));
      }
      const gone = unseen.filter((k) => !present.has(idOf(k)));
      this.#summary.records_deleted += await this.#store.deleteRecords(gone);
    }
  }

  /**
   * The details the mirror lacks, 40 a request, several requests in flight, while the listing goes on: the
   * mirror says which records lack them (pendingDetails, in key order); when none is left after the last key
   * handed out, the workers wait for the next page written and look again from the first key, skipping the
   * records already being asked for. Once the listing is done, one last pass finds whatever remains.
   */
  async #fetchDetails(client: ApiClient): Promise<void> {
    const size = LIMITS.itemsPerRequest;
    let after: RecordKey | undefined;
    let batches: PendingKey[][] = [];
    let finished = false;
    const refill = async (): Promise<void> => {
      for (;;) {
        const listingDone = this.#listed.done;
        const seen = this.#listed.count;
        const keys = (await this.#store.pendingDetails(after, size * DETAILS_IN_FLIGHT)).filter((k) =>
          this.#met.mark(k, ASKED),
        );
        if (keys.length > 0) {
          after = keys[keys.length - 1];
          for (let i = 0; i < keys.length; i += size) batches.push(keys.slice(i, i + size));
          return;
        }
        if (after !== undefined) {
          after = undefined;
          continue;
        }
        if (listingDone) {
          finished = true;
          return;
        }
        await this.#listed.after(seen);
      }
    };
    let filling: Promise<void> | undefined;
    const next = async (): Promise<PendingKey[] | undefined> => {
      while (batches.length === 0 && !finished) {
        filling ??= refill().finally(() => (filling = undefined));
        await filling;
      }
      return batches.shift();
    };
    const worker = async () => {
      for (let batch = await next(); batch; batch = await next()) {
        this.#checkStopped();
        if (this.#halted) return;
        await this.#detailsOf(client, batch);
      }
    };
    try {
      await Promise.all(Array.from({ length: DETAILS_IN_FLIGHT }, worker));
    } finally {
      batches = [];
    }
  }

  async #detailsOf(client: ApiClient, keys: readonly PendingKey[]): Promise<void> {
    const trackTimes = new Map(keys.map((k) => [idOf(k), k.track_time]));
    const items = keys.map((k) => ({ number: k.number, ...(k.carrier ? { carrier: k.carrier } : {}) }));
    const env = await this.#call(client, 'gettrackinfo', wireBody('gettrackinfo', client.version, items));
    const rows = (env.data?.accepted ?? []).flatMap((item) => {
      const row = detailsRow(item, client.version, null);
      const id = idOf(row);
      // Only the records asked for (a number asked without a carrier answers for each of its carriers), each once
      // (the first answer for it), so that the summary counts records.
      if (!trackTimes.has(id)) return [];
      const asked = trackTimes.get(id) ?? null;
      trackTimes.delete(id);
      return [{ ...row, record_track_time: asked }];
    });
    const written = await this.#store.writeDetails(rows, 'sync');
    this.#summary.details_fetched += rows.length;
    this.#summary.changes += written.changes.length;
    this.#report({ detailsDone: this.#progress.detailsDone + rows.length });
  }
}
