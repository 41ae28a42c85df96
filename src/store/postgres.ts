// The mirror in a PostgreSQL database, for several hosts (listeners behind a load balancer, cron hosts), through
// `postgres` (postgres.js: no dependencies of its own, its types included, libpq's sslmode meanings, and queries
// sent without waiting for the answers of those before). Loaded only when the mirror's address names PostgreSQL
// (src/mirror/open.ts).
//
// The store's logic and SQL are the SQLite store's (sql-store.ts, sql.ts); what differs is here:
// - Transactions run side by side under READ COMMITTED. Each write transaction first takes a transaction-scoped
//   advisory lock per record it touches, in one order (so two never wait for each other), then reads what the
//   mirror holds and writes; the upserts' guards decide between answers of different times. A transaction that
//   records changes takes one more lock for them, so that change ids become visible in their order and a cursor
//   never passes an id committed later. A deadlock or serialization failure is retried. A transaction's BEGIN
//   goes with its first statements and its COMMIT with its last (postgres-transaction.ts).
// - Migrations run once, under an advisory lock, however many hosts start at once.
// - The password is never shown: messages name the address with `***`, and errors are rewritten without it.

import postgres from 'postgres';
import { TrkError, UsageError } from '../core/errors.js';
import { addSecret } from '../io/secrets.js';
import { damagedMirror } from './damaged.js';
import { withoutPassword, parsePostgresUrl, type PostgresTarget } from '../config/postgres-url.js';
import { MIGRATIONS, MIGRATIONS_TABLE, POSTGRES, SCHEMA_VERSION } from './schema.js';
import type { Param, QueryOptions, Row, Sql } from './sql.js';
import { POSTGRES_FIND } from './find-sql.js';
import { POSTGRES_REPORT } from './report-sql.js';
import { SqlStore } from './sql-store.js';
import { pipelined, type PipelinedTransaction } from './postgres-transaction.js';
import type { RecordKey } from './types.js';
import { nodeCrypto, nodeFs } from '../core/node.js';

/** Advisory lock keys of trk's own (bigint), apart from the records' (hashes of their keys). */
const MIGRATIONS_LOCK = '7382659213504417001';
const CHANGES_LOCK = '7382659213504417002';
/** How long a write waits for another host's lock before it fails (unless the address sets lock_timeout). */
const LOCK_TIMEOUT = '60s';
/** Connections a trk process opens to the server at most. */
const POOL_SIZE = 4;

/** `?` placeholders as `$1, $2, ...` (none of the shared SQL has a `?` inside a literal; quotes are skipped anyway). */
const numberedCache = new Map<string, string>();
function numbered(sql: string): string {
  let out = numberedCache.get(sql);
  if (out !== undefined) return out;
  let n = 0;
  let quoted = false;
  out = '';
  for (const c of sql) {
    if (c === "'") quoted = !quoted;
    out += c === '?' && !quoted ? `$${++n}` : c;
  }
  if (numberedCache.size > 1000) numberedCache.clear();
  numberedCache.set(sql, out);
  return out;
}

/** A value as the server takes it. PostgreSQL's text cannot hold NUL, which SQLite's can: it becomes U+FFFD. */
function param(v: Param | boolean | undefined): string | number | null {
  if (typeof v === 'string') return v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v ?? null;
}

/** The advisory lock of a record: 64 bits of a hash of its key, as the server's bigint. */
function recordLock(key: RecordKey): bigint {
  const digest = nodeCrypto().createHash('sha256').update(`trk mirror\u0000${key.number}\u0000${key.carrier}`).digest();
  return digest.readBigInt64BE(0);
}

class PostgresConnection implements Sql {
  readonly #db: postgres.Sql;
  readonly #tx: PipelinedTransaction | undefined;
  readonly #error: (err: unknown) => Error;
  #changesLock: Promise<unknown> | undefined;

  constructor(db: postgres.Sql, error: (err: unknown) => Error, tx?: PipelinedTransaction) {
    this.#db = db;
    this.#error = error;
    this.#tx = tx;
  }

  #query(sql: string, params: readonly Param[], opts: QueryOptions & { cursor?: boolean } = {}) {
    // A named statement, kept on the connection, is planned for generic values after five runs; the unnamed one is
    // planned for the values it is run with.
    const prepare = opts.planEachRun !== true;
    const query = (this.#tx?.sql ?? this.#db).unsafe(numbered(sql), params.map(param), { prepare });
    // In a transaction, sent in the order called: postgres.js sends a query once it is awaited, which is a turn
    // later for one awaited through an async function than for the transaction's COMMIT, sent as it is called.
    return this.#tx && opts.cursor !== true ? query.execute() : query;
  }

  async all(sql: string, params: readonly Param[] = [], opts?: QueryOptions): Promise<Row[]> {
    try {
      return [...(await this.#query(sql, params, opts))] as Row[];
    } catch (err) {
      throw this.#error(err);
    }
  }

  async run(sql: string, params: readonly Param[] = []): Promise<{ changes: number }> {
    try {
      return { changes: (await this.#query(sql, params)).count };
    } catch (err) {
      throw this.#error(err);
    }
  }

  async *batches(sql: string, params: readonly Param[], size: number): AsyncIterable<Row[]> {
    try {
      for await (const rows of this.#query(sql, params, { cursor: true }).cursor(size)) yield rows as Row[];
    } catch (err) {
      throw this.#error(err);
    }
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    if (this.#tx) return fn(this);
    try {
      // Errors inside keep their codes (passed through as they are), so that a deadlock is known and retried.
      return await pipelined(this.#db, (tx) =>
        fn(new PostgresConnection(this.#db, (err) => tx.failed(err) as Error, tx)),
      );
    } catch (err) {
      throw this.#error(err);
    }
  }

  sendCommit(): void {
    this.#tx?.sendCommit();
  }

  async lockRecords(keys: readonly RecordKey[]): Promise<void> {
    this.#inTransaction();
    // Sorted and each once: two transactions take their common locks in the same order and never wait in a circle.
    const locks = [...new Set(keys.map(recordLock))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (locks.length === 0) return;
    // One statement, taken one after the other by the server in the array's order (a function scan keeps it).
    await this.all('SELECT count(pg_advisory_xact_lock(k)) FROM unnest(CAST(? AS BIGINT[])) AS t(k)', [
      `{${locks.join(',')}}`,
    ]);
  }

  async lockChanges(): Promise<void> {
    this.#inTransaction();
    // Asked for by each change of a transaction, taken once.
    this.#changesLock ??= this.all('SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))', [CHANGES_LOCK]);
    await this.#changesLock;
  }

  #inTransaction(): void {
    if (!this.#tx) throw new Error('locks are taken in a transaction');
  }
}

export interface PostgresOpenOptions {
  /** Refuse a database that holds no mirror rather than create one (the offline reads). */
  mustExist?: boolean;
  /** Each commit is on the server's disk when it returns (default); else synchronous_commit=off (a sync). */
  durable?: boolean;
  /** Where the address came from (--db, TRK_DB...), for messages. */
  source?: string;
  /** A line for --verbose: the server, its version and whether the connection is encrypted. */
  log?: (line: string) => void;
}

export class PostgresStore extends SqlStore {
  readonly location: string;
  protected readonly sql: PostgresConnection;
  protected readonly reportDialect = POSTGRES_REPORT;
  protected readonly findDialect = POSTGRES_FIND;
  readonly #db: postgres.Sql;

  private constructor(target: PostgresTarget, db: postgres.Sql) {
    super();
    this.location = target.shown;
    this.#db = db;
    this.sql = new PostgresConnection(db, (err) => storeError(err, target));
  }

  /** Connects to the database of `url`, and migrates it (creating the mirror unless `mustExist`). */
  static async open(url: string, opts: PostgresOpenOptions = {}): Promise<PostgresStore> {
    const target = parsePostgresUrl(url, opts.source ?? "the mirror's address");
    // Whatever carries it back, the password is not printed (src/io/secrets.ts; messages here mask it themselves).
    if (target.password) for (const p of [target.password, encodeURIComponent(target.password)]) addSecret(p);
    const db = postgres(connectOptions(target, opts.durable ?? true));
    const store = new PostgresStore(target, db);
    try {
      await migrate(store.sql, target, opts.mustExist === true);
      if (opts.log) opts.log(await describeServer(store.sql, target));
    } catch (err) {
      await db.end({ timeout: 0 });
      throw storeError(err, target);
    }
    return store;
  }

  async close(): Promise<void> {
    await this.#db.end({ timeout: 5 });
  }

  /** Nothing to read ahead: the server checks each page as it reads it (its checksum too, where those are on). */
  async check(): Promise<void> {}

  async writable(): Promise<boolean> {
    const [row] = await this.sql.all(
      "SELECT current_setting('transaction_read_only') = 'off' AND has_table_privilege('cursors', 'INSERT') " +
        "AND has_table_privilege('cursors', 'UPDATE') AS writable",
    );
    return row?.writable === true;
  }
}

function connectOptions(t: PostgresTarget, durable: boolean): postgres.Options<Record<string, never>> {
  return {
    host: t.hosts as unknown as string,
    port: t.ports as unknown as number,
    // A host that is a folder names the server's Unix socket there, as libpq reads it.
    ...(t.hosts[0]!.startsWith('/') ? { path: `${t.hosts[0]}/.s.PGSQL.${t.ports[0]}` } : {}),
    ...(t.database === undefined ? {} : { database: t.database }),
    ...(t.user === undefined ? {} : { user: t.user }),
    ...(t.password === undefined ? {} : { pass: t.password }),
    ssl: tlsOptions(t),
    max: POOL_SIZE,
    connect_timeout: t.connectTimeout,
    // Notices go nowhere: postgres.js would print them on stdout, which carries the data.
    onnotice: () => {},
    fetch_types: false,
    transform: { undefined: null },
    ...(t.targetSessionAttrs === undefined ? {} : { target_session_attrs: t.targetSessionAttrs as 'read-write' }),
    connection: {
      application_name: t.applicationName,
      lock_timeout: LOCK_TIMEOUT,
      // A sync's commits need not wait for the server's disk: a crash of the server loses at most its last commits,
      // which the next sync asks for again (the listener's must: it answers 200 after them).
      ...(durable ? {} : { synchronous_commit: 'off' }),
      ...t.serverSettings,
    } as Record<string, string>,
  };
}

function readFile(file: string, what: string): Buffer {
  try {
    return nodeFs().readFileSync(file);
  } catch (err) {
    throw new UsageError(
      `cannot read the ${what} file ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      `give a readable file as ${what}=FILE in the mirror's address`,
    );
  }
}

/**
 * sslmode as libpq means it: disable: plain; allow and prefer: TLS when the server offers it, unchecked; require:
 * TLS, unchecked (checked as verify-ca when a root certificate is given); verify-ca: the chain; verify-full: the
 * chain and the host name. The chain ends at sslrootcert's certificates, else the machine's (sslrootcert=system).
 */
function tlsOptions(t: PostgresTarget): postgres.Options<Record<string, never>>['ssl'] {
  if (t.sslmode === 'disable') return false;
  const client = {
    ...(t.sslcert ? { cert: readFile(t.sslcert, 'sslcert') } : {}),
    ...(t.sslkey ? { key: readFile(t.sslkey, 'sslkey') } : {}),
  };
  const full = t.sslmode === 'verify-full' || t.sslrootcert === 'system';
  const verify = full || t.sslmode === 'verify-ca' || (t.sslmode === 'require' && t.sslrootcert !== undefined);
  if (!verify) {
    if (Object.keys(client).length > 0) return { rejectUnauthorized: false, ...client };
    return t.sslmode === 'require' ? 'require' : 'prefer';
  }
  const ca =
    t.sslrootcert === undefined || t.sslrootcert === 'system' ? {} : { ca: readFile(t.sslrootcert, 'sslrootcert') };
  return { rejectUnauthorized: true, ...ca, ...client, ...(full ? {} : { checkServerIdentity: () => undefined }) };
}

/** Runs the migrations the database lacks, once, under a lock that every host starting at once waits for. */
async function migrate(sql: PostgresConnection, t: PostgresTarget, mustExist: boolean): Promise<void> {
  // Read first, without a lock or a write: a reader may have no right to create anything, and needs none.
  const current = await schemaVersion(sql);
  if (current === undefined && mustExist) {
    throw new TrkError(`no mirror in the database ${t.shown}`, {
      exitCode: 2,
      hint: 'run "trk sync" first (or name the mirror with --db)',
    });
  }
  if (current === SCHEMA_VERSION) return;
  await sql.transaction(async (tx) => {
    await tx.all('SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))', [MIGRATIONS_LOCK]);
    await tx.run(MIGRATIONS_TABLE);
    const [row] = await tx.all('SELECT max(version) AS version FROM migrations');
    const version = Number(row?.version ?? 0);
    if (version > SCHEMA_VERSION) {
      throw new TrkError(
        `the mirror ${t.shown} was written by a newer trk (schema ${version}, this trk knows ${SCHEMA_VERSION})`,
        {
          hint: 'upgrade trk, or give another database with --db',
        },
      );
    }
    for (let v = version + 1; v <= SCHEMA_VERSION; v++) {
      for (const statement of MIGRATIONS[v - 1]!(POSTGRES)) await tx.run(statement);
      await tx.run('INSERT INTO migrations (version) VALUES (?)', [v]);
    }
  });
}

/** The schema's version, or undefined where the database holds no mirror. */
async function schemaVersion(sql: PostgresConnection): Promise<number | undefined> {
  const [found] = await sql.all("SELECT to_regclass('migrations') IS NOT NULL AS present");
  if (found?.present !== true) return undefined;
  const [row] = await sql.all('SELECT max(version) AS version FROM migrations');
  return Number(row?.version ?? 0);
}

async function describeServer(sql: PostgresConnection, t: PostgresTarget): Promise<string> {
  const [row] = await sql.all(
    "SELECT current_setting('server_version') AS version, current_database() AS database, " +
      'current_schema() AS schema, coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), false) AS tls',
  );
  const where = `database ${String(row?.database)}, schema ${String(row?.schema)}`;
  const tls = row?.tls === true ? 'TLS' : 'not encrypted';
  return `mirror: PostgreSQL ${String(row?.version)} at ${t.shown} (${where}, ${tls})`;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EPIPE',
  'ENOENT',
]);

/** What a failure of the database means, as one line without the password. */
function storeError(err: unknown, t: PostgresTarget): Error {
  if (err instanceof TrkError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const text = withoutPassword(t, typeof e.message === 'string' ? e.message : String(err));
  const servers = t.hosts.map((h, i) => `${h}:${t.ports[i]}`).join(',');
  const settingHint = 'check the address in --db, TRK_DB or the db setting';
  if (UNREACHABLE.has(code) || code.startsWith('CONNECT') || code.startsWith('CONNECTION_') || code === '57P03') {
    return new TrkError(`cannot reach the mirror's database at ${servers} (${text})`, {
      hint: `${settingHint}, and that PostgreSQL is running there`,
    });
  }
  if (code === '28P01' || code === '28000' || code === 'SASL_SIGNATURE_MISMATCH') {
    return new TrkError(`the mirror's database at ${servers} refused the login (${text})`, {
      hint: 'check the user and password in the address (or PGPASSWORD)',
    });
  }
  if (code === '3D000')
    return new TrkError(`the mirror's database at ${servers}: ${text}`, {
      hint: 'create it (createdb NAME), or name another in the address',
    });
  if (code === '3F000') {
    return new TrkError(`the mirror's database at ${servers}: ${text}`, {
      hint: 'create the schema search_path names (CREATE SCHEMA name), or name another',
    });
  }
  if (code === '42P07') {
    return new TrkError(`the mirror's database at ${servers}: ${text}`, {
      hint:
        'its schema holds tables of something else: give the mirror a schema of its own (CREATE SCHEMA trk, then ' +
        'search_path=trk in the address) or a database of its own',
    });
  }
  if (code === '42501') {
    return new TrkError(`the mirror's database at ${servers}: ${text}`, {
      hint:
        "grant the address's user the right to create tables in its schema (the first sync makes them) " +
        'and to read and write them',
    });
  }
  // data_corrupted, index_corrupted: a page the server read is not what it wrote.
  if (code === 'XX001' || code === 'XX002') {
    return damagedMirror(`the mirror's database at ${servers}`, text, 'database');
  }
  if (code === '25006') {
    return new TrkError(`the mirror's database at ${servers} is read-only here (${text})`, {
      hint: 'give the address of the primary server, with a user that may write the mirror',
    });
  }
  if (code === '55P03') {
    return new TrkError(`another writer held the mirror's lock too long (${text})`, {
      hint: 'run it again; a longer wait is lock_timeout=120s in the address',
    });
  }
  if (/CERT|SSL|TLS|self.signed|certificate/i.test(`${code} ${text}`)) {
    return new TrkError(`no secure connection to the mirror's database at ${servers} (${text})`, {
      hint:
        "give the server's CA with sslrootcert=FILE, or sslmode=require to encrypt without checking " +
        'the certificate',
    });
  }
  return new TrkError(`the mirror's database at ${servers}: ${text}`);
}
