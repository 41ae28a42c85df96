// The service emulator: what other modules and tests import.

export {
  DEFAULT_TICK_MS,
  MAX_BODY_BYTES,
  type RequestStats,
  type RunningSandbox,
  SANDBOX_KEY,
  type SandboxOptions,
  type SandboxRequestLog,
  type SandboxState,
  startSandbox,
} from './http/server.js';
export { EMBEDDED_SPEED, type EmbeddedSandbox, type EmbeddedSandboxOptions, startEmbeddedSandbox } from './embedded.js';
export { type ClockState, SimClock } from './clock.js';
export { type Faults, NO_FAULTS } from './http/faults.js';
export { DEFAULT_QUOTA_TOTAL, type SettingsPatch } from './settings.js';
export { sandboxStateFile } from './paths.js';
export { removeStateFile, StateFileError } from './state-file.js';
