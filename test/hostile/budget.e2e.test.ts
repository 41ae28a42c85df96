// The rate budget shared by every trk on a key, against a service that asks for a day's wait and a state folder
// that cannot be written: holds are capped, announced and never waited for silently; impossible holds are stale;
// a budget file that cannot be used is reported with its path (exit 1), while reads go on paced in process.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { budgetFile } from '../../src/pacing/budget.js';
import { baseEnv, startEmulator, trk, type Emulator } from '../e2e/helpers.js';
import { testClock } from '../skipping-clock.js';
import { startHostileServer, type HostileServer } from './server.js';

const KEY = 'hostile-budget-key-0000000000000';

describe('a service that asks to wait a day', () => {
  let server: HostileServer;
  let env: NodeJS.ProcessEnv;
  let file: string;

  beforeAll(async () => {
    server = await startHostileServer({ mode: 'retry-day' });
    env = { ...baseEnv(), TRK_BASE_URL: server.url, TRK_API_KEY: KEY, TRK_TIMEOUT: '1s' };
    file = budgetFile(env.TRK_STATE_DIR!, server.url, KEY);
  });

  afterAll(async () => {
    await server?.close();
  });

  const hold = () => (JSON.parse(readFileSync(file, 'utf8')) as { holdUntil: number }).holdUntil;
  /** What the command waited, on the tests' clock: the time trk read is theirs (clock().now()), not Date.now(). */
  async function timed(args: string[]) {
    const waitedBefore = testClock().skippedMs;
    const r = await trk(args, { env });
    return { ...r, waited: testClock().skippedMs - waitedBefore };
  }

  it('the hold it leaves for other processes is a minute at most, and the command gives up at once', async () => {
    const t0 = clock().now();
    const r = await timed(['quota']);
    expect(r.code).toBe(1);
    expect(r.waited).toBeLessThan(10_000);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          String.raw`^trk: rate limit of the service exceeded \(HTTP 429\) \(the next attempt would come after ` +
            String.raw`the 3 s the --timeout deadline allows\)`,
        ),
      ),
    ]);
    expect(hold() - t0).toBeGreaterThan(50_000);
    expect(hold() - clock().now()).toBeLessThanOrEqual(60_000);
  });

  it(
    'a later process waiting for a hold of another says so once (a first short one with -v only, naming whose it ' +
      'is), then goes on when it ends, against a healthy service',
    async () => {
      server.setMode('ok');
      const held = () =>
        writeFileSync(
          file,
          JSON.stringify({ starts: [], holdUntil: clock().now() + 2000, holdReason: 'rate-limited' }),
        );
      held();
      const quiet = await timed(['quota', '--json']);
      expect(quiet.code, quiet.stderr).toBe(0);
      expect(quiet.waited).toBeGreaterThanOrEqual(1500);
      expect(quiet.stderr).toBe('');
      expect(JSON.parse(quiet.stdout)).toMatchObject({ quota_remain: 990 });
      held();
      const r = await timed(['quota', '--json', '-v']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.waited).toBeGreaterThanOrEqual(1500);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('rate limited'))).toEqual([
        expect.stringMatching(
          /^rate limited by the service: another trk process on this key was refused, resuming in [12] s$/,
        ),
      ]);
    },
  );

  it(
    'a hold a day ahead and a lock from the future (an older trk, a clock set back) are stale: no ' + 'wait at all',
    async () => {
      server.setMode('ok');
      writeFileSync(file, JSON.stringify({ starts: [], holdUntil: clock().now() + 86_400_000 }));
      writeFileSync(`${file}.lock`, '999999');
      const future = clock().now() / 1000 + 3600;
      utimesSync(`${file}.lock`, future, future);
      const r = await timed(['quota', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.waited).toBeLessThan(10_000);
      expect(hold()).toBe(0);
    },
  );
});

describe('a state folder that cannot hold the budget', () => {
  let emu: Emulator;

  beforeAll(async () => {
    // No rate limit: without the shared budget each process paces only itself, and what is tested here is the
    // budget file's failure, not how two quick processes meet the service's limit.
    emu = await startEmulator({ speed: 0, rateLimit: 0 });
    const [n] = ['RB123456789CN'];
    expect((await trk(['-q', 'register', n!, '--carrier', '3011'], { env: emu.env })).code).toBe(0);
  });

  afterAll(async () => {
    await emu?.close();
  });

  /** `quota` still works after one warning naming the path; `stop` fails with exit 1 naming path and reason. */
  async function expectReadsWorkWritesFail(env: NodeJS.ProcessEnv, reason: RegExp): Promise<void> {
    const read = await trk(['quota', '--json'], { env });
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toHaveProperty('quota_remain');
    const warnings = read.stderr.trim().split('\n');
    expect(warnings, read.stderr).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: cannot use the rate budget file .*; pacing requests in this process only$/);
    expect(warnings[0]).toMatch(reason);

    const write = await trk(['stop', 'RB123456789CN'], { env });
    expect(write.code, write.stderr).toBe(1);
    const lines = write.stderr.trim().split('\n');
    expect(lines, write.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^trk: cannot use the rate budget file /);
    expect(lines[0]).toMatch(reason);
    expect(lines[0]).toMatch(/TRK_STATE_DIR/);
    expect(lines[0]).not.toMatch(/interrupted/);
  }

  it('a directory where the budget file should be', async () => {
    const env = { ...emu.env, TRK_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'trk-state-')) };
    mkdirSync(budgetFile(env.TRK_STATE_DIR, emu.sandbox.url, emu.sandbox.key), { recursive: true });
    await expectReadsWorkWritesFail(env, /a directory is in the way \(EISDIR\)/);
  });

  const root = process.getuid?.() === 0;
  /** A tiny tmpfs, or undefined (with the reason logged) where mounting is not allowed. */
  function tmpfs(): string | undefined {
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-tmpfs-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'pipe' });
      return dir;
    } catch (err) {
      console.warn(`skipped: cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]})`);
      rmSync(dir, { recursive: true, force: true });
      return undefined;
    }
  }
  function unmount(dir: string): void {
    execFileSync('umount', [dir], { stdio: 'pipe' });
    rmSync(dir, { recursive: true, force: true });
  }

  it.skipIf(!root)('a full disk (a 64 KB tmpfs filled up; needs root, skipped otherwise)', async () => {
    const dir = tmpfs();
    if (!dir) return;
    try {
      const state = path.join(dir, 'state');
      mkdirSync(path.join(state, 'budget'), { recursive: true });
      // Fill it: the budget file's lock and its copy cannot be written.
      try {
        writeFileSync(path.join(dir, 'filler'), Buffer.alloc(1024 * 1024));
      } catch {
        // ENOSPC: full, as wanted
      }
      await expectReadsWorkWritesFail({ ...emu.env, TRK_STATE_DIR: state }, /no space left on device \(ENOSPC\)/);
      // Nothing left behind to take more of the space: no lock, no partial copy.
      expect(readdirSync(path.join(state, 'budget'))).toEqual([]);
    } finally {
      unmount(dir);
    }
  });

  it(
    'a read-only state folder (a tmpfs remounted read-only as root; a folder without write permission ' + 'otherwise)',
    async () => {
      if (root) {
        const dir = tmpfs();
        if (!dir) return;
        try {
          const state = path.join(dir, 'state');
          mkdirSync(path.join(state, 'budget'), { recursive: true });
          execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' });
          await expectReadsWorkWritesFail({ ...emu.env, TRK_STATE_DIR: state }, /read-only file system \(EROFS\)/);
        } finally {
          unmount(dir);
        }
      } else {
        const state = mkdtempSync(path.join(tmpdir(), 'trk-state-'));
        mkdirSync(path.join(state, 'budget'));
        execFileSync('chmod', ['500', path.join(state, 'budget')]);
        await expectReadsWorkWritesFail({ ...emu.env, TRK_STATE_DIR: state }, /permission denied \(EACCES\)/);
      }
    },
  );
});
