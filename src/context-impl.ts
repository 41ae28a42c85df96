// The one Context a command run receives. Nothing is built until asked for: settings read the profile file
// on first use, api() builds the HTTP client (and starts the embedded emulator for --sandbox) on first use,
// so `trk help exit-codes` or a usage error never opens a file or a socket.

import type { ApiClient, ApiClientOptions } from './api/client.js';
import type { HoldListener, Pacer, WaitReason } from './pacing/pacer.js';
import { LIMITS, type ApiVersion } from './service/vocabulary.js';
import { debugEnabled } from './debug.js';
import type { Settings } from './config/settings.js';
import { requestTimeoutMs } from './config/timeout.js';
import type { BudgetTarget, Context, GlobalOptions, Prompter, SettingsOptions, WaitDisplay } from './context.js';
import type { IO } from './io.js';
import { addSecret } from './secrets.js';
import { sanitizeTerminalText } from './terminal-text.js';

export interface ContextOptions {
  io: IO;
  env: NodeJS.ProcessEnv;
  global: GlobalOptions;
  now?: () => number;
  /** Aborted on Ctrl-C; default a signal nobody aborts. */
  signal?: AbortSignal;
}

const WAIT_WORDS: Readonly<Record<WaitReason, string>> = {
  'rate-limited': 'rate limited by the service',
  unavailable: 'service unavailable',
  network: 'network error',
};

/** `60 s`: whole seconds, at least 1, for waits announced to people. */
function seconds(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}

/** A wait, shown where the command shows it (a progress line), else as a status line. */
type WaitShower = (reason: WaitReason, ms: number, verb: 'resuming' | 'retrying') => void;

/** What a pacer says when a start first waits for a hold: once per hold, never per request. */
function holdNotice(show: WaitShower): HoldListener {
  return (ms, reason) => show(reason, ms, 'resuming');
}

/** Client callbacks: each request logged for --verbose (never the key, which the log does not carry), waits shown. */
function requestHooks(debug: (line: string) => void, show: WaitShower): Pick<ApiClientOptions, 'onRequest' | 'onWait'> {
  return {
    onRequest: (log) => {
      const attempt = log.attempt > 1 ? ` (attempt ${log.attempt})` : '';
      const note = log.note ? `: ${log.note}` : '';
      const items = `${log.items} item${log.items === 1 ? '' : 's'}`;
      debug(`request ${log.operation} ${log.status} ${Math.round(log.ms)} ms ${items}${attempt}${note}`);
    },
    onWait: (reason, delayMs) => show(reason, delayMs, 'retrying'),
  };
}

/** What every client of a command run shares: the time limit (--timeout, TRK_TIMEOUT) and the callbacks. */
/** Waits as status lines: `service unavailable, retrying in 2 s`. */
function waitLines(info: (line: string) => void): WaitShower {
  return (reason, ms, verb) => info(`${WAIT_WORDS[reason]}, ${verb} in ${seconds(ms)}`);
}

export function requestOptions(ctx: Pick<Context, 'env' | 'global' | 'debug' | 'info'>): Pick<ApiClientOptions, 'timeoutMs' | 'onRequest' | 'onWait'> {
  return { timeoutMs: requestTimeoutMs(ctx.global.timeout, ctx.env), ...requestHooks(ctx.debug, waitLines(ctx.info)) };
}

/**
 * The service's clock counts (for ages: "3h ago", "last update 2 days ago") when it is this far from the machine's
 * or more: a sandbox whose simulated time runs ahead, or a machine clock set wrong. Below it, the Date header's
 * whole seconds and the time the answer took are noise, and the machine's clock is the finer one.
 */
const CLOCK_SKEW_MS = 60_000;

export function createContext(opts: ContextOptions): Context {
  const { io, env, global } = opts;
  const signal = opts.signal ?? new AbortController().signal;
  const debugOn = debugEnabled(env, global.verbose);
  let settingsPromise: Promise<Settings> | undefined;
  let apiPromise: Promise<ApiClient> | undefined;
  let pacerPromise: Promise<Pacer> | undefined;
  let prompter: Prompter | undefined;
  const closers: (() => Promise<void>)[] = [];
  const realNow = opts.now ?? (() => Date.now());
  /** The emulator's clock once api() has started it (or reached a running one) under --sandbox. */
  let serviceNow: (() => number) | undefined;
  /** How far the service's clock (the Date of its answers) is from this machine's, when that is worth counting. */
  let serviceOffset = 0;
  const onServiceTime = (ms: number) => {
    const offset = ms - realNow();
    serviceOffset = Math.abs(offset) >= CLOCK_SKEW_MS ? offset : 0;
  };

  // Status lines can carry text from the network or the command line (a number, a service message): cleaned of
  // escape sequences and bidi overrides before they reach the terminal.
  const info = (line: string) => {
    if (!global.quiet) io.err(sanitizeTerminalText(line));
  };
  const debug = (line: string) => {
    if (debugOn) io.err(io.colorErr.dim(sanitizeTerminalText(line)));
  };

  const resolved = (): Promise<Settings> => {
    settingsPromise ??= (async () => {
      const [{ resolveSettings }, { readProfiles }] = await Promise.all([
        import('./config/settings.js'),
        import('./config/profile-file.js'),
      ]);
      // Read without conf, which only writes need. A file others can read is made private: a warning even with
      // --quiet, as ssh gives one.
      const store = readProfiles(env, (line) => io.err(sanitizeTerminalText(line)));
      const settings = resolveSettings({
        flags: {
          ...(global.profile === undefined ? {} : { profile: global.profile }),
          ...(global.baseUrl === undefined ? {} : { baseUrl: global.baseUrl }),
          ...(global.apiVersion === undefined ? {} : { apiVersion: global.apiVersion }),
          ...(global.sandbox ? { sandbox: true } : {}),
          ...(global.output === undefined ? {} : { output: global.output }),
        },
        env,
        store,
      });
      // The key is never printed, whatever carries it back (src/secrets.ts).
      addSecret(settings.apiKey);
      return settings;
    })();
    return settingsPromise;
  };
  const settings = async (opts: SettingsOptions = {}): Promise<Settings> => {
    const s = await resolved();
    if (opts.newProfile || (await import('./config/settings.js')).isKnownProfile(s)) return s;
    return (await import('./config/profile-rules.js')).checkKnownProfile(s);
  };

  // Waits go where the command shows them (a progress line shows them in place), else on status lines.
  let waitDisplay: WaitDisplay | undefined;
  const lines = waitLines(info);
  const showWait: WaitShower = (reason, ms, verb) => (waitDisplay ? waitDisplay(WAIT_WORDS[reason], ms) : lines(reason, ms, verb));
  const holds = holdNotice(showWait);
  // Own pace of this process: the sandbox's budget (the embedded emulator lives here), and what reads fall back
  // to when the budget file cannot be used.
  let localPacer: Promise<Pacer> | undefined;
  const local = (): Promise<Pacer> => {
    localPacer ??= import('./pacing/pacer.js').then(({ createPacer, DEFAULT_MARGIN_MS }) =>
      createPacer({ perSecond: LIMITS.requestsPerSecond, marginMs: DEFAULT_MARGIN_MS, onHold: holds }),
    );
    return localPacer;
  };
  const budgets = new Map<string, Promise<Pacer>>();

  /**
   * The budget shared by every process on `target`'s key: in Redis when a budget URL is set (every host on the
   * key), else in a file of the state folder (this machine); this process's own pace for reads if it fails.
   */
  const sharedBudget = (target: BudgetTarget): Promise<Pacer> => {
    const key = `${target.baseUrl}\u0000${target.apiKey}`;
    let budget = budgets.get(key);
    if (!budget) {
      budget = (async () => {
        const [{ openSharedBudget }, { ensurePrivateDir, stateDir }, { budgetUrl }, localPace] = await Promise.all([
          import('./pacing/open.js'),
          import('./config/paths.js'),
          // resolved(), not settings(): `auth login` verifies a key for a profile that is not saved yet.
          resolved(),
          local(),
        ]);
        const shared = await openSharedBudget({
          baseUrl: target.baseUrl,
          apiKey: target.apiKey,
          stateDirectory: stateDir(env),
          makePrivateDirectory: ensurePrivateDir,
          budgetUrl,
          perSecond: LIMITS.requestsPerSecond,
          onHold: holds,
          local: localPace,
          // A warning, shown even with --quiet: a state folder that cannot be written is something to fix.
          warn: (line) => io.err(sanitizeTerminalText(line)),
        });
        closers.push(() => shared.close());
        return shared.pacer;
      })();
      budgets.set(key, budget);
    }
    return budget;
  };

  const pacer = async (target?: BudgetTarget): Promise<Pacer> => {
    if (target) return sharedBudget(target);
    pacerPromise ??= (async () => {
      const s = await settings();
      // The embedded emulator lives in this process: no other process shares its budget.
      if (s.sandbox || !s.apiKey) return local();
      return sharedBudget({ baseUrl: s.baseUrl, apiKey: s.apiKey });
    })();
    return pacerPromise;
  };

  /** The address and key requests go to: the embedded emulator's under --sandbox, started on first use. */
  let targetPromise: Promise<{ baseUrl: string; apiKey: string; settings: Settings }> | undefined;
  const target = () => {
    targetPromise ??= (async () => {
      const s = await settings();
      let baseUrl = s.baseUrl;
      let apiKey = s.apiKey;
      if (s.sandbox) {
        const [{ startEmbeddedSandbox }, { stateDir }] = await Promise.all([
          import('./sandbox/index.js'),
          import('./config/paths.js'),
        ]);
        const sandbox = await startEmbeddedSandbox(stateDir(env), { onWait: info, signal });
        closers.push(() => sandbox.close());
        baseUrl = sandbox.url;
        apiKey = sandbox.key;
        // From now on "now" is the emulator's simulated time, what relative times (`--tracked-since 1h`) mean
        // to the service being rehearsed.
        serviceNow = sandbox.now;
        debug(sandbox.remote ? `sandbox: the running sandbox at ${sandbox.url}` : `sandbox: embedded emulator at ${sandbox.url}`);
      }
      if (!apiKey) throw (await import('./config/profile-rules.js')).missingKeyError(s);
      return { baseUrl, apiKey, settings: s };
    })();
    return targetPromise;
  };

  const otherClients = new Map<ApiVersion, Promise<ApiClient>>();
  const api = (version?: ApiVersion): Promise<ApiClient> => {
    const build = async () => {
      const { baseUrl, apiKey, settings: s } = await target();
      const [{ createApiClient }, { stoppablePacer }, budget] = await Promise.all([
        import('./api/client.js'),
        import('./pacing/pacer.js'),
        pacer(),
      ]);
      const client = createApiClient({
        baseUrl,
        apiKey,
        version: version ?? s.apiVersion,
        // After Ctrl-C nothing more starts; requests already on the wire finish.
        pacer: stoppablePacer(budget, signal),
        timeoutMs: requestTimeoutMs(global.timeout, env),
        ...requestHooks(debug, showWait),
        onServiceTime,
      });
      closers.unshift(() => client.close());
      return client;
    };
    if (version === undefined) {
      apiPromise ??= build();
      return apiPromise;
    }
    let other = otherClients.get(version);
    if (!other) {
      other = build();
      otherClients.set(version, other);
    }
    return other;
  };
  return {
    io,
    env,
    global,
    settings,
    api,
    pacer,
    get prompter() {
      // Loaded with the first question: most commands never ask one.
      prompter ??= lazyPrompter(() => import('./prompter.js').then(({ createPrompter }) => createPrompter(io, signal)));
      return prompter;
    },
    now: () => (serviceNow ? serviceNow() : realNow() + serviceOffset),
    info,
    debug,
    showWaits: (display) => {
      waitDisplay = display;
    },
    signal,
    async dispose() {
      // A client still being built (a request started in the background) registers its closers first.
      await apiPromise?.catch(() => {});
      await Promise.allSettled(otherClients.values());
      // Client first, then the emulator it talks to.
      for (const close of closers.splice(0)) {
        try {
          await close();
        } catch (err) {
          debug(`cleanup: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    },
  };
}

function lazyPrompter(load: () => Promise<Prompter>): Prompter {
  let loaded: Promise<Prompter> | undefined;
  const get = () => (loaded ??= load());
  return {
    confirm: async (message, defaultValue) => (await get()).confirm(message, defaultValue),
    input: async (message, defaultValue) => (await get()).input(message, defaultValue),
    password: async (message) => (await get()).password(message),
    select: async (message, choices, defaultValue) => (await get()).select(message, choices, defaultValue),
  };
}
