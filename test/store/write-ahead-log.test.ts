// Two processes opening a new mirror at once: SQLite may refuse one's switch to WAL with BUSY at once, without its
// busy handler (waiting could deadlock). The open asks again on the test's clock, and gives up at the busy timeout.

import { describe, expect, it } from 'vitest';
import { BUSY_TIMEOUT_MS, useWriteAheadLog } from '../../src/store/sqlite.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY', rawCode: 5 });

/** A connection refusing its first `refusals` switches with `error`, and the clock the open waits on. */
function refusing(refusals: number, error: () => Error = busy) {
  let now = 0;
  const asked: number[] = [];
  const db = {
    exec(statement: string) {
      asked.push(now);
      expect(statement).toBe('PRAGMA journal_mode = WAL');
      if (asked.length <= refusals) throw error();
      return db;
    },
  };
  const clock = {
    monotonic: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
  return { db, clock, asked };
}

describe('switching a mirror to WAL', () => {
  it('asks again after a refusal for the lock, a little later each time', async () => {
    const { db, clock, asked } = refusing(3);
    await useWriteAheadLog(db as never, clock);
    expect(asked).toHaveLength(4);
    for (let i = 1; i < asked.length; i++) expect(asked[i]! - asked[i - 1]!).toBeGreaterThanOrEqual(10);
  });

  it("gives up with SQLite's word once the busy timeout has passed", async () => {
    const { db, clock, asked } = refusing(Number.POSITIVE_INFINITY);
    await expect(useWriteAheadLog(db as never, clock)).rejects.toThrow('database is locked');
    expect(asked.at(-1)).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS);
    expect(asked.at(-2)).toBeLessThan(BUSY_TIMEOUT_MS);
  });

  it('does not ask again after any other error', async () => {
    const notADatabase = () => Object.assign(new Error('file is not a database'), { rawCode: 26 });
    const { db, clock, asked } = refusing(1, notADatabase);
    await expect(useWriteAheadLog(db as never, clock)).rejects.toThrow('file is not a database');
    expect(asked).toHaveLength(1);
  });
});
