// What the end-to-end tests of the mirror share: trk's environment with a mirror of each kind (a SQLite file of the
// data folder, or a new PostgreSQL database), a sync, parcels registered with their references, the mirror read
// beside trk as sqlite3 or psql would, and the built CLI as a process of its own (a listener, a sync to kill).

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { expect } from 'vitest';
import { PostgresStore } from '../../src/store/postgres.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { SyncSummary } from '../../src/mirror/sync.js';
import type { Store } from '../../src/store/types.js';
import type { StoreKind } from '../store/kinds.js';
import { ROOT, trk, type Emulator } from './helpers.js';

export const HOUR = 3_600_000;
export const START = Date.parse('2026-06-01T00:00:00Z');

/** trk's environment with a mirror of `kind`: the default file of the data folder, or a new database as TRK_DB. */
export async function mirrorEnv(
  emu: Emulator,
  kind: StoreKind,
  extra: NodeJS.ProcessEnv = {},
): Promise<NodeJS.ProcessEnv> {
  const db = kind.name === 'PostgreSQL' ? { TRK_DB: await kind.fresh() } : {};
  const dataDir = path.join(String(emu.env.HOME), 'data');
  return { ...emu.env, TRK_DATA_DIR: dataDir, TRK_API_VERSION: 'v2.1', ...db, ...extra };
}

export async function sync(env: NodeJS.ProcessEnv, ...args: string[]): Promise<SyncSummary> {
  const r = await trk(['sync', '--json', ...args], { env });
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as SyncSummary;
}

/** Registers `list` in batches (CSV with tag, order number and e-mail), advancing the clock `stepMs` after each. */
export async function register(
  emu: Emulator,
  env: NodeJS.ProcessEnv,
  list: readonly string[],
  batch: number,
  stepMs = 0,
): Promise<void> {
  for (let i = 0; i < list.length; i += batch) {
    const rows = list
      .slice(i, i + batch)
      .map((n, j) => `${n},order-${i + j},#${10000 + i + j},customer${i + j}@example.com`);
    const file = path.join(String(env.HOME), `register-${i}.csv`);
    writeFileSync(file, `number,tag,order_no,email\n${rows.join('\n')}\n`);
    const r = await trk(['register', '-f', file, '-q'], { env });
    expect(r.code).toBe(0);
    if (stepMs) await emu.sandbox.advance(stepMs);
  }
}

export function mirrorFile(env: NodeJS.ProcessEnv): string {
  return path.join(String(env.TRK_DATA_DIR), 'mirrors', 'default.db');
}

/** The mirror of `env`, opened as another host's listener would (the SQLite file by this process alone). */
export async function openStore(env: NodeJS.ProcessEnv, opts: { mustExist?: boolean } = {}): Promise<Store> {
  return env.TRK_DB ? PostgresStore.open(env.TRK_DB, opts) : SqliteStore.open(mirrorFile(env));
}

/** Counts in the mirror, read as sqlite3 or psql would (beside any writer). */
export async function count(env: NodeJS.ProcessEnv, table: 'records' | 'details' | 'changes'): Promise<number> {
  if (env.TRK_DB) {
    const store = await openStore(env, { mustExist: true });
    try {
      return (await store.counts())[table];
    } finally {
      await store.close();
    }
  }
  const db = new Database(mirrorFile(env), { readonly: true });
  try {
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

/** The emulator's gettracklist of everything, by trk itself online: the reference the mirror must equal. */
export async function onlineJson(env: NodeJS.ProcessEnv, args: string[]): Promise<unknown> {
  const r = await trk([...args, '--json'], { env });
  // 3: some numbers rejected (info of a number not registered).
  expect([0, 3], r.stderr).toContain(r.code);
  return JSON.parse(r.stdout);
}

/** `trk webhook listen ...` as a process of its own: its output so far, its exit, and the URL it listens on. */
export function spawnTrk(args: string[], env: NodeJS.ProcessEnv) {
  const bin = path.join(ROOT, 'bin', 'trk.js');
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return { child, out, exited };
}

export async function until<T>(
  what: string,
  get: () => T | undefined | Promise<T | undefined>,
  ms = 20_000,
): Promise<T> {
  // Real time: what a process of its own prints comes when it does; polled for at most `ms`.
  for (const start = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
  }
}
