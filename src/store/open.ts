// Where the mirror is and opening it, for every command that reads or writes it: `--db PATH`, else TRK_DB, else
// the profile's `db` setting, else one file per profile in the data folder (`$XDG_DATA_HOME/trk/mirrors/`).
// The store's code (and libsql) is loaded here, so that commands that never open the mirror never load it.

import path from 'node:path';
import type { Context } from '../context.js';
import { TrkError, UsageError } from '../errors.js';
import type { Store } from './types.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { existsSync } = process.getBuiltinModule('node:fs');

export interface MirrorOptions {
  /** --db: the mirror's location for this command. */
  db?: string | undefined;
}

/** The mirror's file, and how it was chosen (for messages). */
export async function mirrorLocation(ctx: Context, opts: MirrorOptions): Promise<string> {
  if (opts.db !== undefined) {
    if (opts.db.trim() === '') throw new UsageError('--db is empty', 'give a file path, e.g. --db ~/trk/shop.db');
    return path.resolve(opts.db);
  }
  const s = await ctx.settings();
  if (s.db !== undefined) return path.resolve(s.db);
  const { dataDir, ensurePrivateDir } = await import('../config/paths.js');
  const dir = ensurePrivateDir(path.join(dataDir(ctx.env), 'mirrors'));
  // Profile names are file-name safe already (src/config/profile-rules.ts); encoded all the same.
  return path.join(dir, `${encodeURIComponent(s.sandbox ? 'sandbox' : s.profile)}.db`);
}

function checkLocation(location: string): void {
  if (/^postgres(ql)?:\/\//i.test(location)) {
    throw new UsageError('this trk keeps the mirror in a SQLite file only', 'give a file path with --db or TRK_DB');
  }
}

/**
 * Opens the mirror, creating it (for a sync, or a listener that stores). `mustExist`: the offline reads refuse a
 * mirror that was never synced rather than answer from an empty one. `durable: false`: commits need not be on disk
 * when they return (a sync; see sqlite.ts).
 */
export async function openMirror(ctx: Context, opts: MirrorOptions & { mustExist?: boolean; durable?: boolean }): Promise<Store> {
  const named = opts.db ?? (await ctx.settings()).db;
  if (named !== undefined) checkLocation(named);
  const file = await mirrorLocation(ctx, opts);
  if (opts.mustExist && !existsSync(file)) {
    throw new TrkError(`no mirror at ${file}`, { exitCode: 2, hint: 'run "trk sync" first (or name the mirror with --db)' });
  }
  if (!opts.mustExist) {
    const { ensurePrivateDir } = await import('../config/paths.js');
    ensurePrivateDir(path.dirname(file));
  }
  const { SqliteStore } = await import('./sqlite.js');
  return SqliteStore.open(file, { durable: opts.durable ?? true });
}

/** The account a mirror belongs to, without the key itself: a hash of the address and the key. */
export function accountId(baseUrl: string, apiKey: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(`${baseUrl}\u0000${apiKey}`).digest('hex').slice(0, 16);
}
