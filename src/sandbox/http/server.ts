// The emulator's HTTP transport (node:http, no framework): routing, authentication, the rate limit,
// injected faults, the simulated clock's tick loop, persistence and the /__sandbox/ control endpoints.
// Everything a request body means is the account's business (src/sandbox/account/).
//
// Pipeline of an API request, in order:
//   1. POST /track/{v1|v2|v2.1|v2.2|v2.3|v2.4}/<operation> (routes.ts: lenient by default, exact casing with
//      strictPaths), else 404
//   2. body read (at most 1 MiB, else 413)
//   3. `svctoken` missing or wrong → 401 -18010002; caller outside the whitelist → 401 -18010001;
//      account disabled → 401 -18010004
//   4. injected 429 burst, then the rate limit (admitted requests only) → 429 with Retry-After
//   5. injected failure → 500 or 503; the account never sees the request
//   6. Content-Type not application/json, or a body that is not JSON → 200 with data.errors -18010013
//      (an empty body goes on to the account as no body)
//   7. account.handle(); injected loss: processed, then the socket is destroyed without an answer
// Injected latency delays every answer of steps 1-7. Apart from the pipeline: GET of the res URL's two reference
// lists (/asset/carrier/info/..., src/sandbox/reference-lists.ts) and the /__sandbox/ control endpoints
// (control.ts). Every request but the control ones goes to the request log (request-log.ts). With a state file,
// its lock (src/sandbox/state-lock.ts) is held from before the file is read until after the last save.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { InterruptedError, TrkError } from '../../errors.js';
import { Account } from '../account/account.js';
import { requestError } from '../account/envelope.js';
import type { AccountSettings, AccountState, WebhookDelivery } from '../account/types.js';
import { SimClock } from '../clock.js';
import { type Faults, FaultInjector, parseFaults } from './faults.js';
import { ipMatcher } from './ip-allow.js';
import { RateLimiter } from './rate-limit.js';
import { REFERENCE_LIST_PATHS, referenceListBytes } from '../reference-lists.js';
import {
  applyAccountSettings,
  DEFAULT_RATE_LIMIT,
  defaultAccountSettings,
  parseSettingsPatch,
  settingsFromState,
  type SettingsPatch,
} from '../settings.js';
import { acquireStateLock, type StateLock } from '../state-lock.js';
import { readStateFile, type SandboxStateFile, StateFileError, StateSaver, STATE_FILE_VERSION } from '../state-file.js';
import { WebhookSender } from './webhook-sender.js';
import { controlHandler } from './control.js';
import { itemCount, readOutcome, RequestLog, type SandboxRequestLog } from './request-log.js';
import { normalisePath, routeOf } from './routes.js';

export type { SandboxRequestLog } from './request-log.js';
import { ClientGone, httpError, isJsonContentType, readBody, sendJson, urlHost } from './wire.js';

export { SANDBOX_KEY } from '../settings.js';

export const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_TICK_MS = 1000;

export interface SandboxOptions extends Partial<Faults> {
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
   * Persist account and clock here; undefined = memory only. The file's lock (src/sandbox/state-lock.ts) is held
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


export interface RequestStats {
  /** API requests received (control endpoints not counted). */
  total: number;
  /** Answers by HTTP status. */
  byStatus: Record<string, number>;
  /** Requests the account handled, by `version/operation`. */
  byOperation: Record<string, number>;
  /** Answers lost on purpose (processed, no answer). */
  dropped: number;
  /** 429 from the rate limit itself (the rest of byStatus[429] are injected bursts). */
  rateLimited: number;
  /** Injected faults that fired. */
  injected: { burst429: number; failures: number; drops: number };
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

// Messages in the service's own wording (the 401 -18010002 one is the live service's).
const AUTH_MESSAGES = {
  [-18010002]: 'Access token is invalid.',
  [-18010001]: 'The IP address is not in the whitelist.',
  [-18010004]: 'The account is disabled.',
} as const;

const INTERNAL_ERROR = -18010003;

function emptyStats(): RequestStats {
  return { total: 0, byStatus: {}, byOperation: {}, dropped: 0, rateLimited: 0, injected: { burst429: 0, failures: 0, drops: 0 } };
}

/** Waiting this long for a state file's lock is worth a status line. */
export const LOCK_NOTICE_MS = 1000;

export async function startSandbox(opts: SandboxOptions = {}): Promise<RunningSandbox> {
  const lock = opts.stateLock ?? (opts.stateFile === undefined ? undefined : await serverLock(opts.stateFile, opts));
  try {
    return await startLocked(opts, lock);
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
          throw new TrkError(`another sandbox is running on ${stateFile}${where} (pid ${holder.pid})`, {
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
    if (opts.signal?.aborted) throw new InterruptedError(`interrupted while waiting for ${stateFile}`);
    throw err;
  }
}

async function startLocked(opts: SandboxOptions, lock: StateLock | undefined): Promise<RunningSandbox> {
  const onError = opts.onError ?? (() => {});
  const strict = opts.strictPaths ?? false;
  const saved = opts.stateFile === undefined ? undefined : await readStateFile(opts.stateFile);

  const clock = saved
    ? SimClock.resume(saved.clock, {
        speed: opts.speed ?? 1,
        catchUp: opts.catchUp ?? 0,
        ...(opts.catchUpMaxMs === undefined ? {} : { catchUpMaxMs: opts.catchUpMaxMs }),
      })
    : new SimClock({ speed: opts.speed ?? 1, ...(opts.start === undefined ? {} : { start: opts.start }) });

  // Options given now > settings saved in the state file > defaults.
  const settings = defaultAccountSettings();
  applyAccountSettings(settings, settingsFromState(saved?.settings));
  applyAccountSettings(settings, parseSettingsPatch(optionSettings(opts)));

  const deliveries = new WebhookSender();
  const deliver = opts.deliver ?? ((d: WebhookDelivery) => deliveries.send(d));
  let account: Account;
  try {
    account = new Account(
      { settings, now: () => clock.now(), deliver, numericMetrics: opts.numericMetrics ?? false },
      saved?.account as AccountState | undefined,
    );
  } catch (err) {
    if (saved && opts.stateFile !== undefined) throw new StateFileError(opts.stateFile, 'holds an account this trk cannot read', err);
    throw err;
  }

  const limiter = new RateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT);
  const injector = new FaultInjector(parseFaults(faultOptions(opts)), opts.seed === undefined ? {} : { seed: opts.seed });
  let stats = emptyStats();

  const saver =
    opts.stateFile === undefined
      ? undefined
      : new StateSaver({
          path: opts.stateFile,
          snapshot: (): SandboxStateFile => ({
            version: STATE_FILE_VERSION,
            clock: clock.toJSON(),
            settings: { ...account.settings },
            account: account.toJSON(),
          }),
          onError,
        });

  // ---- ticks: one at a time, in order; the timer skips while one is queued ----
  let tickQueue: Promise<void> = Promise.resolve();
  let ticksPending = 0;
  const tick = (): Promise<void> => {
    ticksPending += 1;
    tickQueue = tickQueue.then(async () => {
      // A tick that changed nothing the statistics show (no run, stop, deletion or delivery) is not
      // worth rewriting a state file of several MB for; close() saves the clock position anyway.
      const before = saver && JSON.stringify(account.stats());
      try {
        await account.tick();
      } catch (err) {
        onError(err);
      } finally {
        ticksPending -= 1;
        if (saver && JSON.stringify(account.stats()) !== before) saver.changed();
      }
    });
    return tickQueue;
  };
  const tickMs = opts.tickMs ?? DEFAULT_TICK_MS;
  const timer = setInterval(() => {
    if (ticksPending === 0) void tick();
  }, tickMs);
  timer.unref();

  // Work that fell due while the sandbox was down (or caught up on resume) is processed before the
  // first request is read: the tick's synchronous part runs in this turn of the event loop.
  void tick();

  const advance = async (ms: number): Promise<void> => {
    clock.advance(ms);
    await tick();
  };

  let url = '';
  const state = (): SandboxState => {
    const { key: _key, ...visible } = account.settings;
    const now = clock.now();
    return {
      time: new Date(now).toISOString(),
      timeMs: now,
      speed: clock.speed,
      rateLimit: limiter.perSecond,
      url,
      stateFile: opts.stateFile ?? null,
      settings: { ...visible, ipAllowList: [...visible.ipAllowList] },
      faults: injector.faults,
      requests: structuredClone(stats),
      account: account.stats(),
    };
  };

  const setSettings = (patch: SettingsPatch): void => {
    if (patch.speed !== undefined) clock.speed = patch.speed;
    if (patch.rateLimit !== undefined) limiter.perSecond = patch.rateLimit;
    applyAccountSettings(account.settings, patch);
    saver?.changed();
    // --sandbox commands find the key in the lock.
    if (patch.key !== undefined && url !== '') lock?.publish(url, account.settings.key).catch(onError);
  };

  // ---- the request log ----
  const requestLog = new RequestLog();
  /** The log entry of each request being answered. */
  const logOf = new WeakMap<ServerResponse, SandboxRequestLog>();
  const injected = (res: ServerResponse, fault: string): void => {
    logOf.get(res)?.faults.push(fault);
  };
  /** The injected latency, waited and logged. */
  const latency = async (res: ServerResponse): Promise<void> => {
    const delay = injector.delay();
    if (delay <= 0) return;
    injected(res, `latency ${Math.round(delay)} ms`);
    await sleep(delay);
  };

  // ---- answers ----
  const count = (status: number): void => {
    stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
  };
  const send = sendJson;
  /** An API answer: counted and logged, after the injected latency. */
  const answer = async (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<void> => {
    await latency(res);
    count(status);
    const entry = logOf.get(res);
    if (entry) readOutcome(entry, body);
    send(res, status, body, headers);
  };
  const tooMany = (res: ServerResponse, retryAfterMs: number, message: string): Promise<void> => {
    const headers: Record<string, string> = injector.faults.retryAfter
      ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) }
      : {};
    // The service has no error code for this; the HTTP status stands in, as `code` does for 401.
    return answer(res, 429, httpError(429, 429, message), headers);
  };

  // ---- API requests ----
  const handleApi = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    stats.total += 1;
    const route = req.method === 'POST' ? routeOf(path, strict) : undefined;
    const entry = logOf.get(res);
    if (entry && route) {
      entry.version = route.served;
      entry.operation = route.op;
    }
    // Read in full even when the answer is already known, so that the connection can serve the next one.
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!route) {
      await answer(res, 404, httpError(404, 404, 'Not found.'));
      return;
    }
    if (body === undefined) {
      await answer(res, 413, httpError(413, -18010013, `Request body larger than ${MAX_BODY_BYTES} bytes.`));
      return;
    }

    const s = account.settings;
    const token = req.headers.svctoken;
    let authCode: keyof typeof AUTH_MESSAGES | undefined;
    if (typeof token !== 'string' || token !== s.key) authCode = -18010002;
    else if (!ipAllowed(s.ipAllowList, req.socket.remoteAddress ?? '')) authCode = -18010001;
    else if (s.disabled) authCode = -18010004;
    if (authCode !== undefined) {
      await answer(res, 401, httpError(401, authCode, AUTH_MESSAGES[authCode]));
      return;
    }

    const burst = injector.burst();
    if (burst !== undefined) {
      stats.injected.burst429 += 1;
      injected(res, 'burst 429');
      await tooMany(res, burst, 'Too many requests.');
      return;
    }
    const rate = limiter.take(s.key);
    if (!rate.ok) {
      stats.rateLimited += 1;
      await tooMany(res, rate.retryAfterMs, `Too many requests: at most ${limiter.perSecond} per second.`);
      return;
    }
    const failure = injector.failure();
    if (failure !== undefined) {
      stats.injected.failures += 1;
      injected(res, `failure ${failure}`);
      const message = failure === 503 ? 'Service temporarily unavailable.' : 'Internal error, please retry later.';
      await answer(res, failure, httpError(failure, INTERNAL_ERROR, message));
      return;
    }

    // Spec: "Content-Type must be application/json". Refused like any malformed request: answered, not
    // processed, so that a client that forgets the header finds out against the sandbox.
    if (!isJsonContentType(req.headers['content-type'])) {
      await answer(res, 200, requestError(-18010013));
      return;
    }
    // No body at all is handed on as such: whether an operation needs one is the account's call
    // (getquota takes none).
    const text = body.toString('utf8');
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      await answer(res, 200, requestError(-18010013));
      return;
    }
    if (entry) entry.items = itemCount(parsed);

    let envelope: Record<string, unknown>;
    try {
      envelope = account.handle(route.served, route.op, parsed);
    } catch (err) {
      onError(err);
      await answer(res, 500, httpError(500, INTERNAL_ERROR, 'Internal error, please retry later.'));
      return;
    }
    const opKey = `${route.served}/${route.op}`;
    stats.byOperation[opKey] = (stats.byOperation[opKey] ?? 0) + 1;
    // Reads change state too: the account brings due tracking runs up to date before answering.
    saver?.changed();

    if (injector.drop()) {
      stats.injected.drops += 1;
      stats.dropped += 1;
      injected(res, 'drop');
      const entry = logOf.get(res);
      if (entry) readOutcome(entry, envelope);
      await latency(res);
      // The work is done and stays done; only the answer is lost, as when a connection breaks.
      req.socket.destroy();
      return;
    }
    await answer(res, 200, envelope);
  };

  // ---- reference lists ----
  // The res URL's two files, so that `--res-url` can point at the sandbox: the service's lists as shipped, byte
  // for byte. A res URL is a static host apart from the API: no key, and none of the API's rate limit, faults or
  // request counts apply.
  const handleReferenceList = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const name = REFERENCE_LIST_PATHS.get(path);
    if (name === undefined) throw new Error(`not a reference list path: ${path}`);
    await readBody(req, MAX_BODY_BYTES);
    const body = referenceListBytes(name);
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  // ---- control endpoints ----
  const handleControl = controlHandler(
    {
      state,
      now: () => clock.now(),
      advance,
      setFaults: (input) => injector.set(parseFaults(input)),
      setSettings: (input) => setSettings(parseSettingsPatch(input)),
      reset: () => {
        // Records, queue and counters go; console settings, clock and faults stay.
        const kept = { ...account.settings, ipAllowList: [...account.settings.ipAllowList] };
        account.reset();
        applyAccountSettings(account.settings, kept);
        stats = emptyStats();
        requestLog.clear();
        limiter.reset();
        saver?.changed();
      },
      requests: () => ({ requests: requestLog.entries() }),
    },
    MAX_BODY_BYTES,
  );

  const server: Server = createServer((req, res) => {
    const requested = (req.url ?? '/').split('?', 1)[0] ?? '/';
    const path = strict ? requested : normalisePath(requested);
    const isControl = path === '/__sandbox' || path.startsWith('/__sandbox/');
    const isList = (req.method === 'GET' || req.method === 'HEAD') && REFERENCE_LIST_PATHS.has(path);
    const handler = isControl ? handleControl : isList ? handleReferenceList : handleApi;
    if (!isControl) {
      const started = performance.now();
      const entry: SandboxRequestLog = {
        seq: requestLog.nextSeq(),
        time: new Date(clock.now()).toISOString(),
        method: req.method ?? '',
        path: requested,
        version: null,
        operation: null,
        items: 0,
        status: 'dropped',
        code: null,
        accepted: null,
        rejected: null,
        rejectedCodes: {},
        faults: [],
        ms: 0,
      };
      logOf.set(res, entry);
      res.once('close', () => {
        entry.status = res.writableFinished ? res.statusCode : 'dropped';
        entry.ms = Math.round(performance.now() - started);
        requestLog.add(entry);
        opts.onRequest?.(entry);
      });
    }
    handler(req, res, path).catch((err: unknown) => {
      if (err instanceof ClientGone) return;
      onError(err);
      if (!res.headersSent) send(res, 500, httpError(500, INTERNAL_ERROR, 'Internal error, please retry later.'));
      else res.destroy();
    });
  });
  // Longer than clients keep idle connections (undici: 4 s), so that a reused connection is never one
  // the server is closing at that moment.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;

  const host = opts.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    clearInterval(timer);
    const code = (err as NodeJS.ErrnoException).code;
    throw new TrkError(`the sandbox cannot listen on ${host}:${opts.port ?? 0}: ${code ?? String(err)}`, {
      ...(code === 'EADDRINUSE' ? { hint: 'choose another --port, or 0 for a free one' } : {}),
      cause: err,
    });
  }
  server.on('error', onError);
  const port = (server.address() as AddressInfo).port;
  url = `http://${urlHost(host)}:${port}`;
  try {
    await lock?.publish(url, account.settings.key);
  } catch (err) {
    server.close();
    clearInterval(timer);
    throw err;
  }
  // A fresh sandbox is saved at once, so that the state file exists as soon as the sandbox runs.
  saver?.changed();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      clearInterval(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests in flight get a moment to finish; then every connection is cut.
      await Promise.race([closed, sleep(1000, undefined, { ref: false })]);
      server.closeAllConnections();
      await closed;
      // Webhooks being sent get a moment too; those still hanging count as failed pushes (status 0).
      await Promise.race([tickQueue, sleep(2000, undefined, { ref: false })]);
      deliveries.abort();
      await tickQueue;
      await deliveries.close();
      try {
        await saver?.close();
      } finally {
        // Only now may another emulator load the file: everything this one wrote is in it.
        await lock?.release();
      }
    })();
    return closing;
  };

  return {
    url,
    get key() {
      return account.settings.key;
    },
    port,
    clock,
    account,
    setFaults: (partial) => injector.set(parseFaults(partial)),
    setSettings: (patch) => setSettings(parseSettingsPatch(patch)),
    advance,
    state,
    close,
  };
}

/** Console settings among the start options, for the one validator. */
function optionSettings(opts: SandboxOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of ['key', 'webhookUrl', 'quotaTotal', 'maxTrackDaily', 'ipAllowList', 'disabled', 'realtimeAllowed'] as const) {
    if (opts[field] !== undefined) out[field] = opts[field];
  }
  return out;
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
  ] as const) {
    if (opts[field] !== undefined) out[field] = opts[field];
  }
  return out;
}

let matcherCache: { joined: string; match: (a: string) => boolean } | undefined;

function ipAllowed(list: readonly string[], address: string): boolean {
  if (list.length === 0) return true;
  const joined = list.join(',');
  if (!matcherCache || matcherCache.joined !== joined) matcherCache = { joined, match: ipMatcher(list) };
  return matcherCache.match(address);
}

