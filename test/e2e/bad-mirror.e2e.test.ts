// Mirrors trk cannot use: a SQLite file cut short, a file that is no database (an image, plain text), the mirror
// of another account, a disk that fills during a sync, a PostgreSQL address with a wrong password, a database
// whose schema is missing or holds another application's tables. Each command that meets one says so in one line
// on stderr that names the mirror, exits with a failure, prints no secret, and leaves the mirror as it was (a sync
// that fills the disk keeps what it had committed, and the next one goes on). The wording of what reading commands
// say is left free here: only that they name the mirror.

import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_KINDS, type StoreKind } from '../store/kinds.js';
import { beforeProcess, numbers, ROOT, startEmulator, trk, trkRunning, type Emulator, type Result } from './helpers.js';
import { count, HOUR, mirrorEnv, mirrorFile, register, START, sync } from './mirror-helpers.js';

/** The commands that open the mirror: the two that write it first (a sync, a listener that stores). */
const WRITERS = [['sync'], ['webhook', 'listen', '--port', '0', '--store']];
const READERS = [
  ['list', '--offline'],
  ['find', '10003'],
  ['info', '--offline', 'RB100000000CN'],
  ['changes'],
  ['report'],
];

/** A command line run to its end; a listener that starts listening instead is stopped, and fails the test. */
async function run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Result> {
  if (args[0] !== 'webhook') return trk(args, { env });
  const listener = trkRunning(args, { env });
  const listening = listener.printed(/Listening on/).then(
    () => true,
    () => false,
  );
  if (await Promise.race([listening, listener.done.then(() => false)])) {
    listener.interrupt();
    await listener.done;
    throw new Error(`trk ${args.join(' ')} listened on a mirror it cannot use:\n${listener.stderr()}`);
  }
  return listener.done;
}

/** One line on stderr naming `mirror`, nothing on stdout, a failure's exit, and no secret anywhere. */
function expectRefused(r: Result, mirror: string, secrets: readonly string[], what: string): string {
  expect(r.code, `${what}: ${r.stderr}`).not.toBe(0);
  expect(r.code, what).not.toBe(130);
  expect(r.stdout, what).toBe('');
  expect(r.stderr, what).toMatch(/^trk: [^\n]+\n$/);
  expect(r.stderr, what).toContain(mirror);
  for (const secret of secrets) expect(r.stdout + r.stderr, what).not.toContain(secret);
  return r.stderr;
}

/** What a SQLite mirror is on disk: the names in its folder, and a digest of each file's bytes. */
function onDisk(file: string): Record<string, string> {
  const dir = path.dirname(file);
  const digest = (name: string) =>
    createHash('sha256')
      .update(readFileSync(path.join(dir, name)))
      .digest('hex');
  return Object.fromEntries(readdirSync(dir).map((name) => [name, digest(name)]));
}

/** Every table of every schema of a PostgreSQL database, with all its rows: what the database holds. */
async function inDatabase(url: string): Promise<Record<string, unknown[]>> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ name: string }[]>`
      SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`;
    const held: Record<string, unknown[]> = {};
    for (const { name } of tables) held[name] = [...(await sql.unsafe(`SELECT * FROM ${name} ORDER BY 1`))];
    return held;
  } finally {
    await sql.end();
  }
}

/** Every table of a SQLite file with all its rows, read as sqlite3 would (the write-ahead log's too). */
function inFile(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all()]));
  } finally {
    db.close();
  }
}

/** What `kind`'s mirror of `env` holds, to compare before and after. */
async function held(kind: StoreKind, env: NodeJS.ProcessEnv): Promise<unknown> {
  return kind.name === 'SQLite' ? inFile(mirrorFile(env)) : inDatabase(String(env.TRK_DB));
}

/** The bytes of a SQLite mirror whose write-ahead log is written back into it: the file a copy would take. */
function checkpointed(file: string): Buffer {
  const db = new Database(file);
  try {
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return readFileSync(file);
}

describe('a SQLite mirror that is damaged or no database', () => {
  let emu: Emulator;
  let env: NodeJS.ProcessEnv;
  let good: Buffer;

  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
    env = await mirrorEnv(emu, STORE_KINDS[0]!);
    await register(emu, env, numbers(80, 'RB'), 40);
    await emu.sandbox.advance(2 * 24 * HOUR);
    await sync(env);
    good = checkpointed(mirrorFile(env));
    expect(good.length).toBeGreaterThan(8 * 4096);
  }, 60_000);
  afterAll(() => emu?.close());

  const damaged: [string, () => Buffer][] = [
    ['cut inside its header', () => good.subarray(0, 100)],
    ['cut after its first page', () => good.subarray(0, 4096)],
    ['cut in half', () => good.subarray(0, Math.floor(good.length / 8192) * 4096)],
    ['an image', () => readFileSync(path.join(ROOT, 'docs', 'report.png'))],
    ['plain text', () => Buffer.from('number,carrier\nRB100000000CN,3011\n')],
  ];

  it.each(damaged)('refuses a mirror %s, with every command, and leaves it as it was', async (what, bytes) => {
    const file = path.join(String(env.HOME), what.replace(/ /g, '-'), 'mirror.db');
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, bytes(), { mode: 0o600 });
    const before = onDisk(file);
    const requests = emu.requests();
    for (const args of [...WRITERS, ...READERS]) {
      const line = expectRefused(await run([...args, '--db', file], env), file, [String(env.TRK_API_KEY)], what);
      if (WRITERS.includes(args)) expect(line, `${args[0]}: a way out`).toContain('--db');
      expect(onDisk(file), `${what}: ${args.join(' ')}`).toEqual(before);
    }
    // Nothing asked of the service for a mirror that cannot take it.
    expect(emu.requests()).toBe(requests);
  });
});

describe.each(STORE_KINDS)("another account's mirror ($name)", (kind) => {
  if (kind.missing) return void it.skip(kind.missing, () => {});
  it('is refused by a sync and a listener that stores, and left as it was', async () => {
    const [mine, theirs] = [
      await startEmulator({ speed: 0, start: START }),
      await startEmulator({ speed: 0, start: START }),
    ];
    try {
      const env = await mirrorEnv(mine, kind);
      await register(mine, env, numbers(40, 'RA'), 40);
      await sync(env);
      // The same mirror, named for another account (another address and key).
      const other: NodeJS.ProcessEnv = { ...theirs.env, TRK_DATA_DIR: env.TRK_DATA_DIR, TRK_API_VERSION: 'v2.1' };
      if (env.TRK_DB) Object.assign(other, { TRK_DB: env.TRK_DB });
      const shown = kind.name === 'SQLite' ? mirrorFile(env) : String(env.TRK_DB).replace(/:[^:@/]+@/, ':***@');
      const secrets = [String(env.TRK_API_KEY), String(other.TRK_API_KEY)];
      if (env.TRK_DB) secrets.push(new URL(String(env.TRK_DB)).password);
      const before = await held(kind, env);
      for (const args of WRITERS) {
        const r = await run(args, other);
        expect(r.code, r.stderr).toBe(2);
        expect(expectRefused(r, shown, secrets, args[0]!)).toContain('--db');
        expect(await held(kind, env)).toEqual(before);
      }
      expect(theirs.requests()).toBe(0);
      // The account's own sync still takes it.
      expect((await sync(env)).full).toBe(false);
    } finally {
      await mine.close();
      await theirs.close();
    }
  }, 60_000);
});

const prlimit = (() => {
  try {
    execFileSync('prlimit', ['--fsize=1000000', 'true']);
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!prlimit)('a sync that fills the disk (SQLite)', () => {
  it('stops with one line naming the mirror, keeps what it committed, and the next sync goes on', async () => {
    const emu = await startEmulator({ speed: 0, start: START });
    try {
      const env = await mirrorEnv(emu, STORE_KINDS[0]!);
      await register(emu, env, numbers(40, 'RF'), 40);
      await sync(env);
      const file = mirrorFile(env);
      const room = statSync(file).size;
      await register(emu, env, numbers(400, 'RG'), 200);
      await emu.sandbox.advance(2 * 24 * HOUR);
      // No file may grow past the mirror's size: its write-ahead log fills while the sync writes (the kernel's
      // limit on a file's size, which any user may lower for a process, in place of a full disk).
      await beforeProcess();
      const bin = path.join(ROOT, 'bin', 'trk.js');
      const child = spawn('prlimit', [`--fsize=${room}`, process.execPath, bin, 'sync'], { env });
      const out = { stdout: '', stderr: '' };
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      const line = expectRefused({ code, ...out }, file, [String(env.TRK_API_KEY)], 'sync');
      expect(line).toContain('--db');
      expect(code).toBe(1);
      // What was committed is whole: the file passes SQLite's check, and the next sync completes the mirror.
      const db = new Database(file, { readonly: true });
      try {
        expect(db.prepare('PRAGMA integrity_check').get()).toMatchObject({ integrity_check: 'ok' });
      } finally {
        db.close();
      }
      const kept = await count(env, 'records');
      expect(kept).toBeGreaterThanOrEqual(40);
      expect(kept).toBeLessThan(440);
      await sync(env);
      expect([await count(env, 'records'), await count(env, 'details')]).toEqual([440, 440]);
    } finally {
      await emu.close();
    }
  }, 60_000);
});

const pg = STORE_KINDS.find((k) => k.name === 'PostgreSQL')!;

describe.skipIf(pg.missing !== undefined)('a PostgreSQL mirror trk cannot use', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ speed: 0, start: START });
  });
  afterAll(() => emu?.close());

  it('names the server and never the password when the password is wrong; nothing is written', async () => {
    const env = await mirrorEnv(emu, pg);
    const url = String(env.TRK_DB);
    const password = new URL(url).password;
    const wrong = { ...env, TRK_DB: url.replace(password, 'not-the-password') };
    const server = `127.0.0.1:${new URL(url).port}`;
    for (const args of [...WRITERS, ...READERS]) {
      const r = await run(args, wrong);
      expectRefused(r, server, [password, 'not-the-password', String(env.TRK_API_KEY)], args.join(' '));
      expect(r.stderr).toMatch(/password/);
    }
    expect(await inDatabase(url)).toEqual({});
  }, 60_000);

  it('refuses a schema that is missing, or holds the tables of another application, and changes nothing', async () => {
    const env = await mirrorEnv(emu, pg);
    const url = String(env.TRK_DB);
    const password = new URL(url).password;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(
        "CREATE TABLE records (id serial PRIMARY KEY, note text); INSERT INTO records (note) VALUES ('theirs');" +
          'CREATE SCHEMA shop; CREATE TABLE shop.changes (id int PRIMARY KEY); INSERT INTO shop.changes VALUES (7)',
      );
    } finally {
      await admin.end();
    }
    const before = await inDatabase(url);
    const server = `127.0.0.1:${new URL(url).port}`;
    for (const db of [`${url}&search_path=nowhere`, url, `${url}&search_path=shop`]) {
      for (const args of [...WRITERS, ...READERS]) {
        const r = await run(args, { ...env, TRK_DB: db });
        const what = `${db.slice(url.length)} ${args.join(' ')}`;
        // Named by its server, or by its address without the password, which holds the server.
        const line = expectRefused(r, server, [password, String(env.TRK_API_KEY)], what);
        // The writers say what to do about it.
        if (WRITERS.includes(args)) expect(line.trimEnd(), what).toMatch(/: [^:]*(schema|database)[^:]*$/);
        expect(await inDatabase(url), what).toEqual(before);
      }
    }
  }, 60_000);
});
