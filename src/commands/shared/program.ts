// The command tree: every command, argument and option declared once, with choices kept on the Option
// objects so that help and shell completions are generated from the same data. Registering a command costs
// nothing: each action imports its implementation (and through it undici, conf, prompts, tables) only when
// it runs. This module loads commander and the service's vocabulary, nothing else.

import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import {
  API_VERSIONS,
  DATA_ORIGINS,
  LANGUAGES,
  LIMITS,
  ORDER_BY,
  PACKAGE_STATUSES,
  PUSH_STATUSES,
  TRACKING_STATUSES,
  subStatuses,
} from '../../api/spec.js';
import type { Context } from '../../context.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import type { CarrierFlags } from './carrier-args.js';

/** What a command does once its options are parsed: returns the exit code (undefined = 0). */
export type Runner = (ctx: Context) => Promise<number | void>;

/** Runs a command: builds the context from the program's global options and calls the runner. */
export type Invoker = (load: () => Promise<Runner>) => Promise<void>;

/** Raw values commander parsed for one command. */
type Raw = Record<string, unknown>;

export function globalOptions(): Option[] {
  return [
    new Option('--profile <name>', 'settings profile to use (env TRK_PROFILE)'),
    new Option('--base-url <url>', 'base URL of the service (env TRK_BASE_URL)'),
    new Option('--api-version <version>', 'API version (env TRK_API_VERSION; default v2)').choices(API_VERSIONS),
    new Option('--sandbox', 'run against the embedded service emulator instead of the real service'),
    new Option('-o, --output <format>', 'output format (default: table on a terminal, tab-separated when piped)').choices(
      OUTPUT_FORMATS,
    ),
    new Option('--json', 'same as --output json'),
    new Option('--csv', 'same as --output csv'),
    new Option('-q, --quiet', 'no status lines on stderr'),
    new Option('-v, --verbose', 'log each request on stderr (also TRK_DEBUG=1)'),
    new Option('-y, --yes', 'answer yes to confirmations (needed to delete or pay for --fresh without a terminal)'),
    new Option('--no-color', 'no colour (also NO_COLOR)'),
    new Option('--timeout <duration>', 'time limit of each request, e.g. 30s or 2m (env TRK_TIMEOUT; default 30s); a request gives up after three times that, retries included'),
    new Option('--raw-csv', 'write CSV cells as received, without a quote before cells that start like a formula (=, +, -, @)'),
  ];
}

// ---- argument parsers (run by commander; a bad value is a usage error, exit 2) ----

function positiveInt(what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new InvalidArgumentError(`${what} must be a positive integer.`);
    return Number(value);
  };
}

function nonNegativeInt(what: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`${what} must be an integer.`);
    return Number(value);
  };
}

/** A carrier code or name, kept as typed: names become codes when the command runs (see carrier-args.ts). */
function carrierArg(value: string): string {
  const t = value.trim();
  if (t === '') throw new InvalidArgumentError('give a carrier code or name.');
  return t;
}

/**
 * `--number A,B --number C` → [A, B, C]. An empty value is refused: `--number "$EMPTY"` must not turn into no
 * filter at all, which would list (and hand on to a pipe) every record of the account.
 */
function listOf(what: string) {
  return (value: string, previous: string[] | undefined): string[] => {
    const parts = value
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (parts.length === 0) throw new InvalidArgumentError(`give at least one ${what}.`);
    return [...(previous ?? []), ...parts];
  };
}

function maxLength(what: string, max: number) {
  return (value: string): string => {
    if (value.length > max) throw new InvalidArgumentError(`${what} is at most ${max} characters.`);
    return value;
  };
}

const fileOption = () =>
  new Option('-f, --file <file>', "read numbers from a file (- for stdin): CSV or TSV with a header (number, carrier, tag, ...), one number a line, or trk's own JSON/NDJSON output");
// Every source (arguments, a pipe, -f) goes through the item engine (src/items/): checked first, at the service's
// ceiling, exactly once; files and pipes are also journaled (resumable) and remembered (not sent twice).
const dryRunOption = () => new Option('--dry-run', 'check the input and report requests, time and the quota a run needs; send nothing');
const restartOption = () => new Option('--restart', 'start over instead of resuming an interrupted run of the same input');
const againOption = () => new Option('--again', 'send an input that was fully sent before (runs are remembered, so a re-run does not pay twice)');
const rejectsOption = () =>
  new Option('--rejects <file>', 'write rejected and set-aside rows here: the input columns plus input_line, error_code, error_message');
const skipInvalidOption = () =>
  new Option('--skip-invalid', 'send the valid rows and set the invalid ones aside (in --rejects FILE, or listed), exit 3');
const columnOption = () =>
  new Option('--column <name=field>', 'read the input column NAME as FIELD, e.g. tracking_no=number (repeatable)').argParser(
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  );
const carrierOption = (what = 'carrier code or name') => new Option('--carrier <carrier>', what).argParser(carrierArg);
const numbersArgument = () => new Argument('[numbers...]', 'tracking numbers (or -f FILE, or piped on stdin)');

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const flag = (v: unknown): boolean => v === true;

/** Options shared by item commands: numbers from arguments or a file, and an optional carrier (resolved). */
function itemSource(numbers: string[], o: Raw, carrier: number | undefined) {
  return { numbers, file: str(o.file), carrier, ...engineFlags(o) };
}

/** The item engine's flags. */
function engineFlags(o: Raw) {
  return {
    dryRun: flag(o.dryRun),
    restart: flag(o.restart),
    again: flag(o.again),
    rejects: str(o.rejects),
    skipInvalid: flag(o.skipInvalid),
    columns: Array.isArray(o.column) ? (o.column as string[]) : undefined,
  };
}

/** The engine's options, on an item command (reads are not remembered: no --restart or --again). */
function engineOptions(c: Command, kind: 'write' | 'read' = 'write'): Command {
  c.addOption(fileOption()).addOption(dryRunOption());
  if (kind === 'write') c.addOption(restartOption()).addOption(againOption());
  return c.addOption(rejectsOption()).addOption(skipInvalidOption()).addOption(columnOption());
}

/** Codes of carrier flags given as codes or names; resolved at run time since a name needs the carrier list. */
async function carrierCodes<K extends string>(ctx: Context, flags: CarrierFlags<K>): Promise<Record<K, number | undefined>> {
  const { resolveCarrierFlags } = await import('./carrier-args.js');
  return resolveCarrierFlags(ctx, flags);
}

const carrierFlag = (o: Raw) => ({ carrier: ['--carrier', o.carrier] as const });

/** What the sections of the command tree add their commands with. */
interface Tree {
  invoke: Invoker;
  cmd(name: string, description: string): Command;
  /** A command with subcommands (auth, config, sandbox, webhook): its `help` subcommand worded like trk's own. */
  group(name: string, description: string): Command;
}

export function buildProgram(invoke: Invoker, version: string): Command {
  const program = new Command('trk');
  program
    .description('Operate a parcel-tracking service account: register, list, inspect, stop, retrack, delete and push tracking numbers.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false });
  for (const option of globalOptions()) program.addOption(option);

  const cmd = (name: string, description: string) => program.command(name).description(description);
  const tree: Tree = {
    invoke,
    cmd,
    group: (name, description) => cmd(name, description).helpCommand('help [command]', 'show help for a command'),
  };
  // In this order in `trk --help`.
  itemCommands(tree);
  settingsCommands(tree);
  sandboxCommands(tree);
  referenceCommands(tree);

  // ---- shell completion ----

  cmd('completion', 'print the completion script for bash, zsh or fish (see the README to install it)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .addHelpText('after', '\nExamples:\n  trk completion bash > ~/.local/share/bash-completion/completions/trk\n  trk completion fish > ~/.config/fish/completions/trk.fish')
    .action((shell: 'bash' | 'zsh' | 'fish') =>
      invoke(async () => {
        const { runCompletion } = await import('../completion.js');
        return (ctx) => runCompletion({ shell, program }, ctx);
      }),
    );
  program
    .command('__complete', { hidden: true })
    .argument('<kind>')
    .action((kind: string) =>
      invoke(async () => {
        const { runCompleteValues } = await import('../completion.js');
        return (ctx) => runCompleteValues({ kind }, ctx);
      }),
    );

  // ---- help ----

  program
    .command('help')
    .description('show help for a command, or a topic: exit-codes')
    .argument('[topic...]', 'a command (e.g. "list", "auth login") or "exit-codes"')
    .action((topic: string[]) =>
      invoke(async () => {
        const { runHelp } = await import('../help.js');
        return (ctx) => runHelp({ topic, program }, ctx);
      }),
    );

  return program;
}

// ---- item commands ----

function itemCommands({ cmd, invoke }: Tree): void {
  engineOptions(cmd('register', 'register tracking numbers for automatic tracking (costs quota)').addArgument(numbersArgument()))
    .addOption(carrierOption('carrier code or name (default: detected by the service)'))
    .option('--param <value>', 'extra tracking parameter some carriers need, e.g. US-10001')
    .addOption(new Option('--tag <text>', 'your own tag (at most 100 characters)').argParser(maxLength('a tag', LIMITS.tagMaxLength)))
    .addOption(new Option('--lang <code>', 'translate events into this language (1 extra quota unit)').choices(LANGUAGES))
    .addOption(new Option('--email <address>', 'customer e-mail for notifications').argParser(maxLength('an e-mail', LIMITS.emailMaxLength)))
    .addOption(new Option('--final-carrier <carrier>', 'last-mile carrier code or name (postal numbers only)').argParser(carrierArg))
    .option('--no-auto-detection', 'do not let the service guess the carrier when --carrier is not given')
    .option('--order-no <text>', 'order number (v2.1)')
    .option('--order-time <time>', 'order date or time (v2.1)')
    .addOption(new Option('--remark <text>', 'remark (v2.1, at most 1000 characters)').argParser(maxLength('a remark', LIMITS.remarkMaxLength)))
    .addHelpText('after', '\nExamples:\n  trk register RR123456789CN --carrier 3011\n  trk register -f numbers.txt --tag batch-7\n  cut -d, -f1 orders.csv | trk register --json')
    .action((numbers: string[], o: Raw) =>
      invoke(async () => {
        const { runRegister } = await import('../register.js');
        return async (ctx) => {
          const codes = await carrierCodes(ctx, { ...carrierFlag(o), finalCarrier: ['--final-carrier', o.finalCarrier] });
          return runRegister(
            {
              ...itemSource(numbers, o, codes.carrier),
              param: str(o.param),
              tag: str(o.tag),
              lang: str(o.lang),
              email: str(o.email),
              finalCarrier: codes.finalCarrier,
              autoDetection: o.autoDetection !== false,
              orderNo: str(o.orderNo),
              orderTime: str(o.orderTime),
              remark: str(o.remark),
            },
            ctx,
          );
        };
      }),
    );

  const simpleItemCommand = (name: 'stop' | 'retrack' | 'delete' | 'push', description: string, example: string) => {
    const c = engineOptions(cmd(name, description).addArgument(numbersArgument())).addOption(
      carrierOption('only the record under this carrier, a code or name (default: every carrier the number is registered with)'),
    );
    if (name === 'delete') c.option('--ignore-missing', 'count a number that is not registered as deleted (exit 0) instead of rejected');
    return c.addHelpText('after', `\nExamples:\n${example}`).action((numbers: string[], o: Raw) =>
      invoke(async () => {
        const { runItemAction } = await import('../item-action.js');
        return async (ctx) =>
          runItemAction(name, { ...itemSource(numbers, o, (await carrierCodes(ctx, carrierFlag(o))).carrier), ignoreMissing: flag(o.ignoreMissing) }, ctx);
      }),
    );
  };
  simpleItemCommand('stop', 'stop automatic tracking of numbers', '  trk stop RR123456789CN');
  simpleItemCommand('retrack', 'restart tracking of stopped numbers (once per number)', '  trk retrack RR123456789CN');
  simpleItemCommand(
    'delete',
    'delete numbers from the account (irreversible; asks first, or needs --yes)',
    '  trk delete RR123456789CN\n  trk delete -f old.txt --yes',
  );
  simpleItemCommand('push', 'queue a webhook notification of the current result', '  trk push RR123456789CN');

  cmd('list', 'list registered numbers, every page (gettracklist)')
    .addOption(new Option('--status <status>', 'main package status').choices(PACKAGE_STATUSES))
    .addOption(carrierOption())
    .addOption(new Option('--tracking <state>', 'tracking state').choices(TRACKING_STATUSES))
    .addOption(new Option('--origin <origin>', 'how the number was registered').choices(DATA_ORIGINS))
    .option('--registered-since <time>', 'registered at or after (ISO time, or 7d, 12h, 30m, 2w ago)')
    .option('--registered-until <time>', 'registered at or before')
    .option('--tracked-since <time>', 'last tracked at or after')
    .option('--tracked-until <time>', 'last tracked at or before')
    .option('--pushed-since <time>', 'last pushed at or after')
    .option('--pushed-until <time>', 'last pushed at or before')
    .addOption(new Option('--push-status <status>', 'result of the last webhook push').choices(PUSH_STATUSES))
    .addOption(new Option('--push-code <code>', 'HTTP status the webhook answered').argParser(nonNegativeInt('an HTTP status')))
    .option('--stopped-since <time>', 'tracking stopped at or after')
    .option('--stopped-until <time>', 'tracking stopped at or before')
    .addOption(
      new Option('--number <numbers>', `only these numbers (comma separated or repeated, at most ${LIMITS.listNumberFilterMax}; one number matches partially)`).argParser(
        listOf('tracking number'),
      ),
    )
    .addOption(new Option('--order-by <order>', 'sort order').choices(ORDER_BY))
    .addOption(new Option('--limit <n>', 'stop after n records').argParser(positiveInt('--limit')))
    .addOption(new Option('--page <n>', `only this page (${LIMITS.pageSize} records a page)`).argParser(positiveInt('--page')))
    .addHelpText(
      'after',
      '\nExamples:\n  trk list --status Delivered --json\n  trk list --registered-since 7d --tracking Tracking --csv > week.csv\n  trk list --number RR123456789CN,LX987654321CN',
    )
    .action((o: Raw) =>
      invoke(async () => {
        const { runList } = await import('../list.js');
        return async (ctx) =>
          runList(
            {
              status: str(o.status),
              carrier: (await carrierCodes(ctx, carrierFlag(o))).carrier,
              tracking: str(o.tracking),
              origin: str(o.origin),
              registeredSince: str(o.registeredSince),
              registeredUntil: str(o.registeredUntil),
              trackedSince: str(o.trackedSince),
              trackedUntil: str(o.trackedUntil),
              pushedSince: str(o.pushedSince),
              pushedUntil: str(o.pushedUntil),
              pushStatus: str(o.pushStatus),
              pushCode: num(o.pushCode),
              stoppedSince: str(o.stoppedSince),
              stoppedUntil: str(o.stoppedUntil),
              numbers: Array.isArray(o.number) ? (o.number as string[]) : undefined,
              orderBy: str(o.orderBy),
              limit: num(o.limit),
              page: num(o.page),
            },
            ctx,
          );
      }),
    );

  engineOptions(cmd('info', 'show stored tracking details of numbers (gettrackinfo)').addArgument(numbersArgument()), 'read')
    .addOption(carrierOption('only the record under this carrier (code or name)'))
    .addOption(new Option('--status <status>', 'show only numbers whose latest main status is this').choices(PACKAGE_STATUSES))
    .addOption(
      new Option('--sub-status <sub-status>', 'show only numbers whose latest sub-status is this').choices(subStatuses('v2.1')),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  trk info RR123456789CN\n  trk info -f numbers.txt --csv > details.csv\n  trk info -f numbers.txt --sub-status Exception_Lost --json',
    )
    .action((numbers: string[], o: Raw) =>
      invoke(async () => {
        const { runInfo } = await import('../info.js');
        return async (ctx) =>
          runInfo(
            {
              ...itemSource(numbers, o, (await carrierCodes(ctx, carrierFlag(o))).carrier),
              status: str(o.status),
              subStatus: str(o.subStatus),
            },
            ctx,
          );
      }),
    );

  cmd('quota', 'show the quota of the account')
    .action(() =>
      invoke(async () => {
        const { runQuota } = await import('../quota.js');
        return (ctx) => runQuota({}, ctx);
      }),
    );

  cmd('realtime', 'fetch current tracking data of one number from the carrier (costs quota)')
    .argument('<number>', 'tracking number')
    .addOption(carrierOption('carrier code or name (default: detected by the service)'))
    .option('--param <value>', 'extra tracking parameter')
    .addOption(new Option('--final-carrier <carrier>', 'last-mile carrier code or name').argParser(carrierArg))
    .option('--fresh', 'fetch from the carrier now instead of a result up to 3 hours old (10 quota units instead of 1)')
    .addHelpText('after', '\nExamples:\n  trk realtime RR123456789CN\n  trk realtime RR123456789CN --fresh --yes --json')
    .action((number: string, o: Raw) =>
      invoke(async () => {
        const { runRealtime } = await import('../realtime.js');
        return async (ctx) => {
          const codes = await carrierCodes(ctx, { ...carrierFlag(o), finalCarrier: ['--final-carrier', o.finalCarrier] });
          return runRealtime({ number, carrier: codes.carrier, param: str(o.param), finalCarrier: codes.finalCarrier, fresh: flag(o.fresh) }, ctx);
        };
      }),
    );

  engineOptions(cmd('change-carrier', 'change the carrier or last-mile carrier of numbers (at most 5 times each)').addArgument(numbersArgument()))
    .addOption(new Option('--to <carrier>', 'new carrier code or name').argParser(carrierArg))
    .addOption(
      new Option('--from <carrier>', 'current carrier code or name (needed when the number is registered under several)').argParser(carrierArg),
    )
    .addOption(new Option('--final-to <carrier>', 'new last-mile carrier code or name').argParser(carrierArg))
    .addOption(new Option('--final-from <carrier>', 'current last-mile carrier code or name').argParser(carrierArg))
    .addHelpText('after', '\nExamples:\n  trk change-carrier RR123456789CN --to 3011\n  trk change-carrier RR123456789CN --to "Yanwen"')
    .action((numbers: string[], o: Raw) =>
      invoke(async () => {
        const { runChangeCarrier } = await import('../change-carrier.js');
        return async (ctx) => {
          const codes = await carrierCodes(ctx, {
            to: ['--to', o.to],
            from: ['--from', o.from],
            finalTo: ['--final-to', o.finalTo],
            finalFrom: ['--final-from', o.finalFrom],
          });
          return runChangeCarrier({ numbers, file: str(o.file), ...engineFlags(o), ...codes }, ctx);
        };
      }),
    );

  engineOptions(cmd('update', 'change the tag, parameter or translation language of numbers (changeinfo)').addArgument(numbersArgument()))
    .addOption(carrierOption('only the record under this carrier (code or name)'))
    .addOption(new Option('--tag <text>', 'new tag').argParser(maxLength('a tag', LIMITS.tagMaxLength)))
    .option('--param <value>', 'new extra tracking parameter')
    .addOption(new Option('--lang <code>', 'new translation language').choices(LANGUAGES))
    .addHelpText('after', '\nExamples:\n  trk update RR123456789CN --tag returned-goods')
    .action((numbers: string[], o: Raw) =>
      invoke(async () => {
        const { runUpdate } = await import('../update.js');
        return async (ctx) =>
          runUpdate(
            {
              ...itemSource(numbers, o, (await carrierCodes(ctx, carrierFlag(o))).carrier),
              tag: str(o.tag),
              param: str(o.param),
              lang: str(o.lang),
            },
            ctx,
          );
      }),
    );

  cmd('api', "send a raw request and print the service's answer as JSON")
    .argument('<operation>', 'operation name, e.g. gettracklist, register, getquota')
    .option('-d, --data <json>', 'request body as JSON, or - to read it from stdin (default: [] or {} for gettracklist)')
    .addHelpText('after', '\nExamples:\n  trk api getquota\n  trk api gettracklist --data \'{"package_status":"Delivered","page_no":2}\'')
    .action((operation: string, o: Raw) =>
      invoke(async () => {
        const { runApi } = await import('../api.js');
        return (ctx) => runApi({ operation, data: str(o.data) }, ctx);
      }),
    );
}

// ---- credentials and settings ----

function settingsCommands({ group, invoke }: Tree): void {
  const auth = group('auth', 'log in, show or remove the stored API key');
  auth
    .command('login')
    .description('verify an API key and save it with the base URL and API version in the profile')
    .option('--with-key-stdin', 'read the API key from stdin instead of asking for it')
    .addHelpText('after', '\nExamples:\n  trk auth login\n  trk auth login --with-key-stdin < key.txt\n  trk auth login --profile staging --base-url https://staging.example.com')
    .action((o: Raw) =>
      invoke(async () => {
        const { runAuthLogin } = await import('../auth.js');
        return (ctx) => runAuthLogin({ withKeyStdin: flag(o.withKeyStdin) }, ctx);
      }),
    );
  auth
    .command('status')
    .description('show the profile, each setting and where it came from (the key masked)')
    .action(() =>
      invoke(async () => {
        const { runAuthStatus } = await import('../auth.js');
        return (ctx) => runAuthStatus({}, ctx);
      }),
    );
  auth
    .command('logout')
    .description('remove the API key from the profile')
    .action(() =>
      invoke(async () => {
        const { runAuthLogout } = await import('../auth.js');
        return (ctx) => runAuthLogout({}, ctx);
      }),
    );

  const config = group('config', 'read and change settings of the profile');
  config
    .command('get')
    .description('print one setting')
    .argument('<key>', 'setting name (see "trk config list")')
    .action((key: string) =>
      invoke(async () => {
        const { runConfigGet } = await import('../config.js');
        return (ctx) => runConfigGet({ key }, ctx);
      }),
    );
  config
    .command('set')
    .description('change one setting of the profile (the API key is set with "trk auth login")')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .addHelpText('after', '\nExamples:\n  trk config set api-version v2.1\n  trk config set base-url https://staging.example.com --profile staging')
    .action((key: string, value: string) =>
      invoke(async () => {
        const { runConfigSet } = await import('../config.js');
        return (ctx) => runConfigSet({ key, value }, ctx);
      }),
    );
  config
    .command('list')
    .description('print every setting with its value and where it came from')
    .action(() =>
      invoke(async () => {
        const { runConfigList } = await import('../config.js');
        return (ctx) => runConfigList({}, ctx);
      }),
    );
}

// ---- the emulator ----

function sandboxCommands({ group, invoke }: Tree): void {
  const sandbox = group('sandbox', 'run the service emulator locally');
  const share = (what: string) => (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !(n >= 0 && n <= 1)) throw new InvalidArgumentError(`${what} must be a number from 0 to 1.`);
    return n;
  };
  const positiveNumber = (what: string) => (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !(n >= 0) || !Number.isFinite(n)) throw new InvalidArgumentError(`${what} must be a number >= 0.`);
    return n;
  };
  sandbox
    .command('start')
    .description('run the emulator in the foreground until Ctrl-C; prints TRK_BASE_URL and TRK_API_KEY on stdout')
    .addOption(new Option('--port <port>', 'port to listen on (default: a free port)').argParser(nonNegativeInt('a port')))
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .option('--key <key>', 'API key the emulator accepts (default sandbox-key; a test key, not a secret)')
    .option('--webhook <url>', 'webhook URL the account pushes notifications to')
    .addOption(new Option('--speed <factor>', 'simulated seconds per real second (default 1)').argParser(positiveNumber('--speed')))
    .option('--state <file>', 'state file (default <state dir>/sandbox.json)')
    .option('--no-state', 'keep the state in memory only')
    .option('--start <time>', 'simulated start time of a new sandbox (ISO)')
    .addOption(new Option('--latency <ms>', 'delay every answer').argParser(nonNegativeInt('--latency')))
    .addOption(new Option('--jitter <ms>', 'random extra delay up to this').argParser(nonNegativeInt('--jitter')))
    .addOption(new Option('--failure-rate <share>', 'share of requests answered 500/503 (0..1)').argParser(share('--failure-rate')))
    .addOption(new Option('--drop-rate <share>', 'share of requests processed whose answer is lost (0..1)').argParser(share('--drop-rate')))
    .addOption(new Option('--burst-429 <n>', 'answer 429 to the next n requests').argParser(nonNegativeInt('--burst-429')))
    .addOption(new Option('--burst-every <ms>', 'periodic 429 bursts every this many ms').argParser(nonNegativeInt('--burst-every')))
    .addOption(new Option('--burst-for <ms>', '...each lasting this many ms').argParser(nonNegativeInt('--burst-for')))
    .option('--no-retry-after', 'answer 429 without Retry-After')
    .addOption(new Option('--rate-limit <n>', 'requests per second per key (default 3; 0 = off)').argParser(nonNegativeInt('--rate-limit')))
    .addOption(new Option('--quota <n>', 'total quota of the account').argParser(nonNegativeInt('--quota')))
    .addOption(new Option('--daily-cap <n>', 'daily registration cap (0 = none)').argParser(nonNegativeInt('--daily-cap')))
    .addOption(new Option('--ip-allow <addresses>', 'IP whitelist (addresses or CIDR, comma separated or repeated)').argParser(listOf('address')))
    .option('--disabled', 'answer every request as a disabled account (401)')
    .option('--no-realtime', 'refuse real-time queries (-18019912)')
    .addOption(new Option('--tick <ms>', "real ms between the account's scheduler runs (default 1000)").argParser(positiveInt('--tick')))
    .addOption(new Option('--seed <n>', 'seed of the fault generator, to replay a rehearsal').argParser(nonNegativeInt('--seed')))
    .option('--numeric-metrics', 'days_after_order 0 instead of "--" for numbers without a result (typed clients)')
    .option('--strict-paths', "only the spec's exact paths: no slash or letter-case leniency")
    .option('--log', 'one line per request on stderr: time, version, operation, items, outcome, injected faults')
    // The printed lines are plain NAME=value (what env files of docker and systemd take too): sourcing them
    // needs `set -a` so that trk, a child of the shell, sees them.
    .addHelpText(
      'after',
      '\nExamples:\n  trk sandbox start --speed 3600 > sandbox.env &\n  sleep 1; set -a; . ./sandbox.env; set +a\n  trk register RR123456789CN',
    )
    .action((o: Raw) =>
      invoke(async () => {
        const { runSandboxStart } = await import('../sandbox.js');
        const opts: Record<string, unknown> = {
          port: num(o.port),
          host: str(o.host),
          key: str(o.key),
          webhook: str(o.webhook),
          speed: num(o.speed),
          state: o.state === false ? false : str(o.state),
          start: str(o.start),
          latency: num(o.latency),
          jitter: num(o.jitter),
          failureRate: num(o.failureRate),
          dropRate: num(o.dropRate),
          burst429: num(o.burst429),
          burstEvery: num(o.burstEvery),
          burstFor: num(o.burstFor),
          retryAfter: o.retryAfter === false ? false : undefined,
          rateLimit: num(o.rateLimit),
          quota: num(o.quota),
          dailyCap: num(o.dailyCap),
          ipAllow: Array.isArray(o.ipAllow) ? (o.ipAllow as string[]) : undefined,
          disabled: o.disabled === true ? true : undefined,
          realtime: o.realtime === false ? false : undefined,
          tick: num(o.tick),
          seed: num(o.seed),
          numericMetrics: o.numericMetrics === true ? true : undefined,
          strictPaths: o.strictPaths === true ? true : undefined,
          log: o.log === true ? true : undefined,
        };
        for (const k of Object.keys(opts)) if (opts[k] === undefined) delete opts[k];
        return (ctx) => runSandboxStart(opts, ctx);
      }),
    );
  sandbox
    .command('reset')
    .description('forget every number, the quota used and the clock of the emulator')
    .option('--state <file>', 'state file (default <state dir>/sandbox.json)')
    .action((o: Raw) =>
      invoke(async () => {
        const { runSandboxReset } = await import('../sandbox.js');
        const state = str(o.state);
        return (ctx) => runSandboxReset(state === undefined ? {} : { state }, ctx);
      }),
    );
}

// ---- reference lists and webhooks ----

function referenceCommands({ cmd, group, invoke }: Tree): void {
  cmd('carriers', "search the service's carrier list (codes and names)")
    .argument('[query]', 'a code, a name or part of one, or a country code')
    .option('--refresh', 'fetch the list again even when the cached copy is fresh')
    .addHelpText('after', '\nExamples:\n  trk carriers dhl\n  trk carriers 3011 --json')
    .action((query: string | undefined, o: Raw) =>
      invoke(async () => {
        const { runCarriers } = await import('../carriers.js');
        return (ctx) => runCarriers({ query, refresh: flag(o.refresh) }, ctx);
      }),
    );
  cmd('countries', "search the service's country list")
    .argument('[query]', 'a key, a name or part of one, or an ISO code')
    .option('--refresh', 'fetch the lists again even when the cached copies are fresh')
    .addHelpText('after', '\nExamples:\n  trk countries brazil\n  trk countries BR')
    .action((query: string | undefined, o: Raw) =>
      invoke(async () => {
        const { runCountries } = await import('../countries.js');
        return (ctx) => runCountries({ query, refresh: flag(o.refresh) }, ctx);
      }),
    );

  const webhook = group('webhook', 'check notifications the service sends to the webhook URL');
  webhook
    .command('verify')
    .description("check a notification's signature against the API key")
    .requiredOption('--body <file>', 'file holding the body exactly as received (- for stdin)')
    .option('--sign <value>', 'value of the sign header (v2, v2.1)')
    .option('--v1', 'apply the v1 rule (the sign is in the body)')
    .addHelpText('after', '\nExamples:\n  trk webhook verify --body body.json --sign 3f1c...\n  trk webhook verify --body body.json --v1')
    .action((o: Raw) =>
      invoke(async () => {
        const { runWebhookVerify } = await import('../webhook.js');
        return (ctx) => runWebhookVerify({ body: str(o.body) ?? '-', sign: str(o.sign), v1: flag(o.v1) }, ctx);
      }),
    );
  webhook
    .command('listen')
    .description('receive notifications, verify their signatures and print them (optionally forward them)')
    .addOption(new Option('--port <port>', 'port to listen on').argParser(nonNegativeInt('a port')))
    .option('--host <address>', 'address to listen on')
    .option('--path <path>', 'URL path to accept notifications on')
    .option('--forward-to <url>', 'forward each verified notification to this URL')
    .option('--save <dir>', 'save each body in this folder')
    .option('--skip-verify', 'accept every notification, reporting whether its signature held')
    .addHelpText('after', '\nExamples:\n  trk webhook listen --port 4242 --forward-to http://localhost:3000/hook --save ./hooks')
    .action((o: Raw) =>
      invoke(async () => {
        const { runWebhookListen } = await import('../webhook.js');
        return (ctx) =>
          runWebhookListen(
            {
              port: num(o.port),
              host: str(o.host),
              path: str(o.path),
              forwardTo: str(o.forwardTo),
              save: str(o.save),
              skipVerify: flag(o.skipVerify),
            },
            ctx,
          );
      }),
    );
}
