// The one Context a command run receives. Nothing is built until asked for: settings read the profile file
// on first use, api() builds the HTTP client (and starts the embedded emulator for --sandbox) on first use,
// so `trk help exit-codes` or a usage error never opens a file or a socket.

import path from 'node:path';
import type { ApiClient, ApiClientOptions } from './api/client.js';
import type { Pacer } from './api/pacer.js';
import { LIMITS } from './api/spec.js';
import { debugEnabled } from './debug.js';
import type { Settings } from './config/settings.js';
import type { Context, GlobalOptions, Prompter } from './context.js';
import { noApiKeyError } from './errors.js';
import type { IO } from './io.js';
import { createPrompter } from './prompter.js';

export interface ContextOptions {
  io: IO;
  env: NodeJS.ProcessEnv;
  global: GlobalOptions;
  now?: () => number;
  /** Aborted on Ctrl-C; default a signal nobody aborts. */
  signal?: AbortSignal;
}


/** Client callbacks: each request logged for --verbose (never the key, which the log does not carry), waits shown. */
export function requestHooks(
  debug: (line: string) => void,
  info: (line: string) => void,
): Pick<ApiClientOptions, 'onRequest' | 'onWait'> {
  return {
    onRequest: (log) => {
      const attempt = log.attempt > 1 ? ` (attempt ${log.attempt})` : '';
      const note = log.note ? `: ${log.note}` : '';
      const items = `${log.items} item${log.items === 1 ? '' : 's'}`;
      debug(`request ${log.operation} ${log.status} ${log.ms} ms ${items}${attempt}${note}`);
    },
    onWait: (reason, delayMs) => {
      const why = reason === 'rate-limited' ? 'rate limited' : reason === 'unavailable' ? 'service unavailable' : 'network error';
      info(`${why}, retrying in ${Math.max(1, Math.round(delayMs / 1000))} s`);
    },
  };
}

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

  const info = (line: string) => {
    if (!global.quiet) io.err(line);
  };
  const debug = (line: string) => {
    if (debugOn) io.err(io.colorErr.dim(line));
  };

  const settings = (): Promise<Settings> => {
    settingsPromise ??= (async () => {
      const [{ resolveSettings }, { openProfileStore }] = await Promise.all([
        import('./config/settings.js'),
        import('./config/profiles.js'),
      ]);
      // The store is opened lazily by the settings resolution's first read; opening it costs a conf import.
      const store = openProfileStore(env);
      return resolveSettings({
        flags: {
          ...(global.profile === undefined ? {} : { profile: global.profile }),
          ...(global.baseUrl === undefined ? {} : { baseUrl: global.baseUrl }),
          ...(global.apiVersion === undefined ? {} : { apiVersion: global.apiVersion }),
          ...(global.sandbox ? { sandbox: true } : {}),
        },
        env,
        store,
      });
    })();
    return settingsPromise;
  };

  const pacer = (): Promise<Pacer> => {
    pacerPromise ??= (async () => {
      const s = await settings();
      // The embedded emulator lives in this process: no other process shares its budget.
      if (s.sandbox || !s.apiKey) return (await import('./api/pacer.js')).processPacer();
      const [{ budgetFile, createSharedPacer }, { ensurePrivateDir, stateDir }] = await Promise.all([
        import('./api/shared-pacer.js'),
        import('./config/paths.js'),
      ]);
      const file = budgetFile(stateDir(env), s.baseUrl, s.apiKey);
      ensurePrivateDir(path.dirname(file));
      return createSharedPacer({ file, perSecond: LIMITS.requestsPerSecond });
    })();
    return pacerPromise;
  };

  const api = (): Promise<ApiClient> => {
    apiPromise ??= (async () => {
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
      if (!apiKey) throw noApiKeyError();
      const [{ createApiClient }, { stoppablePacer }, budget] = await Promise.all([
        import('./api/client.js'),
        import('./api/pacer.js'),
        pacer(),
      ]);
      const client = createApiClient({
        baseUrl,
        apiKey,
        version: s.apiVersion,
        // After Ctrl-C nothing more starts; requests already on the wire finish.
        pacer: stoppablePacer(budget, signal),
        ...requestHooks(debug, info),
      });
      closers.unshift(() => client.close());
      return client;
    })();
    return apiPromise;
  };

  return {
    io,
    env,
    global,
    settings,
    api,
    pacer,
    get prompter() {
      prompter ??= createPrompter(io, signal);
      return prompter;
    },
    now: () => (serviceNow ?? realNow)(),
    info,
    debug,
    signal,
    async dispose() {
      // A client still being built (a request started in the background) registers its closers first.
      await apiPromise?.catch(() => {});
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
