// Entry point: builds the command tree, runs one command, and is the only place that turns errors into exit
// codes and the one line on stderr. `trk --help` and `trk --version` load commander and nothing heavier:
// the IO (chalk), the context and every command module are imported only when a command actually runs.

import type { Command, CommanderError as CommanderErrorType } from 'commander';
import { CommanderError } from './commands/commander.js';
import { applyOutputFlags, formatsOf } from './commands/define.js';
import { buildProgram, commandOf, commandWords, type Invoker } from './commands/registry.js';
import type { Context, GlobalOptions } from './context/context.js';
import { debugEnabled } from './core/debug.js';
import { InterruptedError, OutputError, stopExitCode, TrkError, UsageError } from './core/errors.js';
import { EXIT, type ExitCode } from './core/exit-codes.js';
import { HELP_WIDTH, helpWidth } from './help-pages.js';
import type { IO } from './io/io.js';
import type { OutputFormat } from './output/format.js';
import { loadTextWidths } from './output/width.js';
import type { SettingsSource } from './context/settings-source.js';
import { redact, redactingIO } from './io/secrets.js';
import { sanitizeTerminalText } from './io/terminal-text.js';
import { packageVersion } from './core/version.js';
import { nodeFs } from './core/node.js';
import { isWaitingRun, skipOptimisingCompilers } from './core/heap.js';

export interface CliOptions {
  /** Captured streams for tests; default the process's. */
  io?: IO;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
}

/** The outcome of an error: its exit code and what to print on stderr. */
export interface ErrorOutcome {
  exitCode: number;
  /** Printed as `trk: <line>`; empty for help and version, which commander printed already. */
  line: string;
  /** Extra lines for --verbose (a stack trace). */
  detail?: string;
}

/**
 * Whether a command lays text out for people, whose widths string-width measures (src/output/width.ts): a table,
 * asked for or automatic on a terminal (the tracking page and the report's too), and what stderr shows on a terminal
 * (the progress line, wrapped notices). JSON, CSV and lines for programs need no widths.
 */
export function laysOutText(io: IO, output: OutputFormat | undefined): boolean {
  return io.stderrIsTTY || output === 'table' || output === 'wide' || (output === undefined && io.stdoutIsTTY);
}

/** What `{"error": ...}` holds. */
export interface ErrorData {
  /** The service's error code (-18010002), or null when the error is not the service's. */
  code: number | null;
  kind: ErrorKind;
  message: string;
  hint: string | null;
  exit_code: number;
}

/**
 * The kinds of failure, for scripts to branch on: usage (exit 2), auth (4), rate-limit, network, timeout,
 * invalid-response (an answer trk cannot read), service (the service refused or failed), interrupted (130),
 * failure (anything else).
 */
export type ErrorKind =
  | 'usage'
  | 'auth'
  | 'rate-limit'
  | 'network'
  | 'timeout'
  | 'invalid-response'
  | 'service'
  | 'interrupted'
  | 'failure';

// By class name, so that this module does not load the API's error classes (they are loaded when a request is made).
const KIND_OF_CLASS: Readonly<Record<string, ErrorKind>> = {
  RateLimitError: 'rate-limit',
  NetworkError: 'network',
  TimeoutError: 'timeout',
  InvalidResponseError: 'invalid-response',
  AnswerTooLargeError: 'invalid-response',
  PagingError: 'invalid-response',
  ServerError: 'service',
  EndpointNotFoundError: 'service',
  EnvelopeError: 'service',
  UnexpectedStatusError: 'service',
};

function errorKind(err: unknown, exitCode: number): ErrorKind {
  if (exitCode === EXIT.usage) return 'usage';
  if (exitCode === EXIT.auth) return 'auth';
  if (exitCode === EXIT.interrupted) return 'interrupted';
  const name = err instanceof Error ? err.constructor.name : '';
  return KIND_OF_CLASS[name] ?? 'failure';
}

/** The error as data, for `--json` and TRK_ERROR_FORMAT=json: what its line says, in fields. */
export function errorData(err: unknown, outcome: ErrorOutcome): ErrorData {
  const hint = err instanceof TrkError && err.hint ? oneLine(err.hint) : null;
  // The line is `<message>: <hint>`; the message is what comes before the hint.
  const message =
    hint !== null && outcome.line.endsWith(`: ${hint}`) ? outcome.line.slice(0, -(hint.length + 2)) : outcome.line;
  const code =
    err !== null && typeof err === 'object' && 'serviceCode' in err && typeof err.serviceCode === 'number'
      ? err.serviceCode
      : null;
  return { code, kind: errorKind(err, outcome.exitCode), message, hint, exit_code: outcome.exitCode };
}

/**
 * Whether errors are printed as JSON: TRK_ERROR_FORMAT=json or text decides; else JSON when the output asked for
 * is (--json, -o json, -o ndjson, --jq, or a default output of json), since whoever reads that output is a program.
 */
export function errorsAsJson(env: NodeJS.ProcessEnv, o: { output?: unknown; json?: unknown; jq?: unknown }): boolean {
  const asked = env.TRK_ERROR_FORMAT?.trim().toLowerCase();
  if (asked === 'json') return true;
  if (asked === 'text') return false;
  return o.json === true || o.output === 'json' || o.output === 'ndjson' || typeof o.jq === 'string';
}

// Commander errors that say what is wrong but not what to do; the help of the command that failed does.
const NEEDS_HELP_HINT = new Set([
  'commander.unknownOption',
  'commander.unknownCommand',
  'commander.excessArguments',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.conflictingOption',
]);

/**
 * Exit codes and messages for everything a command can throw. `command` is the command line that failed to
 * parse (`trk list`), named in the hint of a usage error.
 */
export function errorOutcome(
  err: unknown,
  opts: { debug?: boolean; stopped?: ExitCode; command?: string } = {},
): ErrorOutcome {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version')
      return { exitCode: EXIT.ok, line: '' };
    // `trk` or `trk auth` without a subcommand: commander printed the help on stderr already.
    if (err.code === 'commander.help') return { exitCode: EXIT.usage, line: '' };
    const line = oneLine(err.message.replace(/^error: /, ''));
    // "(Did you mean --json?)" is a fix already.
    const hint =
      NEEDS_HELP_HINT.has(err.code) && !/did you mean/i.test(line) ? `: see "${opts.command ?? 'trk'} --help"` : '';
    return { exitCode: EXIT.usage, line: hint ? `${line.replace(/\.$/, '')}${hint}` : line };
  }
  if (err instanceof TrkError) {
    const outcome: ErrorOutcome = { exitCode: err.exitCode, line: oneLine(err.toLine()) };
    // An interruption raised where the signal was not known (a request aborted while waiting, a prompt) takes the
    // signal's code: SIGTERM is 143 whichever step it stopped.
    if (opts.stopped !== undefined && err.exitCode === EXIT.interrupted) {
      outcome.exitCode = opts.stopped;
      if (err.message === 'interrupted' && opts.stopped === EXIT.terminated) outcome.line = 'terminated';
    }
    if (opts.debug && err.stack) outcome.detail = causeChain(err);
    return outcome;
  }
  if (opts.stopped !== undefined || (err instanceof Error && err.name === 'AbortError')) {
    const exitCode = opts.stopped ?? EXIT.interrupted;
    return { exitCode, line: exitCode === EXIT.terminated ? 'terminated' : 'interrupted' };
  }
  const message = err instanceof Error ? err.message : String(err);
  const outcome: ErrorOutcome = { exitCode: EXIT.failure, line: oneLine(message || 'unexpected error') };
  if (opts.debug && err instanceof Error) outcome.detail = causeChain(err);
  return outcome;
}

/**
 * Commander suggests on a second line ("(Did you mean --json?)"); the user gets one line. Every error line passes
 * here, and many carry text from outside (a service message, an argument echoed back, a file name): escape
 * sequences and bidi overrides are removed so that the line shows what it says.
 */
function oneLine(text: string): string {
  return sanitizeTerminalText(text)
    .split(/\n/)
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ')
    .replace(/\t/g, ' ');
}

function causeChain(err: Error): string {
  const parts: string[] = [err.stack ?? String(err)];
  let cause: unknown = err.cause;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    parts.push(`caused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return parts.join('\n');
}

/**
 * `--json`, `--csv` and `-o` name one format; asking for two different ones is a usage error. `--jq` implies json
 * (NDJSON too, each line filtered); with a format that is not JSON it is refused.
 */
export function resolveOutputFormat(o: {
  output?: unknown;
  json?: unknown;
  csv?: unknown;
  jq?: unknown;
}): OutputFormat | undefined {
  const asked = new Set<OutputFormat>();
  if (typeof o.output === 'string') asked.add(o.output as OutputFormat);
  if (o.json === true) asked.add('json');
  if (o.csv === true) asked.add('csv');
  if (asked.size > 1)
    throw new UsageError(`conflicting output formats: ${[...asked].join(', ')}`, 'give one of --json, --csv, --output');
  const format: OutputFormat | undefined = asked.values().next().value;
  if (typeof o.jq === 'string') {
    if (format === undefined) return 'json';
    if (format !== 'json' && format !== 'ndjson') {
      throw new UsageError(`--jq filters JSON, not ${format}`, `drop ${flagOf(o)}, or drop --jq`);
    }
  }
  return format;
}

/** The flag that asked for the output format, as typed: `--json`, `--csv` or `-o <format>`. */
function flagOf(o: { output?: unknown; json?: unknown; csv?: unknown }): string {
  if (typeof o.output === 'string') return `-o ${o.output}`;
  return o.csv === true ? '--csv' : '--json';
}

/**
 * Refuses an output format the command does not honour, and --jq on a command without JSON output: a flag that
 * would be ignored is an error (exit 2), before anything runs.
 */
export function checkOutputFlags(
  o: { output?: unknown; json?: unknown; csv?: unknown; jq?: unknown; header?: unknown },
  formats: readonly OutputFormat[],
  command: string,
): void {
  const asked =
    typeof o.output === 'string' || o.json === true || o.csv === true
      ? resolveOutputFormat({ ...o, jq: undefined })
      : undefined;
  if (formats.length === 0 && (asked !== undefined || typeof o.jq === 'string')) {
    const flag = typeof o.jq === 'string' && asked === undefined ? '--jq' : flagOf(o);
    throw new UsageError(`"${command}" prints no data on stdout, so ${flag} does not apply`, `drop ${flag}`);
  }
  if (typeof o.jq === 'string' && !formats.includes('json')) {
    throw new UsageError(`"${command}" prints no JSON, so --jq does not apply`, 'drop --jq');
  }
  if (asked !== undefined && !formats.includes(asked)) {
    const choices = formats.map((f) => (f === 'json' ? '--json' : `-o ${f}`)).join(', ');
    throw new UsageError(`"${command}" cannot print ${asked}`, `use ${choices}, or drop ${flagOf(o)}`);
  }
  if (o.header === true) checkHeader(o, asked, formats, command);
}

/** `--header` names the columns of tab-separated output: refused where nothing is printed in columns. */
function checkHeader(
  o: { jq?: unknown },
  asked: OutputFormat | undefined,
  formats: readonly OutputFormat[],
  command: string,
) {
  if (!formats.includes('table'))
    throw new UsageError(`"${command}" prints no table, so --header does not apply`, 'drop --header');
  const format = typeof o.jq === 'string' ? 'json' : asked;
  if (format === 'json' || format === 'ndjson' || format === 'ids' || format === 'text')
    throw new UsageError(
      `--header names columns, and ${format} has none`,
      'drop --header, or print a table (-o table or piped)',
    );
}

export function readGlobalOptions(o: Record<string, unknown>): GlobalOptions {
  const g: GlobalOptions = {};
  if (typeof o.profile === 'string') g.profile = o.profile;
  if (typeof o.baseUrl === 'string') g.baseUrl = o.baseUrl;
  if (typeof o.apiVersion === 'string') g.apiVersion = o.apiVersion;
  if (o.sandbox === true) g.sandbox = true;
  const output = resolveOutputFormat(o);
  if (output !== undefined) g.output = output;
  if (o.quiet === true) g.quiet = true;
  if (o.verbose === true) g.verbose = true;
  if (o.yes === true) g.yes = true;
  if (o.color === false) g.color = false;
  if (typeof o.timeout === 'string') g.timeout = o.timeout;
  if (o.rawCsv === true) g.rawCsv = true;
  if (o.header === true) g.header = true;
  if (typeof o.jq === 'string') g.jq = o.jq;
  return g;
}

/** Runs one command line and returns the exit code. Never throws. */
export async function runCli(argv: string[], opts: CliOptions = {}): Promise<number> {
  const env = opts.env ?? process.env;
  let io: IO | undefined = opts.io;
  let global: GlobalOptions = {};
  let exitCode: number = EXIT.ok;
  let program: Command | undefined;
  // The command whose arguments commander refused, for the hint of the usage error.
  let failedCommand: string | undefined;
  const noteFailure = (c: Command) => (err: CommanderErrorType) => {
    failedCommand ??= commandPath(c);
    throw err;
  };

  const writeOut = (s: string) => (io ? io.out(s) : void process.stdout.write(redact(s)));
  const writeErr = (s: string) => (io ? void io.stderr.write(s) : void process.stderr.write(redact(s)));

  // The command whose action runs (set by the preAction hook below): what it prints decides which flags apply.
  let running: Command | undefined;

  const invoke: Invoker = async (load, commandOutput) => {
    const flags = program!.opts();
    global = readGlobalOptions(flags);
    const formats = formatsOf(running ?? program!);
    checkOutputFlags(flags, formats, commandPath(running ?? program!));
    // A bad --timeout is refused before anything runs (TRK_TIMEOUT is checked when a request is made).
    if (global.timeout !== undefined) (await import('./config/timeout.js')).requestTimeoutMs(global.timeout, {});
    // So is a --jq program that does not compile.
    const jq = global.jq === undefined ? undefined : await startJq(global.jq, global.timeout, env);
    try {
      // The command's module, the process's IO and the context are loaded together: Node 20's module loader reads
      // files asynchronously, and the reads then overlap.
      const [run, processIO, { createContext, SettingsSource }] = await Promise.all([
        load(),
        io ? undefined : import('./io/io.js'),
        import('./context/context-impl.js'),
      ]);
      io ??= await processIO!.createProcessIO({ noColor: global.color === false, rawCsv: global.rawCsv === true, env });
      // Whatever the command and the errors print, the API key never is (src/io/secrets.ts).
      io = redactingIO(io);
      const { jqOutput } = jq === undefined ? { jqOutput: undefined } : await import('./output/jq.js');
      const filtered = jq === undefined ? undefined : jqOutput!(io, jq, global.jq!, opts.signal);
      const ctxIO = filtered?.io ?? io;
      // The output is settled before the context is made from it: the profile's default format, then the
      // command's own output flags (which refuse --columns with -o ids, whoever asked for ids).
      const settings = new SettingsSource(ctxIO, env, global);
      if (global.output === undefined && formats.length > 0)
        global = await withDefaultOutput(global, formats, env, settings);
      if (commandOutput) applyOutputFlags(global, commandOutput);
      if (laysOutText(ctxIO, global.output)) await loadTextWidths();
      const ctx: Context = createContext({
        io: ctxIO,
        env,
        global,
        settings,
        ...(opts.now ? { now: opts.now } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      try {
        exitCode = (await run(ctx)) ?? EXIT.ok;
        const failure = await filtered?.finish();
        if (failure) throw failure;
        // A last write to stdout that failed is reported on the next turn of the event loop (see main).
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (ctx.signal.reason instanceof OutputError) throw ctx.signal.reason;
      } finally {
        await ctx.dispose();
      }
    } finally {
      await jq?.close();
    }
  };

  try {
    program = await buildProgram(invoke, packageVersion(), commandOf(argv));
    const width = io ? Math.min(io.columns, HELP_WIDTH) : helpWidth(process.stdout, process.stderr);
    program.exitOverride(noteFailure(program));
    program.hook('preAction', (_self, action) => {
      running = action;
    });
    program.configureOutput({
      writeOut,
      writeErr,
      getOutHelpWidth: () => width,
      getErrHelpWidth: () => width,
      // Errors are printed below, once, in trk's own format.
      outputError: () => {},
    });
    applyToTree(program, (c) => {
      c.exitOverride(noteFailure(c));
      c.configureOutput(program!.configureOutput());
    });
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (thrown) {
    // Output that could not be written stopped the command: that is what it ended with.
    const err = opts.signal?.reason instanceof OutputError ? opts.signal.reason : thrown;
    const debug = debugEnabled(env, global.verbose);
    const outcome = errorOutcome(err, {
      debug,
      ...(opts.signal?.aborted && !(err instanceof OutputError) ? { stopped: stopExitCode(opts.signal) } : {}),
      ...(failedCommand === undefined ? {} : { command: failedCommand }),
    });
    if (outcome.line && errorsAsJson(env, { ...lenientFlags(program), ...global })) {
      const detail = outcome.detail ? { detail: sanitizeTerminalText(outcome.detail) } : {};
      writeErr(`${JSON.stringify({ error: { ...errorData(err, outcome), ...detail } })}\n`);
      return outcome.exitCode;
    }
    if (outcome.line) writeErr(`trk: ${outcome.line}\n`);
    if (outcome.detail) writeErr(`${sanitizeTerminalText(outcome.detail)}\n`);
    return outcome.exitCode;
  }
}

/**
 * jq for --jq, its program compiled: in a worker that Ctrl-C, SIGTERM, the time limit (three times --timeout, as a
 * whole call) and the memory cap stop (src/output/jq-worker.ts).
 */
async function startJq(expr: string, timeout: string | undefined, env: NodeJS.ProcessEnv) {
  const [{ loadJqProgram }, { requestTimeoutMs }, { callDeadlineMs }] = await Promise.all([
    import('./output/jq.js'),
    import('./config/timeout.js'),
    import('./api/retry.js'),
  ]);
  return loadJqProgram(expr, { timeoutMs: callDeadlineMs(requestTimeoutMs(timeout, env)) });
}

/** The global flags as far as commander parsed them before failing; nothing when it did not get that far. */
function lenientFlags(program: Command | undefined): Record<string, unknown> {
  try {
    return program?.opts() ?? {};
  } catch {
    return {};
  }
}

/**
 * No format asked for by flag: TRK_OUTPUT, else the profile's `output` setting, when the command honours it (a
 * default is not a demand: a command that cannot print it keeps its own). Settings that cannot be resolved here
 * are left for the command to report, if it needs them.
 */
async function withDefaultOutput(
  global: GlobalOptions,
  formats: readonly OutputFormat[],
  env: NodeJS.ProcessEnv,
  settings: SettingsSource,
): Promise<GlobalOptions> {
  const fromEnv = env.TRK_OUTPUT?.trim();
  // A wrong TRK_OUTPUT is refused even by commands that never read the settings.
  if (fromEnv) (await import('./config/keys.js')).parseOutputFormat(fromEnv, 'TRK_OUTPUT');
  const s = await settings.settings().catch(() => undefined);
  return s?.output !== undefined && formats.includes(s.output) ? { ...global, output: s.output } : global;
}

/** `trk auth login`: the names from the program down to `c`. */
function commandPath(c: Command): string {
  const names: string[] = [];
  for (let at: Command | null = c; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function applyToTree(cmd: Command, fn: (c: Command) => void): void {
  for (const sub of cmd.commands) {
    fn(sub);
    applyToTree(sub, fn);
  }
}

/** The process entry point (bin/trk.js): real streams, Ctrl-C handling, a quiet exit on a closed pipe. */
export async function main(argv: string[]): Promise<number> {
  // Before the command's modules load (src/core/heap.ts); here rather than in runCli, which tests run in process.
  if (isWaitingRun(commandWords(argv))) skipOptimisingCompilers();
  const controller = new AbortController();
  /** A second signal while stopping: quit at once, ending the progress line first so the prompt starts clean. */
  const quitNow = (code: ExitCode) => {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K\n');
    process.exit(code);
  };
  // conf's atomic writer (when-exit) also listens for SIGINT and SIGTERM and re-sends the signal to this process
  // after running its clean-up. That echo arrives right after the first signal and must not count as a second one.
  let firstAt = 0;
  let echoExpected = false;
  const isEcho = (): boolean => {
    if (!echoExpected || Date.now() - firstAt >= 1000) return false;
    echoExpected = false;
    return true;
  };
  const firstStop = (signal: NodeJS.Signals, note: string, reason: InterruptedError) => {
    firstAt = Date.now();
    echoExpected = process.listenerCount(signal) > 1;
    process.stderr.write(`\ntrk: ${note}\n`);
    controller.abort(reason);
  };
  const onSigint = () => {
    if (isEcho()) return;
    if (controller.signal.aborted) quitNow(EXIT.interrupted);
    firstStop(
      'SIGINT',
      'interrupting: finishing requests in flight (Ctrl-C again to quit at once)',
      new InterruptedError(),
    );
  };
  // systemd, `timeout` and Kubernetes stop a process with SIGTERM, then SIGKILL after a grace period: stop as on
  // Ctrl-C (finish what is in flight, save, summarise), but within a bound of our own.
  const onSigterm = () => {
    if (isEcho()) return;
    if (controller.signal.aborted) quitNow(EXIT.terminated);
    firstStop(
      'SIGTERM',
      'terminated: finishing requests in flight',
      new InterruptedError('terminated', EXIT.terminated),
    );
    setTimeout(() => quitNow(EXIT.terminated), TERMINATE_GRACE_MS).unref();
  };
  // `trk list | head`: the reader went away; there is nobody left to tell. Any other failure (a full disk,
  // /dev/full, a file system gone read-only) stops the command as Ctrl-C would, so that temporaries are removed and
  // progress saved, and it ends with one line naming where stdout goes and why, exit 1.
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    if (!controller.signal.aborted) controller.abort(new OutputError(stdoutName(), err));
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  process.stdout.on('error', onStdoutError);
  try {
    return await runCli(argv, { signal: controller.signal });
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  }
}

/** Where stdout goes, for a message: `/data/out.json (stdout)` when the system says it is a file, else `stdout`. */
function stdoutName(): string {
  try {
    const target = nodeFs().readlinkSync('/proc/self/fd/1');
    return target.startsWith('/') ? `${sanitizeTerminalText(target)} (stdout)` : 'stdout';
  } catch {
    return 'stdout';
  }
}

/** After SIGTERM, requests in flight get this long (their own timeout is 30 s; a supervisor's grace is often 30). */
const TERMINATE_GRACE_MS = 25_000;
