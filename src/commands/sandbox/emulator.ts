// The run of `trk sandbox start` and `trk sandbox reset`: the service emulator as a foreground process for tests, CI
// and rehearsals (the way stripe-mock is run), and a way to forget what it holds.

import { stateDir } from '../../config/paths.js';
import type { Context } from '../../context/context.js';
import { TrkError, UsageError } from '../../core/errors.js';
import type { SandboxOptions } from '../../sandbox/index.js';
import { refuseOwnFile } from '../../config/own-files.js';
import { LIMITS } from '../../service/vocabulary.js';

export interface SandboxStartOptions {
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
  /** State file; false = memory only (`--no-state`); default `<state dir>/sandbox.json`. */
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

export interface SandboxResetOptions {
  /** State file; default `<state dir>/sandbox.json`. */
  state?: string;
}

/** Turn the command's options into the emulator's, refusing impossible values as usage errors. */
export async function sandboxOptions(opts: SandboxStartOptions, env: NodeJS.ProcessEnv): Promise<SandboxOptions> {
  const out: SandboxOptions = {};
  const whole = (flag: string, v: number | undefined, min = 0): number | undefined => {
    if (v === undefined) return undefined;
    if (!Number.isInteger(v) || v < min) throw new UsageError(`--${flag} must be a whole number >= ${min}`);
    return v;
  };
  const share = (flag: string, v: number | undefined): number | undefined => {
    if (v === undefined) return undefined;
    if (!(v >= 0 && v <= 1)) throw new UsageError(`--${flag} must be a number from 0 to 1`);
    return v;
  };
  const set = <K extends keyof SandboxOptions>(k: K, v: SandboxOptions[K] | undefined): void => {
    if (v !== undefined) out[k] = v;
  };

  const port = whole('port', opts.port);
  if (port !== undefined && port > 65535) throw new UsageError('--port must be at most 65535');
  set('port', port);
  set('host', opts.host);
  if (opts.key !== undefined && (opts.key.trim() === '' || /[\r\n]/.test(opts.key))) {
    throw new UsageError('--key must be a non-empty string on one line');
  }
  set('key', opts.key);
  if (opts.webhook !== undefined) {
    const { checkWebhookUrl } = await import('../../sandbox/index.js');
    try {
      out.webhookUrl = checkWebhookUrl(opts.webhook);
    } catch (err) {
      throw new UsageError(`--webhook: ${(err as Error).message}`);
    }
  }
  if (opts.speed !== undefined && !(Number.isFinite(opts.speed) && opts.speed >= 0)) {
    throw new UsageError('--speed must be a number >= 0', 'e.g. --speed 3600 for one simulated hour per second');
  }
  set('speed', opts.speed);
  if (opts.state !== false) {
    const { sandboxStateFile } = await import('../../sandbox/index.js');
    // Never one of trk's own files, but the sandbox's.
    if (opts.state !== undefined) await refuseOwnState(opts.state, env);
    out.stateFile = opts.state ?? sandboxStateFile(stateDir(env));
  }
  if (opts.start !== undefined) {
    const start = Date.parse(opts.start);
    if (!Number.isFinite(start))
      throw new UsageError(`--start "${opts.start}" is not a time`, 'e.g. --start 2026-06-01T00:00:00Z');
    out.start = start;
  }
  set('latencyMs', whole('latency', opts.latency));
  set('jitterMs', whole('jitter', opts.jitter));
  set('failureRate', share('failure-rate', opts.failureRate));
  set('dropRate', share('drop-rate', opts.dropRate));
  set('burst429', whole('burst-429', opts.burst429));
  set('burst429EveryMs', whole('burst-every', opts.burstEvery));
  set('burst429ForMs', whole('burst-for', opts.burstFor));
  set('retryAfter', opts.retryAfter);
  const overlap = whole('page-overlap', opts.pageOverlap);
  if (overlap !== undefined && overlap >= LIMITS.pageSize) {
    throw new UsageError(`--page-overlap must be less than a page (${LIMITS.pageSize} records)`);
  }
  set('pageOverlap', overlap);
  set('rateLimit', whole('rate-limit', opts.rateLimit));
  set('quotaTotal', whole('quota', opts.quota));
  set('maxTrackDaily', whole('daily-cap', opts.dailyCap));
  if (opts.ipAllow !== undefined) {
    const { ipMatcher } = await import('../../sandbox/index.js');
    try {
      ipMatcher(opts.ipAllow);
    } catch (err) {
      throw new UsageError(`--ip-allow: ${(err as Error).message}`);
    }
    out.ipAllowList = opts.ipAllow;
  }
  set('disabled', opts.disabled);
  set('realtimeAllowed', opts.realtime);
  set('tickMs', whole('tick', opts.tick, 1));
  set('seed', whole('seed', opts.seed));
  set('numericMetrics', opts.numericMetrics);
  set('strictPaths', opts.strictPaths);
  return out;
}

/**
 * Runs until Ctrl-C (or SIGTERM): prints the base URL and key on stdout (data: the sandbox's own key, not
 * a secret), status on stderr, and saves the state on the way out.
 */
export async function runSandboxStart(opts: SandboxStartOptions, ctx: Context): Promise<void> {
  const options = await sandboxOptions(opts, ctx.env);
  const { formatRequestLine, startSandbox } = await import('../../sandbox/index.js');
  const sandbox = await startSandbox({
    ...options,
    onError: (err) => ctx.io.err(`trk: sandbox: ${err instanceof Error ? err.message : String(err)}`),
    // One line per request: with --log always (what a rehearsed script did), else with --verbose.
    onRequest: (r) => (opts.log ? ctx.io.err(formatRequestLine(r)) : ctx.debug(formatRequestLine(r))),
    // A --sandbox command may be using the state file: this one starts once it is done.
    onWait: (line) => ctx.info(line),
    signal: ctx.signal,
  });

  // The emulator serves the carrier and country lists too: TRK_RES_URL points trk's lookups (`--carrier "China
  // Post"`, `trk carriers`) at it rather than at the real list host.
  if (ctx.global.output === 'json' || ctx.global.output === 'ndjson') {
    ctx.io.out(`${JSON.stringify({ url: sandbox.url, key: sandbox.key, res_url: sandbox.url })}\n`);
  } else {
    // Shell-friendly: `trk sandbox start > sandbox.env &` then `set -a; . ./sandbox.env; set +a` (plain
    // NAME=value lines, as env files take them; `set -a` exports them to the commands the shell runs).
    ctx.io.out(`TRK_BASE_URL=${sandbox.url}\nTRK_API_KEY=${sandbox.key}\nTRK_RES_URL=${sandbox.url}\n`);
  }
  const speed = sandbox.clock.speed === 1 ? 'real time' : `×${sandbox.clock.speed}`;
  ctx.info(
    `sandbox listening on ${sandbox.url} (simulated time ${new Date(sandbox.clock.now()).toISOString()}, ${speed})`,
  );
  ctx.info(options.stateFile === undefined ? 'state kept in memory only' : `state file ${options.stateFile}`);
  ctx.info(`control: ${sandbox.url}/__sandbox/state; stop with Ctrl-C`);

  await stopRequested(ctx.signal);
  ctx.info('stopping the sandbox…');
  await sandbox.close();
  ctx.info(
    options.stateFile === undefined ? 'sandbox stopped' : `sandbox stopped; state saved to ${options.stateFile}`,
  );
}

/** Resolves on Ctrl-C (the context's signal) or SIGTERM (CI stopping a background sandbox). */
function stopRequested(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      signal.removeEventListener('abort', done);
      process.off('SIGTERM', done);
      resolve();
    };
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', done, { once: true });
    process.once('SIGTERM', done);
  });
}

/** Forget every number, the quota used and the simulated clock: the next start is a fresh account. */
export async function runSandboxReset(opts: SandboxResetOptions, ctx: Context): Promise<void> {
  const { currentStateHolder, removeStateFile, sandboxStateFile } = await import('../../sandbox/index.js');
  // The reset removes the file: never one of trk's own, but the sandbox's.
  if (opts.state !== undefined) await refuseOwnState(opts.state, ctx.env);
  const path = opts.state ?? sandboxStateFile(stateDir(ctx.env));
  // A running sandbox would write its state back on its next save: the reset would not hold.
  const holder = await currentStateHolder(path);
  if (holder) {
    const who =
      holder.kind === 'server'
        ? `a sandbox server${holder.url === null ? '' : ` at ${holder.url}`}`
        : 'a trk --sandbox command';
    throw new TrkError(`${who} (pid ${holder.pid}) is using ${path}`, {
      hint:
        holder.kind === 'server'
          ? 'stop it first, or reset it while it runs: POST /__sandbox/reset'
          : 'run the reset again once that command is done',
    });
  }
  const removed = await removeStateFile(path);
  ctx.info(removed ? `sandbox reset: removed ${path}` : `sandbox reset: no state at ${path}, nothing to do`);
}

/** A --state FILE that is one of trk's own files, but the sandbox's state, is refused (src/config/own-files.ts). */
async function refuseOwnState(file: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { sandboxStateFile } = await import('../../sandbox/index.js');
  refuseOwnFile(file, env, '--state', [sandboxStateFile(stateDir(env))]);
}
