// What command declarations are made of. Declarations are typed with @commander-js/extra-typings, so the options
// object an action receives has one property per declared option, of the type its parser returns: a misspelled
// option key does not compile. A command's file (`commands/<noun>/<verb>.ts`) holds its declaration and action;
// what the action runs is imported when it runs (`lazy`, `runs`: the item engine, a list's reading, undici, conf,
// prompts), or is the file's own run function (`running`) where that loads nothing a declaration should not.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Command as PlainCommand } from 'commander';
import { Argument, InvalidArgumentError, Option } from './commander.js';
import { API_VERSIONS } from '@trk/service/vocabulary.js';
import type { Context, GlobalOptions } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import { OUTPUT_FORMATS, ROW_FORMATS, type OutputFormat } from '../output/format.js';
import { intervalArg } from './common/option-parsers.js';

/** What a command does once its options are parsed: returns the exit code (undefined = 0). */
export type Runner = (ctx: Context) => Promise<number | void>;

/**
 * Runs a command: settles the global options (the program's flags, the profile's default output, the command's own
 * output flags), builds the context from them and calls the runner.
 */
export type Invoker = (load: () => Promise<Runner>, output?: OutputFlags) => Promise<void>;

/** A command as a declaration receives it: named and described by the registry, with no arguments yet. */
// biome-ignore lint/complexity/noBannedTypes: extra-typings writes a command without options as `{}`.
export type BareCommand = Command<[], {}, {}>;

/** Declares one command's arguments, options and action on `cmd`. */
export type Declare = (cmd: BareCommand, invoke: Invoker) => void;

/** Every key of `T`, each given (possibly as undefined): what an action maps its options to. */
export type AllOf<T> = T & { [K in keyof T]-?: unknown };

/**
 * The action of a command: import `load` when it runs, then `run` with its module and the context. `output` are
 * the command's own output flags (--columns, --relative, --no-pager), when it declares them: they join the
 * global options before the context is made, and the renderers read them there.
 */
export function lazy<M>(
  invoke: Invoker,
  load: () => Promise<M>,
  run: (m: M, ctx: Context) => Promise<number | void>,
  output?: OutputFlags,
): Promise<void> {
  return invoke(async () => {
    const m = await load();
    return (ctx) => run(m, ctx);
  }, output);
}

/**
 * The action of a command whose run function sits beside its declaration and imports what it uses when called:
 * `preload` starts that import while the context is made, as lazy's `load` does (Node 20 reads module files
 * asynchronously), so that the run finds it loaded.
 */
export function runs(
  invoke: Invoker,
  preload: () => Promise<unknown>,
  run: Runner,
  output?: OutputFlags,
): Promise<void> {
  return invoke(async () => {
    await preload();
    return run;
  }, output);
}

/** The action of a command whose run function is loaded with its declaration (the two share a file). */
export function running(invoke: Invoker, run: Runner, output?: OutputFlags): Promise<void> {
  return invoke(async () => run, output);
}

/** The output flags a command may declare (see withColumns, relativeOption, pagerOption). */
export interface OutputFlags {
  columns?: string[] | undefined;
  fields?: string[] | undefined;
  relative?: true | undefined;
  pager?: boolean | undefined;
}

/**
 * Puts a command's output flags with the global options, before the context is made from them; --columns with
 * -o ids is refused (ids are ids).
 */
export function applyOutputFlags(global: GlobalOptions, o: OutputFlags): void {
  if (o.columns !== undefined && o.fields !== undefined) {
    throw new UsageError('--columns and --fields are the same flag', 'give one of them');
  }
  const columns = o.columns ?? o.fields;
  if (columns !== undefined) {
    if (global.output === 'ids')
      throw new UsageError('-o ids prints ids, not columns', 'drop --columns, or use another --output');
    global.columns = columns;
  }
  if (o.relative) global.relative = true;
  if (o.pager === false) global.pager = false;
}

export function globalOptions() {
  return [
    new Option('--profile <name>', 'settings profile to use (env TRK_PROFILE)'),
    new Option('--base-url <url>', 'base URL of the service (env TRK_BASE_URL)'),
    new Option('--api-version <version>', 'API version (env TRK_API_VERSION; default v2)').choices(API_VERSIONS),
    new Option('--sandbox', 'run against the embedded service emulator instead of the real service'),
    new Option(
      '-o, --output <format>',
      'output format (default: table on a terminal, tab-separated when piped); wide: a table with every column; ' +
        'ids: what names each row (number and carrier), one a line, for item commands; text: a plain summary of ' +
        'each parcel (info, realtime)',
    ).choices(OUTPUT_FORMATS),
    new Option('--json', 'same as --output json'),
    new Option('--csv', 'same as --output csv'),
    new Option('--header', 'start tab-separated output (piped tables) with a line of the column names, for column -t'),
    new Option(
      '--jq <expr>',
      "filter the JSON output with a jq program, e.g. '.[].number' (implies --json; strings print raw)",
    ),
    new Option('-q, --quiet', 'no status lines on stderr'),
    new Option('-v, --verbose', 'log each request on stderr (also TRK_DEBUG=1)'),
    new Option('-y, --yes', 'answer yes to confirmations (needed to delete or pay for --fresh without a terminal)'),
    new Option('--no-color', 'no colour (also NO_COLOR)'),
    new Option(
      '--timeout <duration>',
      'time limit of each request, e.g. 30s or 2m (env TRK_TIMEOUT; default 30s); a request gives up after ' +
        'three times that, retries included',
    ),
    new Option(
      '--raw-csv',
      'write CSV cells as received, without a quote before cells that start like a formula (=, +, -, @)',
    ),
  ];
}

/** Flags of global options that take a value: what `commandOf` skips to find the command in argv. */
export const GLOBAL_VALUE_FLAGS: ReadonlySet<string> = new Set([
  '--profile',
  '--base-url',
  '--api-version',
  '-o',
  '--output',
  '--timeout',
  '--jq',
]);

// ---- what a command prints ----

const PRINTS = new WeakMap<object, readonly OutputFormat[]>();

/**
 * Declares the output formats a command honours; any other one given by flag (or --jq without json) is refused
 * before it runs (exit 2). `[]`: the command prints no data on stdout. Commands not declared print rows or
 * results through src/output/render.ts, which honours every format of rows (ROW_FORMATS).
 */
export function prints<C extends object>(cmd: C, formats: readonly OutputFormat[]): C {
  PRINTS.set(cmd, formats);
  return cmd;
}

/** The formats `cmd` honours (see prints). */
export function formatsOf(cmd: object): readonly OutputFormat[] {
  return PRINTS.get(cmd) ?? ROW_FORMATS;
}

/**
 * `--columns number,status,tag` (alias `--fields`): the columns to print, in that order, in every format; the
 * valid names show in help and completions. Names are checked when the command line is read.
 */
export function withColumns<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  c: Command<A, O, G>,
  names: readonly string[],
) {
  const parse = (value: string, previous: string[] | undefined): string[] => {
    const out = [...(previous ?? [])];
    for (const part of value.split(',').map((s) => s.trim().toLowerCase())) {
      if (part === '') continue;
      if (!names.includes(part))
        throw new InvalidArgumentError(`unknown column "${part}"; the columns are ${names.join(', ')}.`);
      out.push(part);
    }
    if (out.length === 0) throw new InvalidArgumentError('give at least one column.');
    return out;
  };
  const columns = new Option(
    '--columns <names>',
    'print these columns, comma separated, in every format (alias --fields)',
  ).argParser(parse);
  columns.argChoices = [...names];
  return c.addOption(columns).addOption(new Option('--fields <names>').argParser(parse).hideHelp());
}

/** `--watch` and `--every`: look again until every shipment shown is delivered or returned. */
export function withWatch<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  c: Command<A, O, G>,
  what: string,
) {
  return c
    .addOption(
      new Option(
        '--watch',
        `look again every --every and redraw ${what} when it changed; stop when every shipment is delivered or ` +
          `returned`,
      ),
    )
    .addOption(
      new Option(
        '--every <interval>',
        'pace of --watch, e.g. 30s, 10m, 1h (default 10m; each look is a request)',
      ).argParser(intervalArg),
    );
}

/** `--no-pager`: long output on a terminal is not shown through the pager. */
export const pagerOption = () =>
  new Option('--no-pager', 'print straight to the terminal instead of through the pager (TRK_PAGER, PAGER, less -FRX)');

/** `--relative`: times in tables as ages (`3h ago`). */
export const relativeOption = () =>
  new Option('--relative', 'show times in tables as ages (3h ago) instead of dates in your time zone');

/** The program a command belongs to (fully declared when completion or help runs: see the registry). */
export function rootOf(cmd: BareCommand): PlainCommand {
  let at = cmd as unknown as PlainCommand;
  while (at.parent) at = at.parent;
  return at;
}

export { examples, notes, joined } from './help-layout.js';
export {
  carrierArg,
  carrierOption,
  choiceList,
  choiceOf,
  intervalArg,
  listOf,
  maxLength,
  nonNegativeInt,
  positiveInt,
  repeated,
} from './common/option-parsers.js';
export { Argument, Option };
