// What the commands that read the mirror do with a mirror they must not answer from as it is: one of another
// account, one trk cannot write (a read-only file system, a read-only database session), one with damaged pages.
// Each against the mirror in a SQLite file and in a PostgreSQL database where the case applies (test/store/kinds.ts).

import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'libsql';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { STORE_KINDS } from '../store/kinds.js';
import { assertBuilt, numbers, ROOT, startEmulator, trk, type Emulator, type Result } from './helpers.js';

const START = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;

/** Every command that only reads the mirror, with what it is asked (a number, an order number, an e-mail). */
function readingCommands(number: string): string[][] {
  return [
    ['list', '--offline'],
    ['info', '--offline', number],
    ['info', 'customer0@example.com'],
    ['find', '#10000'],
    ['report'],
    ['changes'],
    ['changes', '--cursor', 'nightly'],
  ];
}

/**
 * A mirror synced with the emulator's key: the profile's file of the data folder, or `location` (a file or a new
 * database) as TRK_DB. The environment that made it, and its numbers.
 */
async function syncedMirror(emu: Emulator, location?: string) {
  const db = location === undefined ? {} : { TRK_DB: location };
  const dataDir = path.join(String(emu.env.HOME), 'data');
  const env: NodeJS.ProcessEnv = { ...emu.env, TRK_DATA_DIR: dataDir, TRK_API_VERSION: 'v2.1', ...db };
  const list = numbers(3, 'RA');
  const rows = list.map((n, i) => `${n},#${10000 + i},customer${i}@example.com`);
  const file = path.join(String(env.HOME), 'register.csv');
  writeFileSync(file, `number,order_no,email\n${rows.join('\n')}\n`);
  expect((await trk(['register', '-f', file, '-q'], { env })).code).toBe(0);
  await emu.sandbox.advance(2 * DAY);
  const synced = await trk(['sync', '-q'], { env });
  expect(synced.code, synced.stderr).toBe(0);
  return { env, list };
}

describe.each(STORE_KINDS)('a mirror of another account ($name)', (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  let emu: Emulator;
  let env: NodeJS.ProcessEnv;
  let list: string[];

  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
    ({ env, list } = await syncedMirror(emu, kind.name === 'PostgreSQL' ? await kind.fresh() : undefined));
  }, 60_000);
  afterAll(() => emu.close());

  it('is refused by every command that reads it, as sync refuses it, with another key or address', async () => {
    const others: NodeJS.ProcessEnv[] = [
      { ...env, TRK_API_KEY: 'another-accounts-key-0123456789ab' },
      { ...env, TRK_BASE_URL: 'http://127.0.0.1:9/other' },
    ];
    for (const other of others) {
      for (const args of [...readingCommands(list[0]!), ['sync']]) {
        const r = await trk(args, { env: other });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stdout, args.join(' ')).toBe('');
        expect(r.stderr, args.join(' ')).toMatch(/^trk: the mirror \S+ belongs to another account \(another key or /);
        expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      }
    }
    // The cursor was not moved by the refused run: this account's run gets every change.
    const own = await trk(['changes', '--cursor', 'nightly', '--json'], { env });
    expect(own.code, own.stderr).toBe(0);
    const all = await trk(['changes', '--json'], { env });
    expect(own.stdout).toBe(all.stdout);
  }, 60_000);

  it('is read where no key is set at all (a host that has only the mirror)', async () => {
    const { TRK_API_KEY: _key, ...keyless } = env;
    for (const args of readingCommands(list[0]!)) {
      const r = await trk(args, { env: keyless });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args.join(' ')).not.toMatch(/another account/);
    }
  }, 60_000);
});

/**
 * Why a folder cannot be made read-only for a process here, or undefined: the process is run in a mount namespace of
 * its own (unshare -rm), where the folder is bound onto itself read-only, a read-only file system that root too
 * cannot write.
 */
function readOnlyMountMissing(): string | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'trk-ro-probe-'));
  const script = `${MOUNT_READ_ONLY} && ! touch "$1/x" 2>/dev/null`;
  if (spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', dir]).status === 0) return undefined;
  return 'unshare -rm cannot mount a folder read-only here (no user namespaces): a read-only file system is not tested';
}

const MOUNT_READ_ONLY = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1"';

/** trk (the built CLI) in a process that sees `dir` as a read-only file system. */
function trkOnReadOnly(dir: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<Result> {
  assertBuilt();
  const script = `${MOUNT_READ_ONLY} && shift && exec "$@"`;
  const command = ['-rm', 'sh', '-c', script, 'sh', dir, process.execPath, path.join(ROOT, 'bin', 'trk.js'), ...args];
  return new Promise((resolve, reject) => {
    const child = spawn('unshare', command, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ...out }));
  });
}

/** The reading commands with --json where they have it: what they print is compared whole. */
const asJson = (args: string[]) => (args[0] === 'report' ? args : [...args, '--json']);

/** What this mirror's reads print where it can be written: what they must print where it cannot. */
async function readsOf(env: NodeJS.ProcessEnv, number: string): Promise<Map<string, Result>> {
  const out = new Map<string, Result>();
  for (const args of readingCommands(number).filter((a) => !a.includes('--cursor'))) {
    const r = await trk(asJson(args), { env });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    out.set(args.join(' '), r);
  }
  return out;
}

/** The reads answer as they do where the mirror can be written; the cursor and a sync are refused in one line. */
async function expectReadOnlyMirror(
  run: (args: readonly string[]) => Promise<Result>,
  expected: Map<string, Result>,
  number: string,
): Promise<void> {
  for (const args of readingCommands(number).filter((a) => !a.includes('--cursor'))) {
    const r = await run(asJson(args));
    const want = expected.get(args.join(' '))!;
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    // The report's figures count days to now: its groups are compared, not its times.
    if (args[0] === 'report') expect(r.stdout.split('\n').length, r.stdout).toBe(want.stdout.split('\n').length);
    else expect(r.stdout, args.join(' ')).toBe(want.stdout);
  }
  const cursor = await run(['changes', '--cursor', 'nightly']);
  expect(cursor.code, cursor.stderr).toBe(2);
  expect(cursor.stdout).toBe('');
  expect(cursor.stderr).toMatch(
    /^trk: the mirror \S+ cannot be written here: the cursor "nightly" cannot move: read the changes with --since /,
  );
  expect(cursor.stderr.trim().split('\n')).toHaveLength(1);
  const sync = await run(['sync', '-q']);
  expect(sync.code, sync.stderr).toBe(1);
  expect(sync.stderr).toMatch(/^trk: cannot write the mirror \S+ \(|^trk: the mirror's database at \S+ is read-only/);
  expect(sync.stderr.trim().split('\n')).toHaveLength(1);
}

describe('a mirror on a read-only file system (SQLite)', () => {
  const missing = readOnlyMountMissing();
  if (missing) return void it.skip(missing, () => {});
  let emu: Emulator;
  let env: NodeJS.ProcessEnv;
  let list: string[];
  let dir: string;

  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
    const synced = path.join(mkdtempSync(path.join(tmpdir(), 'trk-rw-')), 'm.db');
    ({ env, list } = await syncedMirror(emu, synced));
    // As a mirror no writer has open is: its journal written into the file, and no journal beside it.
    const db = new Database(synced);
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    dir = mkdtempSync(path.join(tmpdir(), 'trk-ro-'));
    env.TRK_DB = path.join(dir, 'm.db');
    copyFileSync(synced, env.TRK_DB);
  }, 60_000);
  afterAll(() => emu.close());

  it('is read by every command that only reads it; the cursor and a sync are refused', async () => {
    // No journal beside it, and none can be made there.
    expect(existsSync(`${env.TRK_DB}-wal`)).toBe(false);
    const expected = await readsOf(env, list[0]!);
    await expectReadOnlyMirror((args) => trkOnReadOnly(dir, args, env), expected, list[0]!);
  }, 60_000);

  it('is read with the writes a writer elsewhere committed to its journal', async () => {
    const writer = await SqliteStore.open(String(env.TRK_DB));
    try {
      await writer.markStopped({ number: list[1]!, carrier: 3011 }, { tag: null, param: null });
      const r = await trkOnReadOnly(dir, ['list', '--offline', '--number', list[1]!, '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject([{ number: list[1], tracking_status: 'Stopped' }]);
    } finally {
      await writer.close();
    }
  }, 60_000);

  it('is refused, not read as of long ago, when its journal holds writes that cannot be read there', async () => {
    // A copy taken while a writer had it open: the file and its journal, without the journal's index.
    const copy = mkdtempSync(path.join(tmpdir(), 'trk-ro-copy-'));
    const writer = await SqliteStore.open(String(env.TRK_DB));
    try {
      await writer.markStopped({ number: list[2]!, carrier: 3011 }, { tag: null, param: null });
      for (const suffix of ['', '-wal']) copyFileSync(`${env.TRK_DB}${suffix}`, path.join(copy, `m.db${suffix}`));
    } finally {
      await writer.close();
    }
    const r = await trkOnReadOnly(copy, ['list', '--offline'], { ...env, TRK_DB: path.join(copy, 'm.db') });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^trk: the mirror \S+m\.db has writes in its journal \S+m\.db-wal that cannot be read /);
  }, 60_000);
});

describe('a mirror in a folder this user cannot write (SQLite)', () => {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root) {
    const why = 'root writes through file modes: the read-only file system above holds for root';
    return void it.skip(why, () => {});
  }
  it('is read by every command that only reads it; the cursor and a sync are refused', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-ro-'));
    try {
      const file = path.join(dir, 'm.db');
      const { env, list } = await syncedMirror(emu, file);
      const expected = await readsOf(env, list[0]!);
      chmodSync(file, 0o400);
      chmodSync(dir, 0o500);
      await expectReadOnlyMirror((args) => trk(args, { env }), expected, list[0]!);
    } finally {
      chmodSync(dir, 0o700);
      await emu.close();
    }
  }, 60_000);
});

const pg = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;

describe('a mirror in a database this session cannot write (PostgreSQL)', () => {
  if (pg.missing) return void it.skip(pg.missing, () => {});
  it('is read by every command that only reads it; the cursor and a sync are refused', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const { env, list } = await syncedMirror(emu, await pg.fresh());
      const expected = await readsOf(env, list[0]!);
      // As on a standby server, or for a user the database lets read only.
      const readOnly = { ...env, TRK_DB: `${env.TRK_DB}&default_transaction_read_only=on` };
      await expectReadOnlyMirror((args) => trk(args, { env: readOnly }), expected, list[0]!);
    } finally {
      await emu.close();
    }
  }, 60_000);
});

/** The file as no writer has it open: every commit written into it, and its journal empty. */
function checkpointed(file: string): void {
  const db = new Database(file);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}

/** Overwrites the first page of a table or index of the SQLite file with bytes that are no page, as a bad disk does. */
function damagePage(file: string, name: string): void {
  checkpointed(file);
  const db = new Database(file);
  const { rootpage } = db.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(name) as {
    rootpage: number;
  };
  const { page_size: size } = db.prepare('PRAGMA page_size').get() as { page_size: number };
  db.close();
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (rootpage - 1) * size);
  } finally {
    closeSync(fd);
  }
}

const DAMAGED = /^trk: the mirror \S+ is damaged \(.+\): make a new one with "trk sync --full --db NEW\.db" /;

/** The command refuses the mirror as damaged, in one line, printing nothing and asking the service nothing. */
async function expectDamaged(emu: Emulator, args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const before = emu.requests();
  const r = await trk(args, { env });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
  expect(r.stdout, args.join(' ')).toBe('');
  expect(r.stderr, args.join(' ')).toMatch(DAMAGED);
  expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
  expect(emu.requests(), args.join(' ')).toBe(before);
}

describe('a SQLite mirror with damaged pages', () => {
  let emu: Emulator;
  let env: NodeJS.ProcessEnv;
  let list: string[];
  let good: string;

  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'trk-damaged-')), 'm.db');
    ({ env, list } = await syncedMirror(emu, file));
    checkpointed(file);
    good = path.join(mkdtempSync(path.join(tmpdir(), 'trk-good-')), 'm.db');
    copyFileSync(file, good);
  }, 60_000);
  afterAll(() => emu.close());

  it('is named with the way out by the read that meets the damage, and refused by every command after', async () => {
    damagePage(String(env.TRK_DB), 'details');
    await expectDamaged(emu, ['info', '--offline', list[0]!], env);
    // The records are whole, but the mirror is not: the commands that read only them refuse it too.
    for (const args of [...readingCommands(list[0]!), ['sync']]) await expectDamaged(emu, args, env);
  }, 60_000);

  it('is read again once a whole copy takes its place, in the same file or as another', async () => {
    copyFileSync(good, String(env.TRK_DB));
    const inPlace = await trk(['list', '--offline', '--json'], { env });
    expect(inPlace.code, inPlace.stderr).toBe(0);
    expect(JSON.parse(inPlace.stdout)).toHaveLength(3);
    damagePage(String(env.TRK_DB), 'records');
    await expectDamaged(emu, ['list', '--offline'], env);
    const copy = path.join(path.dirname(good), 'copy.db');
    copyFileSync(good, copy);
    renameSync(copy, String(env.TRK_DB));
    expect((await trk(['list', '--offline'], { env })).code).toBe(0);
  }, 60_000);

  it("is found by the day's first sync, before it asks anything, where no read met the damage", async () => {
    const file = String(env.TRK_DB);
    copyFileSync(good, `${file}.new`);
    renameSync(`${file}.new`, file);
    expect((await trk(['sync', '-q'], { env })).code).toBe(0);
    damagePage(file, 'changes_detected_at');
    await clock().sleep(DAY);
    await expectDamaged(emu, ['sync'], env);
    await expectDamaged(emu, ['list', '--offline'], env);
  }, 60_000);
});

describe('a PostgreSQL mirror with damaged pages', () => {
  if (pg.missing) return void it.skip(pg.missing, () => {});
  it('is named with the way out by the read that meets the damage', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const location = await pg.fresh();
      const { env } = await syncedMirror(emu, location);
      // What the server says of a page whose checksum fails, for every read of the records.
      const admin = postgres(location, { onnotice: () => {}, max: 1 });
      try {
        await admin.unsafe(
          'CREATE FUNCTION damaged() RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION USING ' +
            "ERRCODE = 'XX001', MESSAGE = 'invalid page in block 0 of relation base/16384/16390'; END $$",
        );
        await admin.unsafe('ALTER TABLE records RENAME TO records_whole');
        await admin.unsafe('CREATE VIEW records AS SELECT * FROM records_whole WHERE damaged()');
      } finally {
        await admin.end();
      }
      const r = await trk(['list', '--offline'], { env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^trk: the mirror's database at 127\.0\.0\.1:\d+ is damaged \(invalid page in block 0 of relation \S+\): fill /,
      );
    } finally {
      await emu.close();
    }
  }, 60_000);
});
