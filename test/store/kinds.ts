// The stores every store test runs against (a matrix: describe.each(STORE_KINDS)): the SQLite file, and a database
// of a throw-away PostgreSQL server (test/postgres-server.mjs), started on first use and stopped after the file's
// tests. Where the server programs are missing, the PostgreSQL cases are skipped, saying so.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { PostgresStore } from '../../src/store/postgres.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/types.js';
import { postgresMissing, startPostgres, type PostgresServer } from '../postgres-server.mjs';

/** What either store's open takes (each ignores what is not its own). */
export interface StoreOpenOptions {
  durable?: boolean;
  mustExist?: boolean;
  readOnly?: boolean;
  found?: (detail: string) => void;
}

export interface StoreKind {
  name: 'SQLite' | 'PostgreSQL';
  /** Why this kind is skipped here, or undefined. */
  missing: string | undefined;
  /** The location of a new, empty mirror. */
  fresh(): Promise<string>;
  /** Opens the mirror at `location` (closed after the test). */
  open(location: string, opts?: StoreOpenOptions): Promise<Store>;
  /**
   * `n` writers of one mirror, as `n` hosts would be: separate connections to a server; one store shared for
   * SQLite, whose writers in one process share its connection (two processes are in the end-to-end tests).
   */
  hosts(location: string, n: number): Promise<Store[]>;
}

let server: Promise<PostgresServer | undefined> | undefined;
const opened: Store[] = [];

/** The server of this test file, started once. */
export function postgresServer(): Promise<PostgresServer> {
  server ??= startPostgres();
  return server.then((s) => {
    if (!s) throw new Error(postgresMissing());
    return s;
  });
}

afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(async () => {
  await (await server)?.stop();
});

function track<S extends Store>(s: S): S {
  opened.push(s);
  return s;
}

const missing = postgresMissing();
if (missing) console.warn(missing);

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: 'SQLite',
    missing: undefined,
    fresh: async () => path.join(mkdtempSync(path.join(tmpdir(), 'trk-store-')), 'm.db'),
    open: async (location, opts) => track(await SqliteStore.open(location, opts)),
    async hosts(location, n) {
      const store = await this.open(location);
      return Array.from({ length: n }, () => store);
    },
  },
  {
    name: 'PostgreSQL',
    missing,
    fresh: async () => (await postgresServer()).createDatabase(),
    open: async (location, opts) => track(await PostgresStore.open(location, opts)),
    async hosts(location, n) {
      return Promise.all(Array.from({ length: n }, () => this.open(location)));
    },
  },
];

/** A new mirror of `kind`, opened. */
export async function freshStore(kind: StoreKind): Promise<Store> {
  return kind.open(await kind.fresh());
}

export async function all<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(...b);
  return out;
}
