// A PostgreSQL transaction in as few round trips as its statements allow. postgres.js's own `begin` waits for its
// BEGIN before the first statement and sends its COMMIT only once the statements have answered: two round trips of
// their own, on top of those the statements need (a sync's page of records and details took seven, each waiting for
// both processes to get a core on a loaded machine). Here the transaction has a connection of its own (postgres.js
// `reserve`), its BEGIN goes with its first statements and its COMMIT with its last ones (`sendCommit`): a
// transaction whose statements do not depend on one another's answers is one round trip.
//
// The server runs what one connection sends in order, so the guarantees are those of a transaction that waits: a
// statement that fails aborts the transaction, every one after it fails too (25P02) and its COMMIT ends it as a
// rollback. The error told is the first statement's own, so that a deadlock is known as one and retried.

import type postgres from 'postgres';

/** The server's "current transaction is aborted": a statement after one that failed. */
const ABORTED = '25P02';
/** Deadlock and serialization failure: the transaction is run again. */
const RETRYABLE = new Set(['40001', '40P01']);
/** Times a transaction is run again after a deadlock or a serialization failure. */
const RETRIES = 4;

const codeOf = (err: unknown): unknown => (err as { code?: unknown } | undefined)?.code;

/** A query sent now, its failure kept for whoever awaits it (and no unhandled rejection before that). */
function sent(query: postgres.PendingQuery<postgres.Row[]>): Promise<unknown> {
  const promise = query.execute();
  promise.catch(() => {});
  return promise;
}

export class PipelinedTransaction {
  /** The transaction's connection: statements sent on it run in the order they are sent. */
  readonly sql: postgres.ReservedSql;
  readonly #begun: Promise<unknown>;
  #committed: Promise<unknown> | undefined;
  #failure: unknown;

  constructor(sql: postgres.ReservedSql) {
    this.sql = sql;
    this.#begun = sent(sql.unsafe('BEGIN'));
  }

  /** Every failure of the transaction's statements passes here, so that the first is the one told. */
  failed(err: unknown): unknown {
    if (this.#failure === undefined || codeOf(this.#failure) === ABORTED) this.#failure = err;
    return err;
  }

  /** The COMMIT sent behind the statements sent so far (once): nothing may be sent after it. */
  sendCommit(): void {
    this.#committed ??= sent(this.sql.unsafe('COMMIT'));
  }

  /** `fn`'s result once committed; the first statement's failure where `fn` failed on what followed it. */
  async run<T>(fn: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await fn(this);
    } catch (err) {
      throw codeOf(err) === ABORTED && this.#failure !== undefined ? this.#failure : err;
    }
    this.sendCommit();
    await this.#begun;
    await this.#committed;
    return result;
  }

  /** Ends a transaction that failed (a rollback is harmless after a COMMIT); false where the connection is gone. */
  async rollback(): Promise<boolean> {
    try {
      await this.sql.unsafe('ROLLBACK');
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * `fn` in a transaction on a connection of its own, run again after a deadlock or a serialization failure. The
 * connection goes back to the pool at the end; one that is gone stays with postgres.js's closed ones, which it
 * connects again when it needs them.
 */
export async function pipelined<T>(db: postgres.Sql, fn: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
  const sql = await db.reserve();
  let usable = true;
  try {
    for (let attempt = 0; ; attempt++) {
      const tx = new PipelinedTransaction(sql);
      try {
        return await tx.run(fn);
      } catch (err) {
        usable = await tx.rollback();
        const code = codeOf(err);
        if (!usable || attempt >= RETRIES || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      }
    }
  } finally {
    if (usable) sql.release();
  }
}
