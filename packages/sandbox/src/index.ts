// The service emulator's entry (`@trk/sandbox`): what its clients use of it (trk through its door, src/sandbox.ts;
// `trk-sandbox`, cli.ts; other programs that start one in their tests). Tests may reach inner modules.
//
// Importing this module is cheap: constants and small helpers are re-exported as they are, while the emulator
// itself (transport, account, simulated world) is loaded by the functions that start it, on first call. So a
// command imports this lazily on its --sandbox path, and even then loads the emulator only if it starts one.

import type { EmbeddedSandbox, EmbeddedSandboxOptions } from './embedded.js';
import type { ForegroundOptions, ForegroundReport } from './foreground.js';
import type { RunningSandbox, SandboxOptions } from './http/server.js';

export type { RequestStats, RunningSandbox, SandboxOptions, SandboxState } from './http/server.js';
export type { SandboxRequestLog } from './http/request-log.js';
export type { EmbeddedSandbox, EmbeddedSandboxOptions } from './embedded.js';
export type { ClockState } from './clock.js';
export type { Faults } from './http/faults.js';
export { checkWebhookUrl, DEFAULT_QUOTA_TOTAL, SANDBOX_KEY, type SettingsPatch } from './settings.js';
export { sandboxStateFile } from './paths.js';
export { removeStateFile, StateFileError } from './state-file.js';
export { currentHolder as currentStateHolder, type LockHolder } from './state-lock.js';
export { ipMatcher } from './http/ip-allow.js';
export { formatRequestLine } from './http/request-log.js';
export { SandboxError, SandboxInterruptedError, SandboxUsageError } from './errors.js';
export { type StartDefaults, type StartFlags, startOptions } from './start-options.js';
export type { ForegroundOptions, ForegroundReport } from './foreground.js';

/** Start an emulator (see the package's README.md); the emulator's modules are loaded here. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const { startSandbox: start } = await import('./http/server.js');
  return start(opts);
}

/** The emulator behind `--sandbox` (@trk/sandbox/embedded.ts). */
export async function startEmbeddedSandbox(
  stateDir: string,
  opts: EmbeddedSandboxOptions = {},
): Promise<EmbeddedSandbox> {
  const { startEmbeddedSandbox: start } = await import('./embedded.js');
  return start(stateDir, opts);
}

/** The emulator in the foreground until Ctrl-C or SIGTERM (@trk/sandbox/foreground.ts). */
export async function serveInForeground(
  options: SandboxOptions,
  report: ForegroundReport,
  run: ForegroundOptions = {},
): Promise<void> {
  const { serveInForeground: serve } = await import('./foreground.js');
  return serve(options, report, run);
}
