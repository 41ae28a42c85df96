// What command declarations are made of. Declarations are typed with @commander-js/extra-typings, so the options
// object an action receives has one property per declared option, of the type its parser returns: a misspelled
// option key does not compile. A declaration module loads commander and the service's vocabulary, nothing
// else; its action imports the run module (and through it undici, conf, prompts, tables) only when it runs.

import { Argument, InvalidArgumentError, Option, type Command } from '@commander-js/extra-typings';
import { API_VERSIONS } from '../api/spec.js';
import type { Context } from '../context.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/format.js';

/** What a command does once its options are parsed: returns the exit code (undefined = 0). */
export type Runner = (ctx: Context) => Promise<number | void>;

/** Runs a command: builds the context from the program's global options and calls the runner. */
export type Invoker = (load: () => Promise<Runner>) => Promise<void>;

/** A command as a declaration receives it: named and described by the registry, with no arguments yet. */
export type BareCommand = Command<[], {}, {}>;

/** Declares one command's arguments, options and action on `cmd`. */
export type Declare = (cmd: BareCommand, invoke: Invoker) => void;

/** Every key of `T`, each given (possibly as undefined): what an action maps its options to. */
export type AllOf<T> = T & { [K in keyof T]-?: unknown };

/** The action of a command: import `load` when it runs, then `run` with its module and the context. */
export function lazy<M>(invoke: Invoker, load: () => Promise<M>, run: (m: M, ctx: Context) => Promise<number | void>): Promise<void> {
  return invoke(async () => {
    const m = await load();
    return (ctx) => run(m, ctx);
  });
}

export function globalOptions() {
  return [
    new Option('--profile <name>', 'settings profile to use (env TRK_PROFILE)'),
    new Option('--base-url <url>', 'base URL of the service (env TRK_BASE_URL)'),
    new Option('--api-version <version>', 'API version (env TRK_API_VERSION; default v2)').choices(API_VERSIONS),
    new Option('--sandbox', 'run against the embedded service emulator instead of the real service'),
    new Option('-o, --output <format>', 'output format (default: table on a terminal, tab-separated when piped)').choices(OUTPUT_FORMATS),
    new Option('--json', 'same as --output json'),
    new Option('--csv', 'same as --output csv'),
    new Option('--jq <expr>', "filter the JSON output with a jq program, e.g. '.[].number' (implies --json; strings print raw)"),
    new Option('-q, --quiet', 'no status lines on stderr'),
    new Option('-v, --verbose', 'log each request on stderr (also TRK_DEBUG=1)'),
    new Option('-y, --yes', 'answer yes to confirmations (needed to delete or pay for --fresh without a terminal)'),
    new Option('--no-color', 'no colour (also NO_COLOR)'),
    new Option(
      '--timeout <duration>',
      'time limit of each request, e.g. 30s or 2m (env TRK_TIMEOUT; default 30s); a request gives up after three times that, retries included',
    ),
    new Option('--raw-csv', 'write CSV cells as received, without a quote before cells that start like a formula (=, +, -, @)'),
  ];
}

/** Flags of global options that take a value: what `commandOf` skips to find the command in argv. */
export const GLOBAL_VALUE_FLAGS: ReadonlySet<string> = new Set(['--profile', '--base-url', '--api-version', '-o', '--output', '--timeout', '--jq']);

// ---- what a command prints ----

const PRINTS = new WeakMap<object, readonly OutputFormat[]>();

/**
 * Declares the output formats a command honours; any other one given by flag (or --jq without json) is refused
 * before it runs (exit 2). `[]`: the command prints no data on stdout. Commands not declared print rows or
 * results through src/output/render.ts, which honours every format.
 */
export function prints<C extends object>(cmd: C, formats: readonly OutputFormat[]): C {
  PRINTS.set(cmd, formats);
  return cmd;
}

/** The formats `cmd` honours (see prints). */
export function formatsOf(cmd: object): readonly OutputFormat[] {
  return PRINTS.get(cmd) ?? OUTPUT_FORMATS;
}

// ---- argument parsers (run by commander; a bad value is a usage error, exit 2) ----

export function positiveInt(what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new InvalidArgumentError(`${what} must be a positive integer.`);
    return Number(value);
  };
}

export function nonNegativeInt(what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${what} must be an integer.`);
    return Number(value);
  };
}

/** A carrier code or name, kept as typed: names become codes when the command runs (see shared/carrier-args.ts). */
export function carrierArg(value: string): string {
  const t = value.trim();
  if (t === '') throw new InvalidArgumentError('give a carrier code or name.');
  return t;
}

/**
 * `--number A,B --number C` → [A, B, C]. An empty value is refused: `--number "$EMPTY"` must not turn into no
 * filter at all, which would list (and hand on to a pipe) every record of the account.
 */
export function listOf(what: string) {
  return (value: string, previous: string[] | undefined): string[] => {
    const parts = value
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0) throw new InvalidArgumentError(`give at least one ${what}.`);
    return [...(previous ?? []), ...parts];
  };
}

/** Every value of a repeated option, as given. */
export function repeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function maxLength(what: string, max: number) {
  return (value: string): string => {
    if (value.length > max) throw new InvalidArgumentError(`${what} is at most ${max} characters.`);
    return value;
  };
}

export const carrierOption = (what = 'carrier code or name') => new Option('--carrier <carrier>', what).argParser(carrierArg);

/** Examples shown after a command's help. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

export { Argument, Option };
