// The service emulator: the one import point for the rest of trk (tests may reach inner modules).
//
// Importing this module is cheap: constants and small helpers are re-exported as they are, while the emulator
// itself (transport, account, simulated world) is loaded by the functions that start it, on first call. So a
// command imports this lazily on its --sandbox path, and even then loads the emulator only if it starts one.

import type { EmbeddedSandbox, EmbeddedSandboxOptions } from './embedded.js';
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

/** Start an emulator (see src/sandbox/README.md); the emulator's modules are loaded here. */
export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const { startSandbox: start } = await import('./http/server.js');
  return start(opts);
}

/** The emulator behind `--sandbox` (src/sandbox/embedded.ts). */
export async function startEmbeddedSandbox(
  stateDir: string,
  opts: EmbeddedSandboxOptions = {},
): Promise<EmbeddedSandbox> {
  const { startEmbeddedSandbox: start } = await import('./embedded.js');
  return start(stateDir, opts);
}
