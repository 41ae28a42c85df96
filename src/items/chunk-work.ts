// The work the chunk runner (src/items/runner.ts) hands its workers, and what its parts (the reads of the list,
// the lookups after lost answers, the tags of numbers registered already, the reading of answers) share: a chunk
// in progress, the pieces of work made of it, and what they call back on the runner.

import type { ServiceError } from '../api/errors.js';
import type { Envelope, RejectedItem } from '@trk/service/types.js';
import type { Chunk, ChunkRow } from './chunker.js';
import type { ChunkOutcome } from './journal.js';

/** A chunk in progress. */
export interface Pending {
  chunk: Chunk;
  /** The rows this work settles: the whole chunk, or what an earlier run left pending. */
  part: ChunkRow[];
  open: ChunkRow[];
  accepted: Record<string, unknown>[];
  rejected: RejectedItem[];
  already: RejectedItem[];
  /** What an earlier run settled of this chunk (journaled together with this run's part). */
  prior?: ChunkOutcome;
  /** A request of this chunk may have been processed without us seeing the answer. */
  afterUnknown: boolean;
  /** Ambiguous failures so far (a 429 is not one: it says when to come back); never reset by a lookup. */
  failures: number;
  /** When the first of them happened. */
  firstFailureAt: number;
  /** 429s in a row, and since when. */
  limited: number;
  limitedSince: number;
  /** Why its last send failed: what a give-up reports, rather than a failed lookup of it. */
  sendError?: ServiceError;
  /** register: rows whose tag is still to be applied, with the item of the outcome that says what became of them. */
  retag?: Map<string, { row: ChunkRow; item: Record<string, unknown> }>;
  /** Follow-up requests of the chunk not answered yet. */
  tagsLeft?: number;
}

/** Ambiguous failures of one chunk before the run gives it up, unless told otherwise. */
export const DEFAULT_MAX_FAILURES = 8;

export type Answer = Envelope<Record<string, unknown>>;

/**
 * A page of a lookup (`verify`: chunks whose answers were lost; `page`: a chunk of `trk list`), asked for by its
 * read of the list (trackListPages) and sent by a worker like any request, with the run's retries and holds.
 */
export interface PageWork {
  kind: 'verify' | 'page';
  chunks: Pending[];
  body: unknown;
  /** Its read ended before it was sent: it is not sent (again). */
  dropped: boolean;
  answer(envelope: Answer): void;
  drop(reason: unknown): void;
}

/** register: the tags of numbers registered already, applied as trk update applies them. */
export type TagWork = { kind: 'tag'; p: Pending; rows: ChunkRow[] };

export type Work = { kind: 'send'; p: Pending } | PageWork | TagWork;

/** What the runner's parts call back on it. */
export interface RunnerCalls {
  now(): number;
  /** Something changed: idle workers look again. */
  wake(): void;
  /** The run stops with `err` (the first one given). */
  fail(err: unknown): void;
  /** Work to do before anything new: sent again. */
  first(work: Work): void;
  /** Work to do after what is waiting. */
  later(work: Work): void;
  /** The chunk is over: journaled and reported. */
  settle(p: Pending, notFound?: number, pending?: string[]): void;
  debug(line: string): void;
}

/** A chunk of the input as work starts on it. */
export function pendingOf(chunk: Chunk): Pending {
  return {
    chunk,
    part: chunk.rows,
    open: chunk.rows,
    accepted: [],
    rejected: [],
    already: [],
    afterUnknown: false,
    failures: 0,
    firstFailureAt: 0,
    limited: 0,
    limitedSince: 0,
  };
}

/** The next work of `queue` whose read still wants it. */
export function takeWanted(queue: Work[]): Work | undefined {
  let work = queue.shift();
  while (work && 'dropped' in work && work.dropped) work = queue.shift();
  return work;
}

/** A row the service's answer said nothing of. */
export function noAnswer(number: string): RejectedItem {
  return { number, error: { code: 0, message: 'no answer from the service for this item' } };
}

export function keyOf(number: unknown): string {
  return typeof number === 'string' ? number.trim().toUpperCase() : String(number ?? '');
}

/** Carrier of a list record: `carrier` in v2, `w1` in v1. */
export function recordCarrier(record: Record<string, unknown>): number | undefined {
  const c = record.carrier ?? record.w1;
  return typeof c === 'number' ? c : typeof c === 'string' && /^\d+$/.test(c) ? Number(c) : undefined;
}

export function recordFinalCarrier(record: Record<string, unknown>): number | undefined {
  const c = record.final_carrier ?? record.w2;
  return typeof c === 'number' ? c : undefined;
}
