// The emulator's start flags (`trk-sandbox --port 0 --failure-rate 0.1`, `trk sandbox start …`) as its options,
// impossible values refused as usage errors before anything starts. One reading for both commands: each parses
// its command line its own way, then hands the flags here.

import { LIMITS } from '@trk/service/vocabulary.js';
import { SandboxUsageError } from './errors.js';
import { ipMatcher } from './http/ip-allow.js';
import type { SandboxOptions } from './http/types.js';
import { checkWebhookUrl } from './settings.js';

export interface StartFlags {
  /** 0 or absent = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** API key the sandbox accepts; default `sandbox-key`. */
  key?: string;
  /** Webhook URL the account pushes to; '' = none. */
  webhook?: string;
  /** Simulated seconds per real second; default 1. */
  speed?: number;
  /** State file; false = memory only (`--no-state`); absent = the caller's default. */
  state?: string | false;
  /** Simulated start time (ISO) of a sandbox without saved state. */
  start?: string;
  /** Added to every answer, ms. */
  latency?: number;
  /** Random extra delay up to this many ms. */
  jitter?: number;
  /** Share 0..1 of requests answered 500/503 (not processed). */
  failureRate?: number;
  /** Share 0..1 of requests processed whose answer is lost. */
  dropRate?: number;
  /** Answer 429 to the next N requests. */
  burst429?: number;
  /** Periodic 429 bursts: every this many ms... */
  burstEvery?: number;
  /** ...for this many ms. */
  burstFor?: number;
  /** false = 429 answers without Retry-After (`--no-retry-after`). */
  retryAfter?: boolean;
  /** List pages after the first repeat this many records of the page before (less than a page). */
  pageOverlap?: number;
  /** Requests per second per key; default 3; 0 = off. */
  rateLimit?: number;
  /** Total quota of the account. */
  quota?: number;
  /** Daily registration cap (max_track_daily); 0 = none. */
  dailyCap?: number;
  /** IP whitelist entries (addresses or CIDR subnets). */
  ipAllow?: string[];
  /** Answer every request 401 -18010004. */
  disabled?: boolean;
  /** false = real-time queries refused (-18019912) (`--no-realtime`). */
  realtime?: boolean;
  /** Real ms between the account's scheduler runs; default 1000. */
  tick?: number;
  /** Seed of the fault generator, to replay a rehearsal exactly. */
  seed?: number;
  /** days_after_order 0 instead of "--" for numbers without a result. */
  numericMetrics?: boolean;
  /** Only the spec's exact paths (no slash or letter-case leniency). */
  strictPaths?: boolean;
  /** One line per request on stderr. */
  log?: boolean;
}

export interface StartDefaults {
  /** The state file when no --state is given; undefined = memory only. */
  stateFile?: string;
  /** Refuses a --state file the caller will not have overwritten (throws). */
  checkStateFile?: (file: string) => void | Promise<void>;
}

const usage = (message: string, hint?: string) => new SandboxUsageError(message, hint === undefined ? {} : { hint });

function whole(flag: string, v: number | undefined, min = 0): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < min) throw usage(`--${flag} must be a whole number >= ${min}`);
  return v;
}

function share(flag: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!(v >= 0 && v <= 1)) throw usage(`--${flag} must be a number from 0 to 1`);
  return v;
}

/** `check(value)`, its error a usage error of `--flag`. */
function checked<T>(flag: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    throw usage(`--${flag}: ${(err as Error).message}`);
  }
}

/** The emulator's options from its start flags; a SandboxUsageError names an impossible value. */
export async function startOptions(flags: StartFlags, defaults: StartDefaults = {}): Promise<SandboxOptions> {
  const out: SandboxOptions = {};
  const set = <K extends keyof SandboxOptions>(k: K, v: SandboxOptions[K] | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  const port = whole('port', flags.port);
  if (port !== undefined && port > 65535) throw usage('--port must be at most 65535');
  set('port', port);
  set('host', flags.host);
  if (flags.key !== undefined && (flags.key.trim() === '' || /[\r\n]/.test(flags.key))) {
    throw usage('--key must be a non-empty string on one line');
  }
  set('key', flags.key);
  if (flags.webhook !== undefined) out.webhookUrl = checked('webhook', () => checkWebhookUrl(flags.webhook));
  if (flags.speed !== undefined && !(Number.isFinite(flags.speed) && flags.speed >= 0)) {
    throw usage('--speed must be a number >= 0', 'e.g. --speed 3600 for one simulated hour per second');
  }
  set('speed', flags.speed);
  if (flags.state !== false) {
    if (flags.state !== undefined) await defaults.checkStateFile?.(flags.state);
    set('stateFile', flags.state ?? defaults.stateFile);
  }
  if (flags.start !== undefined) {
    const start = Date.parse(flags.start);
    if (!Number.isFinite(start))
      throw usage(`--start "${flags.start}" is not a time`, 'e.g. --start 2026-06-01T00:00:00Z');
    out.start = start;
  }
  set('latencyMs', whole('latency', flags.latency));
  set('jitterMs', whole('jitter', flags.jitter));
  set('failureRate', share('failure-rate', flags.failureRate));
  set('dropRate', share('drop-rate', flags.dropRate));
  set('burst429', whole('burst-429', flags.burst429));
  set('burst429EveryMs', whole('burst-every', flags.burstEvery));
  set('burst429ForMs', whole('burst-for', flags.burstFor));
  set('retryAfter', flags.retryAfter);
  const overlap = whole('page-overlap', flags.pageOverlap);
  if (overlap !== undefined && overlap >= LIMITS.pageSize) {
    throw usage(`--page-overlap must be less than a page (${LIMITS.pageSize} records)`);
  }
  set('pageOverlap', overlap);
  set('rateLimit', whole('rate-limit', flags.rateLimit));
  set('quotaTotal', whole('quota', flags.quota));
  set('maxTrackDaily', whole('daily-cap', flags.dailyCap));
  if (flags.ipAllow !== undefined) {
    const list = flags.ipAllow;
    checked('ip-allow', () => ipMatcher(list));
    out.ipAllowList = list;
  }
  set('disabled', flags.disabled);
  set('realtimeAllowed', flags.realtime);
  set('tickMs', whole('tick', flags.tick, 1));
  set('seed', whole('seed', flags.seed));
  set('numericMetrics', flags.numericMetrics);
  set('strictPaths', flags.strictPaths);
  return out;
}
