// The one Context a command run receives. Nothing is built until asked for: settings read the profile file
// on first use, api() builds the HTTP client (and starts the embedded emulator for --sandbox) on first use,
// so `trk help exit-codes` or a usage error never opens a file or a socket.

import type { ApiClient, ApiClientOptions } from '../api/client.js';
import { stateDir } from '../config/paths.js';
import { missingKeyError } from '../config/profile-rules.js';
import type { Settings } from '../config/settings.js';
import { requestTimeoutMs } from '../config/timeout.js';
import type { BudgetTarget, Context, GlobalOptions, Prompter, SettingsOptions, WaitDisplay } from './context.js';
import { debugEnabled } from '../core/debug.js';
import type { IO } from '../io/io.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { HoldCause, HoldListener, Pacer, WaitReason } from '../pacing/pacer.js';
import { RateLimits, seconds, waitWords } from './wait-words.js';
import { RateBudgets } from './rate-budgets.js';
import { SettingsSource } from './settings-source.js';
import { sanitizeTerminalText } from '../io/terminal-text.js';
import { clock } from '../core/clock.js';
import { wrapNotice } from '../output/width.js';

export interface ContextOptions {
  io: IO;
  env: NodeJS.ProcessEnv;
  global: GlobalOptions;
  now?: () => number;
  /** Aborted on Ctrl-C; default a signal nobody aborts. */
  signal?: AbortSignal;
  /** The run's settings, when the command line resolved them already (to settle the output format). */
  settings?: SettingsSource;
}

/** A wait, shown where the command shows it (a progress line), else as a status line. */
type WaitShower = (reason: WaitReason, ms: number, verb: 'resuming' | 'retrying', cause?: HoldCause) => void;

/** What a pacer says when a start first waits for a hold: once per hold, never per request. */
function holdNotice(show: WaitShower): HoldListener {
  return (ms, reason, cause) => show(reason, ms, 'resuming', cause);
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

/** Waits as status lines: `service unavailable, retrying in 2 s`. */
function waitLines(info: (line: string) => void): WaitShower {
  return (reason, ms, verb, cause) => info(`${waitWords(reason, cause)}, ${verb} in ${seconds(ms)}`);
}

/** What every client of a command run shares: the time limit (--timeout, TRK_TIMEOUT) and the callbacks. */
export function requestOptions(
  ctx: Pick<Context, 'env' | 'global' | 'debug' | 'info'>,
): Pick<ApiClientOptions, 'timeoutMs' | 'onRequest' | 'onWait'> {
  return { timeoutMs: requestTimeoutMs(ctx.global.timeout, ctx.env), ...requestHooks(ctx.debug, waitLines(ctx.info)) };
}

/**
 * The service's clock counts (for ages: "3h ago", "last update 2 days ago") when it is this far from the machine's
 * or more: a sandbox whose simulated time runs ahead, or a machine clock set wrong. Below it, the Date header's
 * whole seconds and the time the answer took are noise, and the machine's clock is the finer one.
 */
const CLOCK_SKEW_MS = 60_000;

/** Where requests go and with which key: the embedded emulator's under --sandbox. */
interface Target {
  baseUrl: string;
  apiKey: string;
  settings: Settings;
}

export function createContext(opts: ContextOptions): Context {
  return new CommandContext(opts);
}

/**
 * The context as a class whose parts are built on first use. Its public members are bound (arrow functions):
 * commands pass `ctx.info` and `ctx.debug` on as plain callbacks.
 */
class CommandContext implements Context {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  /** Settled before the context is made (src/cli.ts); frozen, so that nothing patches it afterwards. */
  readonly global: Readonly<GlobalOptions>;
  readonly signal: AbortSignal;
  private readonly source: SettingsSource;
  private readonly budgets: RateBudgets;
  private readonly debugOn: boolean;
  private readonly realNow: () => number;
  /** What dispose() closes, in order: clients first, then the emulator they talk to. */
  private readonly closers: (() => Promise<void>)[] = [];
  /** The emulator's clock once api() has started it (or reached a running one) under --sandbox. */
  private serviceNow: (() => number) | undefined;
  /** How far the service's clock (the Date of its answers) is from this machine's, when that is worth counting. */
  private serviceOffset = 0;
  private waitDisplay: WaitDisplay | undefined;
  private targetPromise: Promise<Target> | undefined;
  private apiPromise: Promise<ApiClient> | undefined;
  private readonly otherClients = new Map<ApiVersion, Promise<ApiClient>>();
  private lazyPrompter: Prompter | undefined;
  private readonly rateLimits = new RateLimits();

  constructor(opts: ContextOptions) {
    this.io = opts.io;
    this.env = opts.env;
    this.global = Object.freeze({ ...opts.global });
    this.signal = opts.signal ?? new AbortController().signal;
    this.debugOn = debugEnabled(this.env, this.global.verbose);
    this.realNow = opts.now ?? (() => clock().now());
    this.source = opts.settings ?? new SettingsSource(this.io, this.env, this.global);
    this.budgets = new RateBudgets({
      env: this.env,
      settings: this.source,
      onHold: holdNotice(this.showWait),
      warn: this.warn,
      onClose: (close) => this.closers.push(close),
    });
  }

  // Status lines can carry text from the network or the command line (a number, a service message): cleaned of
  // escape sequences and bidi overrides before they reach the terminal, and wrapped there between words (never
  // inside a word or a path); piped, one line per message, as scripts grep them.
  readonly info = (line: string): void => {
    if (!this.global.quiet) this.statusLine(line);
  };

  readonly debug = (line: string): void => {
    if (this.debugOn) this.io.err(this.io.colorErr.dim(sanitizeTerminalText(line)));
  };

  /** A warning, shown even with --quiet: something to fix (a state folder that cannot be written, a public file). */
  readonly warn = (line: string): void => this.statusLine(line);

  private statusLine(line: string): void {
    const clean = sanitizeTerminalText(line);
    if (!this.io.stderrIsTTY) this.io.err(clean);
    else for (const l of wrapNotice(clean, this.io.stderrColumns)) this.io.err(l);
  }

  readonly settings = (opts?: SettingsOptions): Promise<Settings> => this.source.settings(opts);

  readonly pacer = (target?: BudgetTarget): Promise<Pacer> => this.budgets.pacer(target);

  readonly now = (): number => (this.serviceNow ? this.serviceNow() : this.realNow() + this.serviceOffset);

  readonly showWaits = (display: WaitDisplay | undefined): void => {
    this.waitDisplay = display;
  };

  get prompter(): Prompter {
    // Loaded with the first question: most commands never ask one.
    this.lazyPrompter ??= lazyPrompter(() =>
      import('./prompter.js').then(({ createPrompter }) => createPrompter(this.io, this.signal)),
    );
    return this.lazyPrompter;
  }

  readonly api = (version?: ApiVersion): Promise<ApiClient> => {
    if (version === undefined) {
      this.apiPromise ??= this.buildClient(undefined);
      return this.apiPromise;
    }
    let other = this.otherClients.get(version);
    if (!other) {
      other = this.buildClient(version);
      this.otherClients.set(version, other);
    }
    return other;
  };

  readonly dispose = async (): Promise<void> => {
    // A client still being built (a request started in the background) registers its closers first.
    await this.apiPromise?.catch(() => {});
    await Promise.allSettled(this.otherClients.values());
    for (const close of this.closers.splice(0)) {
      try {
        await close();
      } catch (err) {
        this.debug(`cleanup: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };

  /**
   * Waits go where the command shows them (a progress line shows them in place), else on status lines; the first
   * 429 of a run, if short, only with -v (see wait-words.ts).
   */
  private readonly showWait: WaitShower = (reason, ms, verb, cause) => {
    if (this.rateLimits.quiet(reason, ms)) return this.debug(`${waitWords(reason, cause)}, ${verb} in ${seconds(ms)}`);
    const again = reason === 'rate-limited' && this.rateLimits.count > 1;
    if (this.waitDisplay) this.waitDisplay(waitWords(reason, cause, again), ms);
    else this.info(`${waitWords(reason, cause, again)}, ${verb} in ${seconds(ms)}`);
  };

  private readonly onServiceTime = (ms: number): void => {
    const offset = ms - this.realNow();
    this.serviceOffset = Math.abs(offset) >= CLOCK_SKEW_MS ? offset : 0;
  };

  private async buildClient(version: ApiVersion | undefined): Promise<ApiClient> {
    const { baseUrl, apiKey, settings: s } = await this.target();
    const [{ createApiClient }, { stoppablePacer }, budget] = await Promise.all([
      import('../api/client.js'),
      import('../pacing/pacer.js'),
      this.pacer(),
    ]);
    const client = createApiClient({
      baseUrl,
      apiKey,
      version: version ?? s.apiVersion,
      // After Ctrl-C nothing more starts; requests already on the wire finish.
      pacer: stoppablePacer(budget, this.signal),
      timeoutMs: requestTimeoutMs(this.global.timeout, this.env),
      ...requestHooks(this.debug, this.showWait),
      onServiceTime: this.onServiceTime,
    });
    this.closers.unshift(() => client.close());
    return client;
  }

  /** The address and key requests go to: the embedded emulator's under --sandbox, started on first use. */
  private target(): Promise<Target> {
    this.targetPromise ??= this.resolveTarget();
    return this.targetPromise;
  }

  private async resolveTarget(): Promise<Target> {
    const s = await this.settings();
    const { baseUrl, apiKey } = s.sandbox ? await this.startSandbox() : s;
    if (!apiKey) throw missingKeyError(s);
    return { baseUrl, apiKey, settings: s };
  }

  private async startSandbox(): Promise<{ baseUrl: string; apiKey: string }> {
    const { startEmbeddedSandbox } = await import('../sandbox.js');
    const sandbox = await startEmbeddedSandbox(stateDir(this.env), {
      onWait: this.info,
      signal: this.signal,
      time: clock(),
    });
    this.closers.push(() => sandbox.close());
    // From now on "now" is the emulator's simulated time, what relative times (`--tracked-since 1h`) mean to the
    // service being rehearsed.
    this.serviceNow = sandbox.now;
    this.debug(
      sandbox.remote
        ? `sandbox: the running sandbox at ${sandbox.url}`
        : `sandbox: embedded emulator at ${sandbox.url}`,
    );
    return { baseUrl: sandbox.url, apiKey: sandbox.key };
  }
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
export { SettingsSource } from './settings-source.js';
