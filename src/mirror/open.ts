// Where the mirror is and opening it, for every command that reads or writes it: `--db PATH|URL`, else TRK_DB,
// else the profile's `db` setting, else one file per profile in the data folder (`$XDG_DATA_HOME/trk/mirrors/`).
// A postgres:// address keeps it in PostgreSQL (postgres.ts), anything else names a SQLite file (sqlite.ts). The
// store's code (and libsql, or the PostgreSQL client) is loaded here, so that commands that never open the mirror
// never load it, and a mirror in one database never loads the other's client.

import path from 'node:path';
import type { Settings } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { debugEnabled } from '../core/debug.js';
import { TrkError, UsageError } from '../core/errors.js';
import { DamagedFiles } from './damaged-files.js';
import { damagedMirror } from '../store/damaged.js';
import { isPostgresLocation } from '../config/postgres-url.js';
import type { Store } from '../store/types.js';
import { nodeCrypto, nodeFs } from '../core/node.js';
import { dataDir, stateDir } from '../config/paths.js';
import { ensureFolder, ownFolder } from '../core/private-files.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { existsSync } = nodeFs();

export interface MirrorOptions {
  /** --db: the mirror's location for this command. */
  db?: string | undefined;
}

/** A file path as an absolute one; a PostgreSQL address as it is. */
const located = (db: string): string => (isPostgresLocation(db) ? db.trim() : path.resolve(db));

/** The mirror's file or database address. */
export async function mirrorLocation(ctx: Context, opts: MirrorOptions): Promise<string> {
  if (opts.db !== undefined) {
    if (opts.db.trim() === '') {
      throw new UsageError('--db is empty', 'give a file path, e.g. --db ~/trk/shop.db, or a postgres:// address');
    }
    return located(opts.db);
  }
  const s = await ctx.settings();
  if (s.db !== undefined) return located(s.db);
  const dir = ownFolder(path.join(dataDir(ctx.env), 'mirrors'), 'mirrors folder', ctx.warn);
  // Profile names are file-name safe already (src/config/profile-rules.ts); encoded all the same.
  return path.join(dir, `${encodeURIComponent(s.sandbox ? 'sandbox' : s.profile)}.db`);
}

/** Whether a mirror may be there without opening it: a file that exists; a database is asked when opened. */
export function mirrorMayExist(location: string): boolean {
  return isPostgresLocation(location) || existsSync(location);
}

/** Where the location came from, as messages name it. */
async function sourceOf(ctx: Context, opts: MirrorOptions): Promise<string> {
  if (opts.db !== undefined) return '--db';
  return (await ctx.settings()).sources.db === 'env' ? 'TRK_DB' : 'the db setting';
}

/**
 * Opens the mirror, creating it (for a sync, or a listener that stores). `mustExist`: the offline reads refuse a
 * mirror that was never synced rather than answer from an empty one. `durable: false`: commits need not be on disk
 * when they return (a sync; see sqlite.ts).
 */
export async function openMirror(
  ctx: Context,
  opts: MirrorOptions & { mustExist?: boolean; durable?: boolean },
): Promise<Store> {
  const file = await mirrorLocation(ctx, opts);
  if (isPostgresLocation(file)) {
    const [{ PostgresStore }, source] = await Promise.all([import('../store/postgres.js'), sourceOf(ctx, opts)]);
    // With --verbose, a line naming the server (its address without the password) and whether TLS is on.
    const log = debugEnabled(ctx.env, ctx.global.verbose) ? (line: string) => ctx.debug(line) : undefined;
    const durable = opts.durable ?? true;
    return PostgresStore.open(file, { mustExist: opts.mustExist === true, durable, source, ...(log ? { log } : {}) });
  }
  if (opts.mustExist && !existsSync(file)) {
    throw new TrkError(`no mirror at ${file}`, {
      exitCode: 2,
      hint: 'run "trk sync" first (or name the mirror with --db)',
    });
  }
  // The folder of a file named with --db may hold other things: made when missing, else left as it is.
  if (!opts.mustExist) ensureFolder(path.dirname(file));
  return openMirrorFile(ctx, file, { reader: opts.mustExist === true, durable: opts.durable ?? true });
}

/**
 * The SQLite file: refused if it was found damaged as it is (damaged-files.ts); checked whole if it changed since;
 * opened read-only for a reader that cannot write it (a writer is told it cannot write it).
 */
async function openMirrorFile(ctx: Context, file: string, opts: { reader: boolean; durable: boolean }): Promise<Store> {
  const { SqliteStore, canWrite } = await import('../store/sqlite.js');
  const damaged = new DamagedFiles(stateDir(ctx.env));
  const known = damaged.recall(file);
  if (known.state === 'damaged') throw damagedMirror(`the mirror ${file}`, known.detail);
  const readOnly = opts.reader && !canWrite(file);
  const found = (detail: string) => damaged.remember(file, detail);
  const store = await SqliteStore.open(file, { durable: opts.durable, readOnly, found, warn: ctx.warn });
  if (known.state === 'changed') {
    // A copy put in its place, or a new file: read whole, or refused again.
    try {
      await store.check();
    } catch (err) {
      await store.close();
      throw err;
    }
    damaged.forget(file);
  }
  return store;
}

/** The account a mirror belongs to, without the key itself: a hash of the address and the key. */
export function accountId(baseUrl: string, apiKey: string): string {
  return nodeCrypto().createHash('sha256').update(`${baseUrl}\u0000${apiKey}`).digest('hex').slice(0, 16);
}

/** The account of these settings, as its mirror records it (the emulator's is "sandbox"). */
export function mirrorAccount(s: Pick<Settings, 'sandbox' | 'baseUrl' | 'apiKey'>): string {
  return s.sandbox ? 'sandbox' : accountId(s.baseUrl, s.apiKey ?? '');
}

/** Makes a new mirror the account's; refuses the mirror of another account (a sync or a listener writing it). */
export async function claimMirror(store: Store, account: string): Promise<void> {
  const held = await store.state('account');
  if (held === undefined) await store.setState({ account });
  else if (held !== account) throw anotherAccount(store.location);
}

/**
 * Refuses the mirror of another account to a command that reads it, as a sync refuses it: its answers would pass for
 * this account's. Where no key is set at all (a host that keeps only the mirror, for reports) there is no account to
 * tell it from, and any mirror is read.
 */
async function refuseAnotherAccount(store: Store, s: Settings): Promise<void> {
  if (s.apiKey === undefined && !s.sandbox) return;
  const held = await store.state('account');
  if (held !== undefined && held !== mirrorAccount(s)) throw anotherAccount(store.location);
}

function anotherAccount(location: string): UsageError {
  return new UsageError(
    `the mirror ${location} belongs to another account (another key or address)`,
    "name this account's mirror with --db (a file or a postgres:// address) or TRK_DB, or use the profile of the " +
      "mirror's account (--profile NAME)",
  );
}

/**
 * Opens the mirror for a command that reads it: one that exists (an offline read refuses a mirror never synced
 * rather than answer from an empty one), and is this account's.
 */
export async function openMirrorToRead(ctx: Context, opts: MirrorOptions): Promise<Store> {
  const store = await openMirror(ctx, { ...opts, mustExist: true });
  try {
    await refuseAnotherAccount(store, await ctx.settings());
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
