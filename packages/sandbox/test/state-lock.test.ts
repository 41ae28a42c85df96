// The state file's lock: one holder at a time, waiters told who holds it, stale locks (holder gone, pid reused,
// left unreadable) taken over, and no time stamp involved (a clock moved back cannot revive or kill a lock).

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SimClock } from '../src/clock.js';
import { acquireStateLock, currentHolder, type LockHolder, lockPath } from '../src/state-lock.js';

let dir: string;
let stateFile: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trk-lock-'));
  stateFile = path.join(dir, 'sandbox.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const never = () => {
  throw new Error('the lock was expected to be free');
};

function holderFile(over: Partial<LockHolder>): string {
  return JSON.stringify({
    kind: 'server',
    pid: process.pid,
    host: hostname(),
    processStart: null,
    url: null,
    key: null,
    nonce: 'n',
    ...over,
  });
}

describe('the state file lock', () => {
  it('is held by one at a time; the next is told who holds it and gets it on release', async () => {
    const first = (await acquireStateLock(stateFile, 'server', { busy: never }))!;
    expect(JSON.parse(await readFile(lockPath(stateFile), 'utf8'))).toMatchObject({
      kind: 'server',
      pid: process.pid,
      url: null,
    });
    await first.publish('http://127.0.0.1:1234', 'sandbox-key');
    const seen: LockHolder[] = [];
    const second = acquireStateLock(stateFile, 'embedded', {
      busy: (holder) => {
        seen.push(holder);
        return 'wait';
      },
      pollMs: 10,
    });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 5000, interval: 5 });
    expect(seen[0]).toMatchObject({ kind: 'server', url: 'http://127.0.0.1:1234', key: 'sandbox-key' });
    await first.release();
    const lock = (await second)!;
    expect(lock.holder.kind).toBe('embedded');
    expect(await currentHolder(stateFile)).toMatchObject({ kind: 'embedded', nonce: lock.holder.nonce });
    await lock.release();
    expect(await currentHolder(stateFile)).toBeUndefined();
  });

  it('gives up when busy says stop, and refuses when it throws', async () => {
    const held = (await acquireStateLock(stateFile, 'server', { busy: never }))!;
    expect(await acquireStateLock(stateFile, 'embedded', { busy: () => 'stop' })).toBeUndefined();
    await expect(
      acquireStateLock(stateFile, 'server', {
        busy: () => {
          throw new Error('taken');
        },
      }),
    ).rejects.toThrow('taken');
    await held.release();
  });

  it('takes over the lock of a process that is gone', async () => {
    await writeFile(lockPath(stateFile), holderFile({ pid: await deadPid() }));
    expect(await currentHolder(stateFile)).toBeUndefined();
    const lock = (await acquireStateLock(stateFile, 'server', { busy: never }))!;
    expect(lock.holder.pid).toBe(process.pid);
    await lock.release();
  });

  it.runIf(process.platform === 'linux')(
    'takes over a lock whose pid now belongs to a process started later',
    async () => {
      await writeFile(lockPath(stateFile), holderFile({ processStart: '1' }));
      const lock = (await acquireStateLock(stateFile, 'server', { busy: never }))!;
      await lock.release();
    },
  );

  it('takes over a lock file left unreadable, after a grace period', async () => {
    await writeFile(lockPath(stateFile), '');
    // Real time: the grace (2 s) is the lock's, on the machine's clock, which other processes share; a lower
    // bound, which a loaded machine can only exceed.
    const t0 = performance.now();
    const lock = (await acquireStateLock(stateFile, 'server', { busy: never, pollMs: 20 }))!;
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1900);
    await lock.release();
  });

  it('takes a lock of another host as live: it cannot be checked from here', async () => {
    await writeFile(lockPath(stateFile), holderFile({ host: `not-${hostname()}`, pid: await deadPid() }));
    expect(await currentHolder(stateFile)).toMatchObject({ host: `not-${hostname()}` });
    expect(await acquireStateLock(stateFile, 'server', { busy: () => 'stop' })).toBeUndefined();
  });

  it('holds no time: a live holder stays live and a gone one stale whatever the clock says', async () => {
    const held = (await acquireStateLock(stateFile, 'embedded', { busy: never }))!;
    const saved = JSON.parse(await readFile(lockPath(stateFile), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual(['host', 'key', 'kind', 'nonce', 'pid', 'processStart', 'url']);
    await held.release();
  });

  it('release leaves a lock that is no longer its own alone', async () => {
    const lock = (await acquireStateLock(stateFile, 'embedded', { busy: never }))!;
    await writeFile(lockPath(stateFile), holderFile({ nonce: 'someone-else' }));
    await lock.release();
    expect(JSON.parse(await readFile(lockPath(stateFile), 'utf8')).nonce).toBe('someone-else');
  });

  it('stops waiting on the signal', async () => {
    const held = (await acquireStateLock(stateFile, 'server', { busy: never }))!;
    const stop = new AbortController();
    const waiting = acquireStateLock(stateFile, 'embedded', { busy: () => 'wait', signal: stop.signal, pollMs: 10 });
    stop.abort();
    await expect(waiting).rejects.toThrow();
    await held.release();
  });
});

describe('a simulated clock resumed after the real clock moved back', () => {
  it('does not run backwards', () => {
    const now = Date.now();
    const state = { time: Date.UTC(2026, 5, 1), savedAt: now + 3_600_000, speed: 60 };
    const clock = SimClock.resume(state, { catchUp: 60, realNow: () => now });
    expect(clock.now()).toBe(state.time);
  });
});
