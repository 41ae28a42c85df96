// `trk-sandbox`: the emulator as a command of its own, for any client of the service (as stripe-mock is run):
// the flags of `trk sandbox start`, read by the same start-options.ts and run by the same foreground.ts. Its state
// is kept in memory unless --state names a file (trk's state folder is trk's). Exit 2 on a bad flag, 1 when it
// cannot start, 0 once stopped by Ctrl-C or SIGTERM.

import { parseArgs } from 'node:util';
import { SandboxError, SandboxUsageError } from './errors.js';
import { serveInForeground } from './foreground.js';
import { type StartFlags, startOptions } from './start-options.js';

type Kind = 'text' | 'number' | 'list' | 'on' | 'off';

/** Every flag: its kind, the start flag it sets, its help line. */
const FLAGS: Record<string, { kind: Kind; key: keyof StartFlags; help: string }> = {
  port: { kind: 'number', key: 'port', help: 'port to listen on (default: a free port)' },
  host: { kind: 'text', key: 'host', help: 'address to listen on (default 127.0.0.1)' },
  key: { kind: 'text', key: 'key', help: 'API key the emulator accepts (default sandbox-key)' },
  webhook: { kind: 'text', key: 'webhook', help: 'webhook URL the account pushes notifications to' },
  speed: { kind: 'number', key: 'speed', help: 'simulated seconds per real second (default 1)' },
  state: { kind: 'text', key: 'state', help: 'state file, kept across restarts (default: memory only)' },
  start: { kind: 'text', key: 'start', help: 'simulated start time of a new sandbox (ISO)' },
  latency: { kind: 'number', key: 'latency', help: 'delay every answer, ms' },
  jitter: { kind: 'number', key: 'jitter', help: 'random extra delay up to this, ms' },
  'failure-rate': { kind: 'number', key: 'failureRate', help: 'share of requests answered 500/503 (0..1)' },
  'drop-rate': { kind: 'number', key: 'dropRate', help: 'share of requests processed whose answer is lost (0..1)' },
  'burst-429': { kind: 'number', key: 'burst429', help: 'answer 429 to the next n requests' },
  'burst-every': { kind: 'number', key: 'burstEvery', help: 'periodic 429 bursts every this many ms' },
  'burst-for': { kind: 'number', key: 'burstFor', help: '...each lasting this many ms' },
  'no-retry-after': { kind: 'off', key: 'retryAfter', help: 'answer 429 without Retry-After' },
  'page-overlap': { kind: 'number', key: 'pageOverlap', help: 'list pages repeat n records of the page before' },
  'rate-limit': { kind: 'number', key: 'rateLimit', help: 'requests per second per key (default 3; 0 = off)' },
  quota: { kind: 'number', key: 'quota', help: 'total quota of the account' },
  'daily-cap': { kind: 'number', key: 'dailyCap', help: 'daily registration cap (0 = none)' },
  'ip-allow': { kind: 'list', key: 'ipAllow', help: 'IP whitelist (addresses or CIDR, comma separated or repeated)' },
  disabled: { kind: 'on', key: 'disabled', help: 'answer every request as a disabled account (401)' },
  'no-realtime': { kind: 'off', key: 'realtime', help: 'refuse real-time queries (-18019912)' },
  tick: { kind: 'number', key: 'tick', help: "real ms between the account's scheduler runs (default 1000)" },
  seed: { kind: 'number', key: 'seed', help: 'seed of the fault generator, to replay a rehearsal' },
  'numeric-metrics': { kind: 'on', key: 'numericMetrics', help: 'days_after_order 0 instead of "--" for no result' },
  'strict-paths': { kind: 'on', key: 'strictPaths', help: "only the spec's exact paths: no slash or case leniency" },
  log: { kind: 'on', key: 'log', help: 'one line per request on stderr' },
};

export const USAGE = [
  'Usage: trk-sandbox [options]',
  '',
  'Runs an emulator of the parcel-tracking service on 127.0.0.1 until Ctrl-C; prints',
  'TRK_BASE_URL, TRK_API_KEY and TRK_RES_URL on stdout.',
  '',
  ...Object.entries(FLAGS).map(([name, f]) => {
    const arg = f.kind === 'on' || f.kind === 'off' ? '' : f.kind === 'list' ? ' <a,b>' : ' <value>';
    return `  --${`${name}${arg}`.padEnd(24)} ${f.help}`;
  }),
  `  --${'json'.padEnd(24)} the addresses as one JSON object, not NAME=value lines`,
  `  --${'help'.padEnd(24)} this text`,
  '',
].join('\n');

/** The command line as start flags (and --json); a SandboxUsageError for a flag it does not know or a bad number. */
export function readFlags(argv: readonly string[]): { flags: StartFlags; json: boolean; help: boolean } {
  const options = Object.fromEntries([
    ...Object.entries(FLAGS).map(([name, f]) => [
      name,
      f.kind === 'on' || f.kind === 'off'
        ? { type: 'boolean' as const }
        : { type: 'string' as const, multiple: f.kind === 'list' },
    ]),
    ['json', { type: 'boolean' as const }],
    ['help', { type: 'boolean' as const, short: 'h' }],
  ]);
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new SandboxUsageError((err as Error).message, { hint: 'see trk-sandbox --help' });
  }
  const flags: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(FLAGS)) {
    const v = values[name];
    if (v === undefined) continue;
    if (f.kind === 'on') flags[f.key] = true;
    else if (f.kind === 'off') flags[f.key] = false;
    else if (f.kind === 'list') flags[f.key] = (v as string[]).flatMap((s) => s.split(',')).map((s) => s.trim());
    else if (f.kind === 'text') flags[f.key] = v;
    else {
      const n = Number(v);
      if ((v as string).trim() === '' || !Number.isFinite(n)) throw new SandboxUsageError(`--${name} must be a number`);
      flags[f.key] = n;
    }
  }
  return { flags: flags as StartFlags, json: values.json === true, help: values.help === true };
}

export interface CliStreams {
  out(text: string): void;
  err(text: string): void;
}

/** Runs `trk-sandbox` with these arguments; resolves to its exit code. */
export async function main(argv: readonly string[], io: CliStreams, signal?: AbortSignal): Promise<number> {
  try {
    const { flags, json, help } = readFlags(argv);
    if (help) {
      io.out(USAGE);
      return 0;
    }
    const options = await startOptions(flags);
    await serveInForeground(
      options,
      {
        out: io.out,
        info: (line) => io.err(`${line}\n`),
        request: (line) => (flags.log ? io.err(`${line}\n`) : undefined),
        error: (message) => io.err(`trk-sandbox: ${message}\n`),
      },
      { json, ...(signal === undefined ? {} : { signal }) },
    );
    return 0;
  } catch (err) {
    if (!(err instanceof SandboxError)) throw err;
    io.err(`trk-sandbox: ${err.toLine()}\n`);
    return err instanceof SandboxUsageError ? 2 : 1;
  }
}
