// The emulator's public shapes: the options a sandbox starts with, what a running one offers, and what
// GET /__sandbox/state answers. The parts that build them live beside this file (see server.ts).

import type { Account } from '../account/account.js';
import type { AccountSettings, WebhookDelivery } from '../account/types.js';
import type { SimClock } from '../clock.js';
import type { SettingsPatch } from '../settings.js';
import type { StateLock } from '../state-lock.js';
import type { Faults } from './faults.js';
import type { SandboxRequestLog } from './request-log.js';
import type { RequestStats } from './stats.js';

/**
 * The real time an emulator reads: when requests arrive (its rate limit), when fault bursts come, what its simulated
 * clock runs from. The machine's by default; a client in the same process passes its own clock, so that both count
 * the time its waits skip (a test's clock) alike. Injected latency is waited in the machine's time: it stands for
 * the network, which a client's time limits race.
 */
export interface SandboxTime {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Milliseconds on a monotonic clock. */
  monotonic(): number;
}

export interface SandboxOptions extends Partial<Faults> {
  /** Default the machine's time. */
  time?: SandboxTime;
  /** 0 (default) = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** API key the sandbox accepts; default SANDBOX_KEY (or the one saved in the state file). */
  key?: string;
  /** null = no webhook (push gives -18010204). */
  webhookUrl?: string | null;
  /** Simulated ms per real ms; default 1. Not persisted: every start chooses its own. */
  speed?: number;
  /** Simulated start time (ms since the epoch) of a sandbox without saved state; default now. */
  start?: number;
  /**
   * When resuming from a state file: the time the emulator was down is added to simulated time multiplied
   * by this factor (default 0: simulated time stands still while down), at most `catchUpMaxMs`.
   */
  catchUp?: number;
  catchUpMaxMs?: number;
  /**
   * Persist account and clock here; undefined = memory only. The file's lock (@trk/sandbox/state-lock.ts) is held
   * while the sandbox runs: another `sandbox start` on it is refused; an embedded one is waited for.
   */
  stateFile?: string;
  /** The state file's lock, already taken by the caller (the embedded emulator); released on close. */
  stateLock?: StateLock;
  /** Status lines while waiting for the state file's lock. */
  onWait?: (line: string) => void;
  /** Aborts waiting for the state file's lock. */
  signal?: AbortSignal;
  /** Requests per second per key; default 3; 0 = no limit. */
  rateLimit?: number;
  quotaTotal?: number;
  maxTrackDaily?: number;
  ipAllowList?: string[];
  disabled?: boolean;
  realtimeAllowed?: boolean;
  /** Real ms between account ticks; default 1000. */
  tickMs?: number;
  /** Seed of the fault generator, for replayable rehearsals. */
  seed?: number;
  /**
   * Only the spec's exact paths, in each version's casing (see routes.ts). Default false: duplicate slashes and a
   * trailing slash are ignored, operation names match in any letter case.
   */
  strictPaths?: boolean;
  /**
   * days_after_order 0 instead of the spec's `--` for numbers without a result, for clients whose typed
   * decoders cannot take a string there. Default false (spec-literal). Not persisted.
   */
  numericMetrics?: boolean;
  /** Sends a webhook; default an HTTP POST (undici), 0 on network failure or timeout. */
  deliver?: (delivery: WebhookDelivery) => Promise<number>;
  /** Errors of background work (state saves, ticks, the account); default ignored. */
  onError?: (err: unknown) => void;
  /** Called when a request is answered (or its answer dropped), control endpoints excepted: `--log`. */
  onRequest?: (log: SandboxRequestLog) => void;
}

export interface SandboxState {
  /** Simulated time. */
  time: string;
  timeMs: number;
  speed: number;
  rateLimit: number;
  url: string;
  stateFile: string | null;
  /** Account settings without the key. */
  settings: Omit<AccountSettings, 'key'>;
  faults: Faults;
  requests: RequestStats;
  account: Record<string, unknown>;
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:41234 (clients append /track/v2/...). */
  url: string;
  key: string;
  port: number;
  clock: SimClock;
  account: Account;
  /** Change faults from now on; returns the whole setting. */
  setFaults(partial: Partial<Faults>): Faults;
  /** Change console settings, speed or rate limit (validated as the control endpoint does). */
  setSettings(patch: SettingsPatch): void;
  /** Move simulated time forward and let the account process what fell due (webhooks included). */
  advance(ms: number): Promise<void>;
  /** What GET /__sandbox/state answers. */
  state(): SandboxState;
  close(): Promise<void>;
}
