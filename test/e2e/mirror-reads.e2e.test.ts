// What the commands that read the mirror do with a mirror they must not answer from as it is: one of another
// account, one trk cannot write (a read-only file system, a read-only database session), one with damaged pages.
// Each against the mirror in a SQLite file and in a PostgreSQL database where the case applies (test/store/kinds.ts).

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_KINDS } from '../store/kinds.js';
import { numbers, startEmulator, trk, type Emulator } from './helpers.js';

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

/** A mirror of `kind` synced with the emulator's key: the environment that made it, and its numbers. */
async function syncedMirror(emu: Emulator, kind: (typeof STORE_KINDS)[number]) {
  const db = kind.name === 'PostgreSQL' ? { TRK_DB: await kind.fresh() } : {};
  const env = { ...emu.env, TRK_DATA_DIR: path.join(String(emu.env.HOME), 'data'), TRK_API_VERSION: 'v2.1', ...db };
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
    ({ env, list } = await syncedMirror(emu, kind));
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
