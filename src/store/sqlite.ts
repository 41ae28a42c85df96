// The mirror in one SQLite file, through libsql (the better-sqlite3 API, installed prebuilt on every Node trk
// supports). WAL, so that readers never wait for the writer and a killed writer leaves the last committed state;
// for a writer that must know its commit is on disk (the listener answers 200 after it) synchronous=FULL, else
// NORMAL (a sync: still consistent after a power cut, which can only lose its last commits, asked for again by the
// next sync; and no disk flush blocking each page, as every libsql call blocks the process); a busy timeout,
// so that two syncs and a listener writing at once queue for the lock instead of failing. A file this process cannot
// write (a read-only file system, a folder of another user) is opened read-only, for the commands that only read it.
// Loaded only by the commands that open the mirror.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type DatabaseTypes from 'libsql';
import { clock, type Clock } from '../core/clock.js';
import { TrkError } from '../core/errors.js';
import { damagedMirror } from './damaged.js';
import { MIGRATIONS, MIGRATIONS_TABLE, READABLE_FROM, SCHEMA_VERSION, SQLITE } from './schema.js';
import type { Param, Row, Sql } from './sql.js';
import { SqlStore } from './sql-store.js';
import { SQLITE_FIND } from './find-sql.js';
import { SQLITE_REPORT } from './report-sql.js';
import { nodeFs, nodeModule } from '../core/node.js';
import { keepPrivate, PRIVATE_FILE_MODE, type Warn } from '../core/private-files.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { accessSync, closeSync, constants, openSync, statSync } = nodeFs();
// Required as the CommonJS package it is: an ES module's `import` of it has Node 22 read its source for its export
// names with a lexer compiled to WebAssembly, whose compilation stays in memory: 7.7 MiB more peak RSS for every
// command that opens a mirror (the pages of Node's binary it runs, and the code; none on Node 20 and 24).
const Database = nodeModule().createRequire(import.meta.url)('libsql') as typeof DatabaseTypes;

/** How long a write waits for another writer's transaction before it gives up. */
export const BUSY_TIMEOUT_MS = 15_000;

type Db = InstanceType<typeof Database>;

/** What to do when a file is found damaged, besides saying so (src/mirror/open.ts remembers it). */
export type DamageFound = (detail: string) => void;

/**
 * One connection; its transactions run one after the other (the store's callers may overlap). SQLite's word that
 * the file is damaged, from any statement, becomes the mirror named with the way out.
 */
class SqliteConnection implements Sql {
  readonly #db: Db;
  readonly #statements = new Map<string, DatabaseTypes.Statement<Param[]>>();
  #queue: Promise<unknown> = Promise.resolve();
  /** Opened read-only: every write fails. */
  readonly readOnly: boolean;
  readonly #file: string;
  readonly #found: DamageFound | undefined;

  constructor(db: Db, file: string, opts: { readOnly: boolean; found: DamageFound | undefined }) {
    this.#db = db;
    this.#file = file;
    this.readOnly = opts.readOnly;
    this.#found = opts.found;
  }

  /** The file found damaged: said, and told to whoever remembers it. */
  damaged(detail: string): TrkError {
    this.#found?.(detail);
    return damagedMirror(`the mirror ${this.#file}`, detail);
  }

  #said(err: unknown): unknown {
    return isDamage(err) ? this.damaged((err as Error).message) : err;
  }

  #guarded<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw this.#said(err);
    }
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
    return this.#guarded(() => this.#statement(sql).all(...params) as Row[]);
  }

  async run(sql: string, params: readonly Param[] = []): Promise<{ changes: number }> {
    return this.#guarded(() => ({ changes: Number(this.#statement(sql).run(...params).changes) }));
  }

  async *batches(sql: string, params: readonly Param[], size: number): AsyncIterable<Row[]> {
    let batch: Row[] = [];
    const rows = this.#guarded(() => this.#db.prepare<Param[]>(sql).iterate(...params))[Symbol.iterator]();
    for (let next = this.#guarded(() => rows.next()); !next.done; next = this.#guarded(() => rows.next())) {
      batch.push(next.value as Row);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  exec(sql: string): void {
    this.#guarded(() => this.#db.exec(sql));
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    // One at a time: the callers of one store overlap (a sync's requests in flight, a listener's notifications).
    const run = this.#queue.then(async () => {
      // IMMEDIATE: the write lock is taken now, waiting up to the busy timeout, rather than failing on the first
      // write when another writer got there between.
      this.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this);
        this.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw writeError(err, this.#file);
      }
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  // Its statements run as they are called: the commit follows when the transaction's function resolves.
  sendCommit(): void {}

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
    // Found: whether it can be written is asked without opening it.
    accessSync(file, constants.W_OK);
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
   * commit is on disk when it returns. `readOnly`: opened to read only, as it is (see openToRead). `found`: told
   * when the file is found damaged. `warn` says when a file of it that others could read was made private.
   */
  static async open(
    file: string,
    opts: { durable?: boolean; readOnly?: boolean; found?: DamageFound; warn?: Warn } = {},
  ): Promise<SqliteStore> {
    const connect = (db: Db, readOnly: boolean) => new SqliteConnection(db, file, { readOnly, found: opts.found });
    if (opts.readOnly) return new SqliteStore(file, connect(openToRead(file, opts.found), true));
    try {
      keepMirrorPrivate(file, opts.warn ?? (() => {}));
    } catch (err) {
      throw new TrkError(`cannot write the mirror ${file} (${(err as NodeJS.ErrnoException).code})`, {
        hint: 'give a file trk can write with --db, or TRK_DB',
      });
    }
    let db: Db | undefined;
    try {
      db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
      await useWriteAheadLog(db);
      db.exec(`PRAGMA synchronous = ${opts.durable === false ? 'NORMAL' : 'FULL'}`);
    } catch (err) {
      // Closed, so that a file that is no mirror keeps no connection, nor the -wal and -shm it made beside it.
      db?.close();
      throw cannotOpen(file, err, opts.found);
    }
    const store = new SqliteStore(file, connect(db, false));
    try {
      await migrate(store.sql, file);
    } catch (err) {
      store.sql.close();
      throw err;
    }
    return store;
  }

  async writable(): Promise<boolean> {
    return !this.sql.readOnly;
  }

  /** SQLite's quick check: every page read once (0.45 s per 100,000 records), the first problem named. */
  async check(): Promise<void> {
    const [row] = await this.sql.all('PRAGMA quick_check(1)');
    const result = String(Object.values(row ?? {})[0] ?? 'ok');
    if (result === 'ok') return;
    // Its lines as one, without the database's name: "*** in database main ***", then where the problem is.
    const where = result.replace(/^\*\*\* in database main \*\*\*\s*/, '').replace(/\s+/g, ' ');
    throw this.sql.damaged(`quick check: ${where}`);
  }

  async close(): Promise<void> {
    this.sql.close();
  }
}

/** SQLite's BUSY: another connection holds the lock this one needs. */
const SQLITE_BUSY = 5;

/**
 * Sets the file to WAL, waiting for other processes as a busy timeout would. Two processes opening a new mirror at
 * once (two cron jobs' first syncs) may each hold a read of the file while asking to write its header; SQLite then
 * answers BUSY at once rather than call the busy handler (either waiting would be a deadlock), so the refusal is
 * retried here, a few milliseconds apart, up to the same timeout.
 */
export async function useWriteAheadLog(
  db: Pick<Db, 'exec'>,
  time: Pick<Clock, 'monotonic' | 'sleep'> = clock(),
): Promise<void> {
  const deadline = time.monotonic() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (err) {
      if (primaryCode(err) !== SQLITE_BUSY || time.monotonic() >= deadline) throw err;
      // Spread, so that two processes refused together do not ask again together.
      await time.sleep(10 + Math.random() * 20);
    }
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

/**
 * Whether this process can write the mirror's file and make its journal beside it. A read-only file system refuses
 * root as well; a file of another user refuses others.
 */
export function canWrite(file: string): boolean {
  try {
    accessSync(file, constants.W_OK);
    accessSync(path.dirname(file), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** SQLite's codes for a damaged file: CORRUPT, NOTADB (its first page is not a database's). */
const DAMAGE = new Set<number | undefined>([11, 26]);

const isDamage = (err: unknown): boolean => DAMAGE.has(primaryCode(err));

function cannotOpen(file: string, err: unknown, found: DamageFound | undefined): TrkError {
  if (isDamage(err)) {
    found?.((err as Error).message);
    return damagedMirror(`the mirror ${file}`, (err as Error).message);
  }
  return new TrkError(`cannot open the mirror ${file}: ${(err as Error).message}`, {
    hint: 'give another file with --db, or TRK_DB',
  });
}

/**
 * The file opened read-only, without writing it or beside it. Its journal is read where it can be (a writer
 * elsewhere has it open, or this process may make its index); else the file alone is read as one that cannot change
 * (immutable), which is only the mirror if no writes wait in a journal beside it.
 */
function openToRead(file: string, found: DamageFound | undefined): Db {
  const open = (params: string) => {
    const db = new Database(`${pathToFileURL(file).href}?${params}`, { timeout: BUSY_TIMEOUT_MS });
    try {
      // The first read of the file: where its journal cannot be opened, it fails here.
      db.prepare('SELECT count(*) FROM sqlite_schema').get();
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  };
  let db: Db;
  try {
    db = open('mode=ro');
  } catch (err) {
    if (!JOURNAL_REFUSED.has(primaryCode(err))) throw cannotOpen(file, err, found);
    if (journalSize(file) > 0) {
      throw new TrkError(
        `the mirror ${file} has writes in its journal ${file}-wal that cannot be read where trk cannot write`,
        { hint: 'read it where it can be written, or copy it there with its -wal and -shm files' },
      );
    }
    db = open('immutable=1');
  }
  try {
    checkReadable(db, file);
  } catch (err) {
    db.close();
    throw err instanceof TrkError ? err : cannotOpen(file, err, found);
  }
  return db;
}

/**
 * SQLite's codes for a journal it can neither open nor make: CANTOPEN (on a read-only file system), READONLY (its
 * READONLY_DIRECTORY, in a folder of another user).
 */
const JOURNAL_REFUSED = new Set<number | undefined>([14, 8]);

/** SQLite's primary result code of an error (its extended code's low byte). */
function primaryCode(err: unknown): number | undefined {
  const raw = (err as { rawCode?: unknown }).rawCode;
  return typeof raw === 'number' ? raw & 0xff : undefined;
}

function journalSize(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/** A mirror read as it is must be of a schema this trk reads (it cannot migrate it). */
function checkReadable(db: Db, file: string): void {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'migrations'").get();
  const row = hasTable ? (db.prepare('SELECT max(version) AS version FROM migrations').get() as Row) : undefined;
  const version = Number(row?.version ?? 0);
  if (version > SCHEMA_VERSION) throw newerSchema(file, version);
  if (version < READABLE_FROM) {
    throw new TrkError(
      `the mirror ${file} is of an older trk (schema ${version}) and cannot be brought up to date here`,
      { hint: 'run "trk sync" where it can be written, or give another mirror with --db' },
    );
  }
}

function newerSchema(file: string, version: number): TrkError {
  return new TrkError(
    `the mirror ${file} was written by a newer trk (schema ${version}, this trk knows ${SCHEMA_VERSION})`,
    { hint: 'upgrade trk, or give another file with --db' },
  );
}

/** Runs the migrations the file lacks, once, under the write lock (two first syncs at once migrate once). */
async function migrate(sql: SqliteConnection, file: string): Promise<void> {
  sql.exec(MIGRATIONS_TABLE);
  await sql.transaction(async (tx) => {
    const [row] = await tx.all('SELECT max(version) AS version FROM migrations');
    const current = Number(row?.version ?? 0);
    if (current > SCHEMA_VERSION) throw newerSchema(file, current);
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
      for (const statement of MIGRATIONS[v - 1]!(SQLITE)) await tx.run(statement);
      await tx.run('INSERT INTO migrations (version) VALUES (?)', [v]);
    }
  });
}
