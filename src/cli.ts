// Entry point: builds the command tree, runs one command, and is the only place that turns errors into exit
// codes and the one line on stderr. `trk --help` and `trk --version` load commander and nothing heavier:
// the IO (chalk), the context and every command module are imported only when a command actually runs.

import { readFileSync } from 'node:fs';
import { CommanderError, type Command } from 'commander';
import { buildProgram, type Invoker } from './commands/shared/program.js';
import type { Context, GlobalOptions } from './context.js';
import { debugEnabled } from './debug.js';
import { InterruptedError, TrkError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { IO } from './io.js';
import type { OutputFormat } from './output/format.js';
import { sanitizeTerminalText } from './output/sanitize.js';

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
export function errorOutcome(err: unknown, opts: { debug?: boolean; aborted?: boolean; command?: string } = {}): ErrorOutcome {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return { exitCode: EXIT.ok, line: '' };
    // `trk` or `trk auth` without a subcommand: commander printed the help on stderr already.
    if (err.code === 'commander.help') return { exitCode: EXIT.usage, line: '' };
    const line = oneLine(err.message.replace(/^error: /, ''));
    // "(Did you mean --json?)" is a fix already.
    const hint = NEEDS_HELP_HINT.has(err.code) && !/did you mean/i.test(line) ? `: see "${opts.command ?? 'trk'} --help"` : '';
    return { exitCode: EXIT.usage, line: hint ? `${line.replace(/\.$/, '')}${hint}` : line };
  }
  if (err instanceof TrkError) {
    const outcome: ErrorOutcome = { exitCode: err.exitCode, line: oneLine(err.toLine()) };
    if (opts.debug && err.stack) outcome.detail = causeChain(err);
    return outcome;
  }
  if (opts.aborted || (err instanceof Error && err.name === 'AbortError')) {
    return { exitCode: EXIT.interrupted, line: 'interrupted' };
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

/** `--json`, `--csv` and `-o` name one format; asking for two different ones is a usage error. */
export function resolveOutputFormat(o: { output?: unknown; json?: unknown; csv?: unknown }): OutputFormat | undefined {
  const asked = new Set<OutputFormat>();
  if (typeof o.output === 'string') asked.add(o.output as OutputFormat);
  if (o.json === true) asked.add('json');
  if (o.csv === true) asked.add('csv');
  if (asked.size > 1) throw new UsageError(`conflicting output formats: ${[...asked].join(', ')}`, 'give one of --json, --csv, --output');
  return asked.values().next().value;
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
  return g;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
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
  const noteFailure = (c: Command) => (err: CommanderError) => {
    failedCommand ??= commandPath(c);
    throw err;
  };

  const writeOut = (s: string) => (io ? io.out(s) : void process.stdout.write(s));
  const writeErr = (s: string) => (io ? void io.stderr.write(s) : void process.stderr.write(s));

  const invoke: Invoker = async (load) => {
    global = readGlobalOptions(program!.opts());
    // A bad --timeout is refused before anything runs (TRK_TIMEOUT is checked when a request is made).
    if (global.timeout !== undefined) (await import('./config/timeout.js')).requestTimeoutMs(global.timeout, {});
    const run = await load();
    if (!io) {
      const { createProcessIO } = await import('./io.js');
      io = await createProcessIO({ noColor: global.color === false, rawCsv: global.rawCsv === true, env });
    }
    const { createContext } = await import('./context-impl.js');
    const ctx: Context = createContext({
      io,
      env,
      global,
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    try {
      exitCode = (await run(ctx)) ?? EXIT.ok;
    } finally {
      await ctx.dispose();
    }
  };

  try {
    program = buildProgram(invoke, packageVersion());
    const helpWidth = io?.columns ?? process.stdout.columns ?? 80;
    program.exitOverride(noteFailure(program));
    program.configureOutput({
      writeOut,
      writeErr,
      getOutHelpWidth: () => helpWidth,
      getErrHelpWidth: () => helpWidth,
      // Errors are printed below, once, in trk's own format.
      outputError: () => {},
    });
    applyToTree(program, (c) => {
      c.exitOverride(noteFailure(c));
      c.configureOutput(program!.configureOutput());
    });
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    const debug = debugEnabled(env, global.verbose);
    const outcome = errorOutcome(err, {
      debug,
      aborted: opts.signal?.aborted === true,
      ...(failedCommand === undefined ? {} : { command: failedCommand }),
    });
    if (outcome.line) writeErr(`trk: ${outcome.line}\n`);
    if (outcome.detail) writeErr(`${sanitizeTerminalText(outcome.detail)}\n`);
    return outcome.exitCode;
  }
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
  const controller = new AbortController();
  let interrupts = 0;
  let echoExpected = false;
  let firstAt = 0;
  const onSigint = () => {
    // conf's atomic writer (when-exit) also listens for SIGINT and re-sends the signal to this process after
    // running its clean-up. That echo arrives right after the first Ctrl-C and must not count as a second one.
    if (interrupts === 1 && echoExpected && Date.now() - firstAt < 1000) {
      echoExpected = false;
      return;
    }
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.interrupted);
    firstAt = Date.now();
    echoExpected = process.listenerCount('SIGINT') > 1;
    process.stderr.write('\ntrk: interrupting: finishing requests in flight (Ctrl-C again to quit at once)\n');
    controller.abort(new InterruptedError());
  };
  // `trk list | head`: the reader went away; there is nobody left to tell.
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? EXIT.ok);
    throw err;
  };
  process.on('SIGINT', onSigint);
  process.stdout.on('error', onStdoutError);
  try {
    return await runCli(argv, { signal: controller.signal });
  } finally {
    process.off('SIGINT', onSigint);
  }
}
