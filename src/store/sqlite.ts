// The mirror in one SQLite file, through libsql (the better-sqlite3 API, installed prebuilt on every Node trk
// supports). WAL, so that readers never wait for the writer and a killed writer leaves the last committed state;
// for a writer that must know its commit is on disk (the listener answers 200 after it) synchronous=FULL, else
// NORMAL (a sync: still consistent after a power cut, which can only lose its last commits, asked for again by the
// next sync; and no disk flush blocking each page, as every libsql call blocks the process); a busy timeout,
// so that two syncs and a listener writing at once queue for the lock instead of failing. Loaded only by the
// commands that open the mirror.

import Database from 'libsql';
import { TrkError } from '../errors.js';
import { MIGRATIONS, MIGRATIONS_TABLE, SCHEMA_VERSION, SQLITE } from './schema.js';
import type { Param, Row, Sql } from './sql.js';
import { SqlStore } from './sql-store.js';
import { SQLITE_FIND } from './find-sql.js';
import { SQLITE_REPORT } from './report-sql.js';
import { nodeFs } from '../node.js';
import { keepPrivate, PRIVATE_FILE_MODE, type Warn } from '../config/private-files.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { closeSync, openSync } = nodeFs();

/** How long a write waits for another writer's transaction before it gives up. */
export const BUSY_TIMEOUT_MS = 15_000;

type Db = InstanceType<typeof Database>;

/** One connection; its transactions run one after the other (the store's callers may overlap). */
class SqliteConnection implements Sql {
  readonly #db: Db;
  readonly #file: string;
  readonly #statements = new Map<string, Database.Statement<Param[]>>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: Db, file: string) {
    this.#db = db;
    this.#file = file;
  }

  #statement(sql: string) {
    let s = this.#statements.get(sql);
    if (!s) {
      s = this.#db.prepare<Param[]>(sql);
      this.#statements.set(sql, s);
    }
    return s;
  }

  async all(sql: string, params: readonly Param[] = []): Promise<Row[]> {
    return this.#statement(sql).all(...params) as Row[];
  }

  async run(sql: string, params: readonly Param[] = []): Promise<{ changes: number }> {
    return { changes: Number(this.#statement(sql).run(...params).changes) };
  }

  async *batches(sql: string, params: readonly Param[], size: number): AsyncIterable<Row[]> {
    let batch: Row[] = [];
    for (const row of this.#db.prepare<Param[]>(sql).iterate(...params)) {
      batch.push(row as Row);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    // One at a time: the callers of one store overlap (a sync's requests in flight, a listener's notifications).
    const run = this.#queue.then(async () => {
      // IMMEDIATE: the write lock is taken now, waiting up to the busy timeout, rather than failing on the first
      // write when another writer got there between.
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this);
        this.#db.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw writeError(err, this.#file);
      }
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  // The transaction holds the write lock of the whole file (BEGIN IMMEDIATE): nothing more to take.
  async lockRecords(): Promise<void> {}
  async lockChanges(): Promise<void> {}

  close(): void {
    this.#db.close();
  }
}

/** A write the disk refused (full, or failing) as one line that names the mirror and what to do; others as they are. */
function writeError(err: unknown, file: string): unknown {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !/^SQLITE_(FULL|IOERR)/.test(code)) return err;
  return new TrkError(`cannot write the mirror ${file}: ${(err as Error).message}`, {
    hint: 'make room on its disk, or give another file with --db or TRK_DB; what was written before is kept',
    cause: err,
  });
}

/**
 * Creates `file` readable by its owner alone (SQLite would follow the umask), unless it exists: closing a
 * descriptor of a file this process has open in SQLite would drop that connection's locks (POSIX locks are the
 * process's), and another process could then take the write-ahead log from under it.
 */
function createPrivately(file: string): void {
  try {
    closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

export class SqliteStore extends SqlStore {
  readonly location: string;
  protected readonly sql: SqliteConnection;
  protected readonly reportDialect = SQLITE_REPORT;
  protected readonly findDialect = SQLITE_FIND;

  private constructor(location: string, sql: SqliteConnection) {
    super();
    this.location = location;
    this.sql = sql;
  }

  /**
   * Opens (creating it readable by its owner only) and migrates the mirror at `file`. `durable` (default): each
   * commit is on disk when it returns. `warn` says when a file of it that others could read was made private.
   */
  static async open(file: string, opts: { durable?: boolean; warn?: Warn } = {}): Promise<SqliteStore> {
    keepMirrorPrivate(file, opts.warn ?? (() => {}));
    let db: Db | undefined;
    try {
      db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(`PRAGMA synchronous = ${opts.durable === false ? 'NORMAL' : 'FULL'}`);
    } catch (err) {
      // Closed, so that a file that is no mirror keeps no connection, nor the -wal and -shm it made beside it.
      db?.close();
      throw new TrkError(`cannot open the mirror ${file}: ${(err as Error).message}`, {
        hint: 'give another file with --db, or TRK_DB',
      });
    }
    const store = new SqliteStore(file, new SqliteConnection(db, file));
    try {
      await migrate(store.sql, file);
    } catch (err) {
      store.sql.close();
      throw err;
    }
    return store;
  }

  async close(): Promise<void> {
    this.sql.close();
  }
}

/**
 * Account data, for the owner alone: the file made 0600 before SQLite opens it, and SQLite gives the -wal and -shm it
 * creates the database file's mode (it would follow the umask for the file itself). Found open to others, the file
 * and the -wal and -shm a killed writer left are set to 0600 first (private-files.ts).
 */
function keepMirrorPrivate(file: string, warn: Warn): void {
  for (const part of [file, `${file}-wal`, `${file}-shm`]) keepPrivate(part, 'mirror file', warn);
  createPrivately(file);
}

/** Runs the migrations the file lacks, once, under the write lock (two first syncs at once migrate once). */
async function migrate(sql: SqliteConnection, file: string): Promise<void> {
  sql.exec(MIGRATIONS_TABLE);
  await sql.transaction(async (tx) => {
    const [row] = await tx.all('SELECT max(version) AS version FROM migrations');
    const current = Number(row?.version ?? 0);
    if (current > SCHEMA_VERSION) {
      throw new TrkError(
        `the mirror ${file} was written by a newer trk (schema ${current}, this trk knows ${SCHEMA_VERSION})`,
        {
          hint: 'upgrade trk, or give another file with --db',
        },
      );
    }
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
      for (const statement of MIGRATIONS[v - 1]!(SQLITE)) await tx.run(statement);
      await tx.run('INSERT INTO migrations (version) VALUES (?)', [v]);
    }
  });
}
