// Declaration of `trk sandbox`: the service emulator as a foreground process, and forgetting its state.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import { InvalidArgumentError } from '../commander.js';
import {
  examples,
  lazy,
  listOf,
  nonNegativeInt,
  Option,
  positiveInt,
  prints,
  type AllOf,
  type Declare,
} from '../define.js';
import type { SandboxStartOptions } from './sandbox.js';

const share =
  (what: string) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !(n >= 0 && n <= 1))
      throw new InvalidArgumentError(`${what} must be a number from 0 to 1.`);
    return n;
  };

const nonNegativeNumber =
  (what: string) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !(n >= 0) || !Number.isFinite(n))
      throw new InvalidArgumentError(`${what} must be a number >= 0.`);
    return n;
  };

/** The faults `trk sandbox start` can inject: latency, failures, lost answers, 429 bursts, overlapping pages. */
function withFaults<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
  return c
    .addOption(new Option('--latency <ms>', 'delay every answer').argParser(nonNegativeInt('--latency')))
    .addOption(new Option('--jitter <ms>', 'random extra delay up to this').argParser(nonNegativeInt('--jitter')))
    .addOption(
      new Option('--failure-rate <share>', 'share of requests answered 500/503 (0..1)').argParser(
        share('--failure-rate'),
      ),
    )
    .addOption(
      new Option('--drop-rate <share>', 'share of requests processed whose answer is lost (0..1)').argParser(
        share('--drop-rate'),
      ),
    )
    .addOption(
      new Option('--burst-429 <n>', 'answer 429 to the next n requests').argParser(nonNegativeInt('--burst-429')),
    )
    .addOption(
      new Option('--burst-every <ms>', 'periodic 429 bursts every this many ms').argParser(
        nonNegativeInt('--burst-every'),
      ),
    )
    .addOption(new Option('--burst-for <ms>', '...each lasting this many ms').argParser(nonNegativeInt('--burst-for')))
    .option('--no-retry-after', 'answer 429 without Retry-After')
    .addOption(
      new Option('--page-overlap <n>', 'list pages repeat n records of the page before').argParser(
        nonNegativeInt('--page-overlap'),
      ),
    );
}

/**
 * `trk sandbox start`: the emulator's options, each a knob of its behaviour or a fault to inject. The printed lines
 * are plain NAME=value (what env files of docker and systemd take too): sourcing them needs `set -a` so that trk, a
 * child of the shell, sees them.
 */
const declareStart: Declare = (cmd, invoke) => {
  // NAME=value lines by default (env files), or one JSON object.
  const started = prints(cmd.command('start'), ['json', 'ndjson'])
    .description(
      'run the emulator in the foreground until Ctrl-C; prints TRK_BASE_URL, TRK_API_KEY and TRK_RES_URL on stdout',
    )
    .addOption(
      new Option('--port <port>', 'port to listen on (default: a free port)').argParser(nonNegativeInt('a port')),
    )
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .option('--key <key>', 'API key the emulator accepts (default sandbox-key; a test key, not a secret)')
    .option('--webhook <url>', 'webhook URL the account pushes notifications to')
    .addOption(
      new Option('--speed <factor>', 'simulated seconds per real second (default 1)').argParser(
        nonNegativeNumber('--speed'),
      ),
    )
    .option('--state <file>', 'state file (default <state dir>/sandbox.json)')
    .option('--no-state', 'keep the state in memory only')
    .option('--start <time>', 'simulated start time of a new sandbox (ISO)');
  withFaults(started)
    .addOption(
      new Option('--rate-limit <n>', 'requests per second per key (default 3; 0 = off)').argParser(
        nonNegativeInt('--rate-limit'),
      ),
    )
    .addOption(new Option('--quota <n>', 'total quota of the account').argParser(nonNegativeInt('--quota')))
    .addOption(
      new Option('--daily-cap <n>', 'daily registration cap (0 = none)').argParser(nonNegativeInt('--daily-cap')),
    )
    .addOption(
      new Option('--ip-allow <addresses>', 'IP whitelist (addresses or CIDR, comma separated or repeated)').argParser(
        listOf('address'),
      ),
    )
    .option('--disabled', 'answer every request as a disabled account (401)')
    .option('--no-realtime', 'refuse real-time queries (-18019912)')
    .addOption(
      new Option('--tick <ms>', "real ms between the account's scheduler runs (default 1000)").argParser(
        positiveInt('--tick'),
      ),
    )
    .addOption(
      new Option('--seed <n>', 'seed of the fault generator, to replay a rehearsal').argParser(
        nonNegativeInt('--seed'),
      ),
    )
    .option('--numeric-metrics', 'days_after_order 0 instead of "--" for numbers without a result (typed clients)')
    .option('--strict-paths', "only the spec's exact paths: no slash or letter-case leniency")
    .option('--log', 'one line per request on stderr: time, version, operation, items, outcome, injected faults')
    .addHelpText(
      'after',
      examples(
        'trk sandbox start --speed 3600 > sandbox.env &',
        'sleep 1; set -a; . ./sandbox.env; set +a',
        'trk register RR123456789CN',
      ),
    )
    .action((o) =>
      lazy(
        invoke,
        () => import('./sandbox.js'),
        (m, ctx) => {
          // Every option named once: a misspelled declaration or key fails to compile here.
          const opts = {
            port: o.port,
            host: o.host,
            key: o.key,
            webhook: o.webhook,
            speed: o.speed,
            state: o.state,
            start: o.start,
            latency: o.latency,
            jitter: o.jitter,
            failureRate: o.failureRate,
            dropRate: o.dropRate,
            burst429: o.burst429,
            burstEvery: o.burstEvery,
            burstFor: o.burstFor,
            // Only what was switched off or on reaches the emulator's options; the rest keep their defaults.
            retryAfter: o.retryAfter === false ? false : undefined,
            pageOverlap: o.pageOverlap,
            rateLimit: o.rateLimit,
            quota: o.quota,
            dailyCap: o.dailyCap,
            ipAllow: o.ipAllow,
            disabled: o.disabled,
            realtime: o.realtime === false ? false : undefined,
            tick: o.tick,
            seed: o.seed,
            numericMetrics: o.numericMetrics,
            strictPaths: o.strictPaths,
            log: o.log,
          } satisfies AllOf<SandboxStartOptions>;
          return m.runSandboxStart(opts, ctx);
        },
      ),
    );
};

const sandbox: Declare = (cmd, invoke) => {
  cmd.addHelpText(
    'after',
    examples(
      'trk list --sandbox                          # any command, against an emulator kept in the state folder',
      'trk sandbox start --speed 3600 > sandbox.env &',
      'trk sandbox reset',
    ),
  );
  declareStart(cmd, invoke);
  prints(cmd.command('reset'), [])
    .description('forget every number, the quota used and the clock of the emulator')
    .option('--state <file>', 'state file (default <state dir>/sandbox.json)')
    .addHelpText('after', examples('trk sandbox reset', 'trk sandbox reset --state ./rehearsal.json'))
    .action((o) =>
      lazy(
        invoke,
        () => import('./sandbox.js'),
        (m, ctx) => m.runSandboxReset(o.state === undefined ? {} : { state: o.state }, ctx),
      ),
    );
};

export const declarations: Readonly<Record<string, Declare>> = { sandbox };
