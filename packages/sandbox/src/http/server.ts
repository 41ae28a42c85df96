// The emulator's HTTP server (node:http, no framework), as a pipeline of named steps, each a module of its own:
//   - state restore (restore.ts): clock, console settings and account from the state file, or fresh;
//   - ticks (ticker.ts): the account processes what fell due, from a timer and after every clock jump;
//   - request log (request-log.ts): one entry per request but the control ones, for --log and /__sandbox/requests;
//   - API pipeline (api-pipeline.ts): routing, authentication, rate limit, injected faults, the account's answer;
//   - reference lists (res-url.ts): the res URL's two files;
//   - control endpoints (control.ts): /__sandbox/ state, advance, faults, settings, reset, requests.
// This module wires them into one Sandbox: it sends each request to its step, listens, and closes in order.
// Everything a request body means is the account's business (@trk/sandbox/account/). With a state file, its lock
// (@trk/sandbox/state-lock.ts) is held from before the file is read until after the last save.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SandboxError, SandboxInterruptedError } from '../errors.js';
import type { Account } from '../account/account.js';
import type { SimClock } from '../clock.js';
import { applyAccountSettings, DEFAULT_RATE_LIMIT, parseSettingsPatch, type SettingsPatch } from '../settings.js';
import { acquireStateLock, type StateLock } from '../state-lock.js';
import type { StateSaver } from '../state-file.js';
import { ApiPipeline, INTERNAL_ERROR, MAX_BODY_BYTES } from './api-pipeline.js';
import { type ControlTarget, controlHandler } from './control.js';
import { type Faults, FaultInjector, parseFaults } from './faults.js';
import { RateLimiter } from './rate-limit.js';
import { RequestRecorder } from './request-log.js';
import { isReferenceListRequest, serveReferenceList } from './res-url.js';
import { type Restored, restoreState } from './restore.js';
import { normalisePath } from './routes.js';
import { RequestCounters } from './stats.js';
import { Ticker } from './ticker.js';
import type { RunningSandbox, SandboxOptions, SandboxState } from './types.js';
import type { WebhookSender } from './webhook-sender.js';
import { ClientGone, httpError, sendJson, urlHost } from './wire.js';

export type { SandboxRequestLog } from './request-log.js';
export type { RequestStats } from './stats.js';
export type { RunningSandbox, SandboxOptions, SandboxState } from './types.js';
export { SANDBOX_KEY } from '../settings.js';
export { MAX_BODY_BYTES } from './api-pipeline.js';

export const DEFAULT_TICK_MS = 1000;

/** Waiting this long for a state file's lock is worth a status line. */
export const LOCK_NOTICE_MS = 1000;

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const lock = opts.stateLock ?? (opts.stateFile === undefined ? undefined : await serverLock(opts.stateFile, opts));
  try {
    const sandbox = new Sandbox(opts, await restoreState(opts), lock);
    await sandbox.start();
    return sandbox;
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

/** The lock of `sandbox start`: refused while another server holds it, waited for while a --sandbox command does. */
async function serverLock(stateFile: string, opts: SandboxOptions): Promise<StateLock> {
  let told = false;
  try {
    const lock = await acquireStateLock(stateFile, 'server', {
      busy: (holder, waitedMs) => {
        if (holder.kind === 'server') {
          const where = holder.url === null ? '' : ` at ${holder.url}`;
          throw new SandboxError(`another sandbox is running on ${stateFile}${where} (pid ${holder.pid})`, {
            hint: 'use that one, stop it first, or give this one another --state file (or --no-state)',
          });
        }
        if (!told && waitedMs >= LOCK_NOTICE_MS) {
          told = true;
          opts.onWait?.(`waiting for a trk --sandbox command (pid ${holder.pid}) to finish with ${stateFile}…`);
        }
        return 'wait';
      },
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    });
    // This busy decision never says stop.
    return lock as StateLock;
  } catch (err) {
    if (opts.signal?.aborted) throw new SandboxInterruptedError(`interrupted while waiting for ${stateFile}`);
    throw err;
  }
}

/** A running emulator: the parts of the pipeline, the HTTP server in front of them, and its lifecycle. */
class Sandbox implements RunningSandbox {
  url = '';
  port = 0;
  readonly clock: SimClock;
  readonly account: Account;
  readonly #opts: SandboxOptions;
  readonly #lock: StateLock | undefined;
  readonly #saver: StateSaver | undefined;
  readonly #deliveries: WebhookSender;
  readonly #limiter: RateLimiter;
  readonly #injector: FaultInjector;
  readonly #counters = new RequestCounters();
  readonly #recorder: RequestRecorder;
  readonly #ticker: Ticker;
  readonly #api: ApiPipeline;
  readonly #control: ReturnType<typeof controlHandler>;
  readonly #http: Server;
  #closing: Promise<void> | undefined;

  constructor(opts: SandboxOptions, restored: Restored, lock: StateLock | undefined) {
    this.#opts = opts;
    this.#lock = lock;
    ({ clock: this.clock, account: this.account, saver: this.#saver, deliveries: this.#deliveries } = restored);
    const time = opts.time;
    const monotonic = time ? () => time.monotonic() : undefined;
    this.#limiter = new RateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT, monotonic);
    const seed = opts.seed === undefined ? {} : { seed: opts.seed };
    this.#injector = new FaultInjector(parseFaults(faultOptions(opts)), {
      ...seed,
      ...(monotonic ? { now: monotonic } : {}),
    });
    this.#recorder = new RequestRecorder(() => this.clock.now(), opts.onRequest);
    const saver = this.#saver;
    this.#ticker = new Ticker(this.account, saver && (() => saver.changed()), this.#onError);
    this.#api = new ApiPipeline({
      account: this.account,
      injector: this.#injector,
      limiter: this.#limiter,
      counters: this.#counters,
      recorder: this.#recorder,
      strictPaths: opts.strictPaths ?? false,
      changed: () => this.#saver?.changed(),
      onError: this.#onError,
    });
    this.#control = controlHandler(this.#controlTarget(), MAX_BODY_BYTES);
    this.#http = createServer((req, res) => this.#serve(req, res));
    // Longer than clients keep idle connections (undici: 4 s), so that a reused connection is never one
    // the server is closing at that moment.
    this.#http.keepAliveTimeout = 30_000;
    this.#http.headersTimeout = 35_000;
  }

  get key(): string {
    return this.account.settings.key;
  }

  /** Start ticking, listen, and publish the URL in the state file's lock. */
  async start(): Promise<void> {
    this.#ticker.start(this.#opts.tickMs ?? DEFAULT_TICK_MS);
    // Work that fell due while the sandbox was down (or caught up on resume) is processed before the
    // first request is read: the tick's synchronous part runs in this turn of the event loop.
    void this.#ticker.tick();
    try {
      await this.#listen();
      await this.#lock?.publish(this.url, this.key);
    } catch (err) {
      this.#http.close();
      this.#ticker.stop();
      throw err;
    }
    this.#http.on('error', this.#onError);
    // A fresh sandbox is saved at once, so that the state file exists as soon as the sandbox runs.
    this.#saver?.changed();
  }

  setFaults(partial: Partial<Faults>): Faults {
    return this.#injector.set(parseFaults(partial));
  }

  setSettings(patch: SettingsPatch): void {
    const checked = parseSettingsPatch(patch);
    if (checked.speed !== undefined) this.clock.speed = checked.speed;
    if (checked.rateLimit !== undefined) this.#limiter.perSecond = checked.rateLimit;
    applyAccountSettings(this.account.settings, checked);
    this.#saver?.changed();
    // --sandbox commands find the key in the lock.
    if (checked.key !== undefined && this.url !== '') this.#lock?.publish(this.url, this.key).catch(this.#onError);
  }

  async advance(ms: number): Promise<void> {
    this.clock.advance(ms);
    await this.#ticker.tick();
  }

  state(): SandboxState {
    const { key: _key, ...visible } = this.account.settings;
    const now = this.clock.now();
    return {
      time: new Date(now).toISOString(),
      timeMs: now,
      speed: this.clock.speed,
      rateLimit: this.#limiter.perSecond,
      url: this.url,
      stateFile: this.#opts.stateFile ?? null,
      settings: { ...visible, ipAllowList: [...visible.ipAllowList] },
      faults: this.#injector.faults,
      requests: this.#counters.snapshot(),
      account: this.account.stats(),
    };
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  readonly #onError = (err: unknown): void => {
    (this.#opts.onError ?? (() => {}))(err);
  };

  /** Records, queue and counters go; console settings, clock and faults stay. */
  #reset(): void {
    const kept = { ...this.account.settings, ipAllowList: [...this.account.settings.ipAllowList] };
    this.account.reset();
    applyAccountSettings(this.account.settings, kept);
    this.#counters.reset();
    this.#recorder.clear();
    this.#limiter.reset();
    this.#saver?.changed();
  }

  #controlTarget(): ControlTarget {
    return {
      state: () => this.state(),
      now: () => this.clock.now(),
      advance: (ms) => this.advance(ms),
      setFaults: (input) => this.setFaults(input as Partial<Faults>),
      setSettings: (input) => this.setSettings(input as SettingsPatch),
      reset: () => this.#reset(),
      requests: () => ({ requests: this.#recorder.entries() }),
    };
  }

  /** Each request to its step: control endpoints, the res URL's lists, else the API pipeline (logged). */
  #serve(req: IncomingMessage, res: ServerResponse): void {
    // Its own time, as any server says it: the simulated clock (clients take ages from it).
    res.setHeader('Date', new Date(this.clock.now()).toUTCString());
    const requested = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const path = this.#opts.strictPaths ? requested : normalisePath(requested);
    let handled: Promise<void>;
    if (path === '/__sandbox' || path.startsWith('/__sandbox/')) handled = this.#control(req, res, path);
    else {
      this.#recorder.begin(req, res, requested);
      handled = isReferenceListRequest(req.method, path)
        ? serveReferenceList(req, res, path, MAX_BODY_BYTES)
        : this.#api.handle(req, res, path);
    }
    handled.catch((err: unknown) => {
      if (err instanceof ClientGone) return;
      this.#onError(err);
      if (!res.headersSent) sendJson(res, 500, httpError(500, INTERNAL_ERROR, 'Internal error, please retry later.'));
      else res.destroy();
    });
  }

  async #listen(): Promise<void> {
    const host = this.#opts.host ?? '127.0.0.1';
    const port = this.#opts.port ?? 0;
    try {
      await new Promise<void>((resolve, reject) => {
        this.#http.once('error', reject);
        this.#http.listen(port, host, () => {
          this.#http.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new SandboxError(`the sandbox cannot listen on ${host}:${port}: ${code ?? String(err)}`, {
        ...(code === 'EADDRINUSE' ? { hint: 'choose another --port, or 0 for a free one' } : {}),
        cause: err,
      });
    }
    this.port = (this.#http.address() as AddressInfo).port;
    this.url = `http://${urlHost(host)}:${this.port}`;
  }

  async #close(): Promise<void> {
    this.#ticker.stop();
    const closed = new Promise<void>((resolve) => this.#http.close(() => resolve()));
    this.#http.closeIdleConnections();
    // Requests in flight get a moment to finish; then every connection is cut.
    await Promise.race([closed, sleep(1000, undefined, { ref: false })]);
    this.#http.closeAllConnections();
    await closed;
    // Webhooks being sent get a moment too; those still hanging count as failed pushes (status 0).
    await Promise.race([this.#ticker.idle(), sleep(2000, undefined, { ref: false })]);
    this.#deliveries.abort();
    await this.#ticker.idle();
    await this.#deliveries.close();
    try {
      await this.#saver?.close();
    } finally {
      // Only now may another emulator load the file: everything this one wrote is in it.
      await this.#lock?.release();
    }
  }
}

function faultOptions(opts: SandboxOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of [
    'latencyMs',
    'jitterMs',
    'failureRate',
    'dropRate',
    'burst429',
    'burst429EveryMs',
    'burst429ForMs',
    'retryAfter',
    'pageOverlap',
  ] as const) {
    if (opts[field] !== undefined) out[field] = opts[field];
  }
  return out;
}
