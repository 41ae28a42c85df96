// The emulator behind `--sandbox` on any command: started on a free loopback port for the life of one
// command, with its state in `<stateDir>/sandbox.json` (the file `trk sandbox start` uses by default too).
//
// Time: a command lives for a moment, so simulated time has to move between commands for a user to see
// anything happen. It runs at EMBEDDED_SPEED (60: one simulated minute per real second) while a command
// runs, and the time between two commands is added at the same speed, at most one simulated day per
// start. So `trk register` followed ten seconds later by `trk list` shows ten simulated minutes of
// tracking (first results come within seconds to minutes), an hour of use shows a few days of shipments
// moving, and coming back after a week shows one more day rather than every number expired.

import { join } from 'node:path';
import { DAY } from './account/time.js';
import { SANDBOX_STATE_FILE } from './paths.js';
import { startSandbox } from './http/server.js';

export const EMBEDDED_SPEED = 60;
export const EMBEDDED_CATCH_UP_MAX_MS = DAY;

export interface EmbeddedSandbox {
  url: string;
  key: string;
  close(): Promise<void>;
}

export interface EmbeddedSandboxOptions {
  /** Override EMBEDDED_SPEED (simulated ms per real ms, while running and for the time between runs). */
  speed?: number;
  onError?: (err: unknown) => void;
}

export async function startEmbeddedSandbox(stateDir: string, opts: EmbeddedSandboxOptions = {}): Promise<EmbeddedSandbox> {
  const speed = opts.speed ?? EMBEDDED_SPEED;
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    stateFile: join(stateDir, SANDBOX_STATE_FILE),
    speed,
    catchUp: speed,
    catchUpMaxMs: EMBEDDED_CATCH_UP_MAX_MS,
    // As the real service: a command that paces itself wrongly finds out here.
    rateLimit: 3,
    // trk's own client: it must use the spec's exact paths.
    strictPaths: true,
    ...(opts.onError === undefined ? {} : { onError: opts.onError }),
  });
  return { url: sandbox.url, key: sandbox.key, close: () => sandbox.close() };
}
