// The chunk runner's lookups after lost answers. A request of an operation that costs quota may have been
// processed without trk seeing the answer (answer lost, timeout, 500, items missing from an answer, a journal
// that says "maybe sent"): before any of its numbers is sent again, the chunk is looked up with gettracklist (the
// exact number filter, several chunks a call up to the filter's 200 numbers, after a short wait so the service
// has finished with it). What is found counts as accepted (`verified: true`), the rest is sent again.

import { LIMITS } from '@trk/service/vocabulary.js';
import type { ChunkRow } from './chunker.js';
import type { ItemOperation } from './fields.js';
import { keyOf, recordCarrier, recordFinalCarrier, type Pending, type RunnerCalls, type Work } from './chunk-work.js';
import type { ListReads } from './list-reads.js';
import type { RegisteredTags } from './registered-tags.js';

export class LostAnswers {
  readonly #op: ItemOperation;
  readonly #runner: RunnerCalls;
  readonly #reads: ListReads;
  readonly #tags: RegisteredTags;
  /** Wait before looking up a chunk whose answer was lost. */
  readonly #delayMs: number;
  readonly #waiting: { p: Pending; notBefore: number }[] = [];
  #verifications = 0;

  constructor(
    op: ItemOperation,
    deps: { runner: RunnerCalls; reads: ListReads; tags: RegisteredTags; delayMs: number },
  ) {
    this.#op = op;
    this.#runner = deps.runner;
    this.#reads = deps.reads;
    this.#tags = deps.tags;
    this.#delayMs = deps.delayMs;
  }

  /** Chunks waiting for a lookup. */
  get size(): number {
    return this.#waiting.length;
  }

  /** Lost answers whose chunk was looked up. */
  get verifications(): number {
    return this.#verifications;
  }

  /** When the next lookup is due (Infinity: none waits). */
  get soonest(): number {
    return Math.min(...this.#waiting.map((u) => u.notBefore));
  }

  /** The chunk's answer was lost: looked up once the service has had time to finish with it (`now`: at once). */
  add(p: Pending, now?: 'now'): void {
    this.#waiting.push({ p, notBefore: now ? 0 : this.#runner.now() + this.#delayMs });
  }

  /** Chunks waiting for a lookup whose time has come, as many as one gettracklist call can check. */
  next(): Work | undefined {
    const now = this.#runner.now();
    const ps: Pending[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < this.#waiting.length; ) {
      const u = this.#waiting[i] as { p: Pending; notBefore: number };
      const add = new Set(u.p.open.map((r) => r.key).filter((k) => !keys.has(k)));
      if (u.notBefore > now || keys.size + add.size > LIMITS.listNumberFilterMax) {
        i++;
        continue;
      }
      for (const k of add) keys.add(k);
      ps.push(u.p);
      this.#waiting.splice(i, 1);
    }
    return ps.length > 0 ? this.#reads.start(() => this.#verify(ps)) : undefined;
  }

  /**
   * Looks up the chunks whose answers were lost, every page one after the other: what is found registered counts as
   * accepted (`verified`), the rest is sent again.
   */
  async #verify(ps: Pending[]): Promise<void> {
    const found = new Map<string, Record<string, unknown>[]>();
    const items = ps.flatMap((p) => p.open.map((r) => r.item));
    for await (const page of this.#reads.pagesOf('verify', ps, { items }, 1)) {
      for (const record of page.records) {
        const key = keyOf(record.number);
        const list = found.get(key);
        if (list) list.push(record);
        else found.set(key, [record]);
      }
    }
    this.#verifications += ps.length;
    for (const p of ps) {
      const still: ChunkRow[] = [];
      for (const row of p.open) {
        const record = (found.get(row.key) ?? []).find((r) => this.#matches(row, r));
        if (!record) {
          still.push(row);
          continue;
        }
        const accepted = this.#asAccepted(row, record);
        p.accepted.push(accepted);
        // Registered, but not with the tag asked for: registered before, or its tag changed since.
        const otherTag = row.item.tag !== undefined && record.tag !== row.item.tag;
        if (this.#op === 'register' && otherTag) this.#tags.mark(p, row, accepted);
      }
      this.#runner.debug(
        `chunk ${p.chunk.index}: ${p.open.length - still.length} of ${p.open.length} found registered after a ` +
          `lost answer`,
      );
      p.open = still;
      if (still.length === 0) this.#tags.settleOrTag(p);
      else this.#runner.first({ kind: 'send', p });
    }
  }

  /** Whether a registration record shows that the row's request was processed. */
  #matches(row: ChunkRow, record: Record<string, unknown>): boolean {
    const carrier = recordCarrier(record);
    const item = row.item;
    if (this.#op === 'changecarrier') {
      if (item.carrier_new !== undefined && carrier !== item.carrier_new) return false;
      if (item.final_carrier_new !== undefined && recordFinalCarrier(record) !== item.final_carrier_new) return false;
      return true;
    }
    return item.carrier === undefined || carrier === item.carrier;
  }

  #asAccepted(row: ChunkRow, record: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { number: record.number ?? row.item.number, carrier: recordCarrier(record) };
    if (this.#op === 'register' && 'tag' in record) out.tag = record.tag;
    out.verified = true;
    return out;
  }
}
