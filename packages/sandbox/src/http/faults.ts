// Faults the emulator can inject into API answers, to rehearse what the real service does on a bad day:
// slow answers, 500/503, answers lost after the work was done, bursts of 429, and list pages that repeat records
// of the page before. Random choices come from a seedable generator so that a rehearsal can be replayed exactly.

import { performance } from 'node:perf_hooks';
import { LIMITS } from '@trk/service/vocabulary.js';
import { mulberry32 } from '../world/random.js';

export interface Faults {
  /** Fixed delay added before every API answer. */
  latencyMs: number;
  /** Extra random delay, uniform in [0, jitterMs]. */
  jitterMs: number;
  /** Share (0..1) of API requests answered 500 or 503 (even odds). The account never sees them. */
  failureRate: number;
  /** Share (0..1) of API requests the account processes whose answer is then lost (socket destroyed). */
  dropRate: number;
  /** Answer 429 to the next N API requests (counts down). */
  burst429: number;
  /** Periodic 429 bursts: every this many real ms (0 = off)... */
  burst429EveryMs: number;
  /** ...all API requests get 429 for this many real ms. */
  burst429ForMs: number;
  /** Send `Retry-After` with 429 answers; off to rehearse a client that must back off on its own. */
  retryAfter: boolean;
  /**
   * gettracklist pages after the first start with this many records of the page before, as the service's pages do
   * when records move ahead between two page reads (applied by ops/track-list.ts); less than a page.
   */
  pageOverlap: number;
}

export const NO_FAULTS: Readonly<Faults> = Object.freeze({
  latencyMs: 0,
  jitterMs: 0,
  failureRate: 0,
  dropRate: 0,
  burst429: 0,
  burst429EveryMs: 0,
  burst429ForMs: 0,
  retryAfter: true,
  pageOverlap: 0,
});

const RATES = ['failureRate', 'dropRate'] as const;
const DURATIONS = ['latencyMs', 'jitterMs', 'burst429EveryMs', 'burst429ForMs'] as const;

/**
 * Check a partial fault setting from outside (control endpoint, command line). Unknown fields and wrong
 * values throw a RangeError whose message names the field, so that a typo is not silently ignored.
 */
export function parseFaults(input: unknown): Partial<Faults> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new RangeError('faults must be a JSON object');
  }
  const out: Partial<Faults> = {};
  for (const [field, value] of Object.entries(input)) {
    if ((RATES as readonly string[]).includes(field)) {
      if (typeof value !== 'number' || !(value >= 0 && value <= 1))
        throw new RangeError(`${field} must be a number from 0 to 1`);
      out[field as (typeof RATES)[number]] = value;
    } else if ((DURATIONS as readonly string[]).includes(field) || field === 'burst429') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
        throw new RangeError(`${field} must be a whole number >= 0`);
      }
      out[field as (typeof DURATIONS)[number] | 'burst429'] = value;
    } else if (field === 'pageOverlap') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= LIMITS.pageSize) {
        throw new RangeError(`pageOverlap must be a whole number from 0 to ${LIMITS.pageSize - 1}`);
      }
      out.pageOverlap = value;
    } else if (field === 'retryAfter') {
      if (typeof value !== 'boolean') throw new RangeError('retryAfter must be true or false');
      out.retryAfter = value;
    } else {
      throw new RangeError(`unknown fault "${field}"`);
    }
  }
  return out;
}

/** Uniform draws in [0, 1) from the world's seedable generator, so that a rehearsal can be replayed. */
export function seededRandom(seed: number): () => number {
  return mulberry32(seed).next;
}

export class FaultInjector {
  #faults: Faults;
  /** Real time the periodic bursts are counted from; restarts when the period changes. */
  #epoch: number;
  readonly #random: () => number;
  readonly #now: () => number;

  constructor(faults: Partial<Faults> = {}, opts: { seed?: number; now?: () => number } = {}) {
    this.#faults = { ...NO_FAULTS, ...faults };
    this.#random = opts.seed === undefined ? Math.random : seededRandom(opts.seed);
    this.#now = opts.now ?? (() => performance.now());
    this.#epoch = this.#now();
  }

  get faults(): Faults {
    return { ...this.#faults };
  }

  /** Merge a partial setting; returns the whole new setting. */
  set(partial: Partial<Faults>): Faults {
    const periodChanged =
      (partial.burst429EveryMs !== undefined && partial.burst429EveryMs !== this.#faults.burst429EveryMs) ||
      (partial.burst429ForMs !== undefined && partial.burst429ForMs !== this.#faults.burst429ForMs);
    this.#faults = { ...this.#faults, ...partial };
    // A new period starts with a burst at once, so that whoever set it sees it take effect.
    if (periodChanged) this.#epoch = this.#now();
    return this.faults;
  }

  /** A 429 burst in force for this request: ms the client should wait, or undefined. Consumes a count. */
  burst(): number | undefined {
    const f = this.#faults;
    if (f.burst429 > 0) {
      f.burst429 -= 1;
      return 1000;
    }
    if (f.burst429EveryMs > 0 && f.burst429ForMs > 0) {
      const into = (this.#now() - this.#epoch) % f.burst429EveryMs;
      if (into < f.burst429ForMs) return Math.ceil(f.burst429ForMs - into);
    }
    return undefined;
  }

  /** 500 or 503 for a request picked to fail, else undefined. */
  failure(): 500 | 503 | undefined {
    const rate = this.#faults.failureRate;
    if (rate <= 0 || this.#random() >= rate) return undefined;
    return this.#random() < 0.5 ? 500 : 503;
  }

  /** Whether this request's answer is to be lost. */
  drop(): boolean {
    const rate = this.#faults.dropRate;
    return rate > 0 && this.#random() < rate;
  }

  /** Delay before answering, in ms. */
  delay(): number {
    const { latencyMs, jitterMs } = this.#faults;
    return latencyMs + (jitterMs > 0 ? Math.floor(this.#random() * (jitterMs + 1)) : 0);
  }
}
