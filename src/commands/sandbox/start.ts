// trk sandbox start: the service emulator as a foreground process for tests, CI and rehearsals (the run in
// emulator.ts, loaded when it runs).

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
import type { SandboxStartOptions } from './emulator.js';
import { nonNegativeNumber, withFaults } from './start-flags.js';

/**
 * `trk sandbox start`: the emulator's options, each a knob of its behaviour or a fault to inject. The printed lines
 * are plain NAME=value (what env files of docker and systemd take too): sourcing them needs `set -a` so that trk, a
 * child of the shell, sees them.
 */
export const declaration: Declare = (cmd, invoke) => {
  // NAME=value lines by default (env files), or one JSON object.
  const started = prints(cmd, ['json', 'ndjson'])
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
        () => import('./emulator.js'),
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
