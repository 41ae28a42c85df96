// The emulator behind `--sandbox` on any command: started on a free loopback port for the life of one
// command, with its state in `<stateDir>/sandbox.json` (the file `trk sandbox start` uses by default too).
//
// One state file, several emulators: the file's lock (state-lock.ts) decides. When `trk sandbox start` runs on
// the file, the command talks to that server over HTTP instead of loading the file (its clock, settings and rate
// limit apply), so nothing the command does is lost when the server saves. When another `--sandbox` command
// holds the file, this one waits for it to finish (a status line says so after a second), then loads the file
// with everything the other wrote. So two cron jobs or scripts running at once take turns, and no write is lost.
//
// Time: a command lives for a moment, so simulated time has to move between commands for a user to see
// anything happen. It runs at EMBEDDED_SPEED (60: one simulated minute per real second) while a command
// runs, and the time between two commands is added at the same speed, at most one simulated day per
// start. So `trk register` followed ten seconds later by `trk list` shows ten simulated minutes of
// tracking (first results come within seconds to minutes), an hour of use shows a few days of shipments
// moving, and coming back after a week shows one more day rather than every number expired.

import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SandboxInterruptedError } from './errors.js';
import { DAY } from './account/time.js';
import { LOCK_NOTICE_MS, startSandbox } from './http/server.js';
import type { SandboxTime } from './http/types.js';
import { SANDBOX_STATE_FILE } from './paths.js';
import { acquireStateLock, type LockHolder, type StateLock } from './state-lock.js';

export const EMBEDDED_SPEED = 60;
export const EMBEDDED_CATCH_UP_MAX_MS = DAY;

export interface EmbeddedSandbox {
  url: string;
  key: string;
  /** True when talking to a running `trk sandbox start` rather than an emulator of this process. */
  remote: boolean;
  /** The emulator's simulated time (ms since the epoch): what "now" means to the service being rehearsed. */
  now(): number;
  close(): Promise<void>;
}

export interface EmbeddedSandboxOptions {
  /** Override EMBEDDED_SPEED (simulated ms per real ms, while running and for the time between runs). */
  speed?: number;
  onError?: (err: unknown) => void;
  /** Status lines (waiting for another command using the same state file). */
  onWait?: (line: string) => void;
  /** Aborts waiting for the state file. */
  signal?: AbortSignal;
  /** The command's clock, which the emulator's rate limit and simulated time then follow. */
  time?: SandboxTime;
}

export async function startEmbeddedSandbox(
  stateDir: string,
  opts: EmbeddedSandboxOptions = {},
): Promise<EmbeddedSandbox> {
  const stateFile = join(stateDir, SANDBOX_STATE_FILE);
  let server: { holder: LockHolder; clock: RemoteClock } | undefined;
  let told = false;
  let lock: StateLock | undefined;
  try {
    lock = await acquireStateLock(stateFile, 'embedded', {
      busy: async (holder, waitedMs) => {
        if (holder.kind === 'server' && holder.url !== null && holder.key !== null) {
          const clock = await remoteClock(holder.url);
          if (clock) {
            server = { holder, clock };
            return 'stop';
          }
        }
        // A server still starting (or stopping), or another --sandbox command: its turn first.
        if (!told && waitedMs >= LOCK_NOTICE_MS) {
          told = true;
          const who = holder.kind === 'server' ? 'the sandbox server' : 'another trk --sandbox command';
          opts.onWait?.(`waiting for ${who} (pid ${holder.pid}) to finish with ${stateFile}…`);
        }
        return 'wait';
      },
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    });
  } catch (err) {
    if (opts.signal?.aborted) throw new SandboxInterruptedError(`interrupted while waiting for ${stateFile}`);
    throw err;
  }
  if (server) {
    const { holder, clock } = server;
    return { url: holder.url as string, key: holder.key as string, remote: true, now: clock, close: async () => {} };
  }

  const speed = opts.speed ?? EMBEDDED_SPEED;
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    stateFile,
    // Taken above: released when the sandbox closes, after its last save.
    ...(lock === undefined ? {} : { stateLock: lock }),
    speed,
    catchUp: speed,
    catchUpMaxMs: EMBEDDED_CATCH_UP_MAX_MS,
    // As the real service: a command that paces itself wrongly finds out here.
    rateLimit: 3,
    // trk's own client: it must use the spec's exact paths.
    strictPaths: true,
    ...(opts.onError === undefined ? {} : { onError: opts.onError }),
    ...(opts.time === undefined ? {} : { time: opts.time }),
  });
  return {
    url: sandbox.url,
    key: sandbox.key,
    remote: false,
    now: () => sandbox.clock.now(),
    close: () => sandbox.close(),
  };
}

type RemoteClock = () => number;

/**
 * A running server's simulated clock, read once from its state and carried on locally at its speed (an advance
 * made through its control endpoint meanwhile is not seen); undefined when it does not answer.
 */
async function remoteClock(url: string): Promise<RemoteClock | undefined> {
  let res: Response;
  try {
    res = await fetch(`${url}/__sandbox/state`, { signal: AbortSignal.timeout(2000) });
  } catch {
    return undefined;
  }
  const read = performance.now();
  const state = (await res.json().catch(() => undefined)) as { timeMs?: unknown; speed?: unknown } | undefined;
  // Any answer means it runs; a server that refuses the control endpoints to us (403) still serves the API.
  if (!res.ok || typeof state?.timeMs !== 'number' || typeof state.speed !== 'number') return () => Date.now();
  const { timeMs, speed } = state as { timeMs: number; speed: number };
  return () => Math.floor(timeMs + (performance.now() - read) * speed);
}
