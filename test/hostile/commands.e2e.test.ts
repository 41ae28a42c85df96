// Every command family against a hostile service (test/hostile/server.ts): each broken answer ends with one clear
// line on stderr, the right exit code (1; never 130 unless interrupted, never 0 with nothing to show), in bounded
// time, and nothing half-written on stdout. The commands run in this process, on the tests' clock (their back-offs
// and holds are counted, not waited for), except against the answers too large to read (endless, huge): there the
// peak memory of a process of its own is what is bounded, so the built CLI is spawned with an RSS reporter.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, trk, type Result } from '../e2e/helpers.js';
import { testClock } from '../skipping-clock.js';
import { KILL_AFTER_MS, trkMeasured, type MeasuredRun } from './measure.js';
import { startHostileServer, type HostileMode, type HostileServer, type LeakMode } from './server.js';

const KEY = 'hostile-test-key-000000000000000';
/**
 * Per request, where the deadline (three times this) is what ends the command. A hang: the time limits are real
 * (trk's request timer against an open socket), short so that it ends soon; nothing answers, so none is met by
 * chance. A Retry-After of a day: a hold far beyond the deadline, which the 429 arrives well within.
 */
const DEADLINE_TIMEOUT_MS: Partial<Record<HostileMode, number>> = { hang: 500, 'retry-day': 1500 };
/**
 * Per request, everywhere else: a call's attempts run out before its deadline of 30 s (their back-offs come to
 * 7.5 s at most, on the tests' clock), so the failure shown is the mode's whatever the jitter of the back-offs and
 * the load of the machine, never a last attempt cut short by what was left of the deadline (the item engine's
 * pauses do reach it, and it stops them before an attempt, saying so); and a spawned process reads an answer of
 * 32 MB well within it however slowly.
 */
const TIMEOUT_MS = 10_000;
/** Answers that would take 900 MB and more to read whole: the memory of a process is the subject. */
const SPAWNED_MODES: ReadonlySet<HostileMode> = new Set(['endless', 'huge']);
/**
 * Far below what reading a 200 MB or endless answer whole takes (900 MB and more): a command that sends a request
 * peaks at some 105 MB here, and may read up to 8 MB of an answer, or 32 MB of a reference list, before refusing it.
 */
const MAX_RSS_MB = 220;
/**
 * What the commands of one mode may wait, on the tests' clock (back-offs, holds, pacing): their --timeout deadline
 * (three times the per-request timeout), and the pace's window before the first request. A command that waits for
 * a day's Retry-After or retries without end shows here at once. Runs at the same time share the clock: this
 * bounds the longest of them.
 */
const maxWaitMs = (timeoutMs: number) => 3 * timeoutMs + 1000;
const timeoutFor = (mode: HostileMode) => DEADLINE_TIMEOUT_MS[mode] ?? TIMEOUT_MS;

interface Family {
  name: string;
  args: string[];
  /** Standard input (auth login reads the key there). */
  input?: string;
  /** The reference lists rather than the API. */
  lists?: boolean;
  /**
   * Modes whose answer is still a correct answer for this command, with the exit code it gives: a quota record
   * with an extra `accepted` field is a quota record (the service may add fields).
   */
  fine?: Partial<Record<HostileMode, number>>;
  /** Modes in which its first request, a read of one call, fails and is asked again (src/api/call.ts). */
  retriedReadIn?: ReadonlySet<HostileMode>;
}

const EXTRA_FIELDS = { 'accepted-string': 0, 'accepted-number': 0, 'rejected-null': 0 } as const;
/** Failures a read is asked again after, all its attempts, within a deadline they never reach. */
const RETRIED: ReadonlySet<HostileMode> = new Set([
  'html-502',
  'truncated',
  'data-null',
  'accepted-string',
  'accepted-number',
  'rejected-null',
  'reset',
]);
/** Those a quota read fails on. */
const QUOTA_RETRIED: ReadonlySet<HostileMode> = new Set([...RETRIED].filter((m) => !(m in EXTRA_FIELDS)));

const FAMILIES: readonly Family[] = [
  { name: 'quota (read)', args: ['quota', '--json'], fine: EXTRA_FIELDS, retriedReadIn: RETRIED },
  { name: 'list (read, paged)', args: ['list', '--json'], retriedReadIn: RETRIED },
  { name: 'info (read, items)', args: ['info', 'RR123456789CN', '--json'] },
  // The quota is read first.
  {
    name: 'register (charging write)',
    args: ['register', 'RR123456789CN', '--carrier', '3011', '--json'],
    retriedReadIn: QUOTA_RETRIED,
  },
  { name: 'stop (write)', args: ['stop', 'RR123456789CN', '--json'] },
  { name: 'realtime (charging, one item)', args: ['realtime', 'RR123456789CN', '--carrier', '3011', '--json'] },
  // The raw command exits 3 whenever the answer carries rejected items, whatever they are.
  {
    name: 'api (raw)',
    args: ['api', 'getquota'],
    fine: { ...EXTRA_FIELDS, 'rejected-null': 3 },
    retriedReadIn: RETRIED,
  },
  {
    name: 'auth login (verification)',
    args: ['auth', 'login', '--with-key-stdin'],
    input: `${KEY}\n`,
    fine: EXTRA_FIELDS,
    retriedReadIn: RETRIED,
  },
  { name: 'carriers (reference list)', args: ['carriers', 'china post', '--json'], lists: true },
];

type Hostile = Exclude<HostileMode, 'ok' | LeakMode>;

/** What the one error line must say for each mode (API requests; the lists have their own wording). */
const SAYS: Record<Hostile, RegExp> = {
  'html-502': /server error of the service \(HTTP 502\)/,
  truncated: /answer trk cannot read: not JSON/,
  'data-null': /answer trk cannot read: data is null/,
  'accepted-string': /answer trk cannot read: data\.accepted is a string/,
  'accepted-number': /answer trk cannot read: data\.accepted is a number/,
  'rejected-null': /answer trk cannot read: data\.rejected\[0\] is null/,
  reset: /connection to 127\.0\.0\.1:\d+ broke before the answer/,
  hang: /no answer from the service .*--timeout/,
  endless: /answer is larger than 8 MB/,
  huge: /answer is larger than 8 MB/,
  'retry-day': /rate limit of the service exceeded \(HTTP 429.*--timeout deadline/,
};
const LISTS_SAY: Record<Hostile, RegExp> = {
  'html-502': /HTTP 502/,
  truncated: /not JSON/,
  'data-null': /not a list/,
  'accepted-string': /not a list/,
  'accepted-number': /not a list/,
  'rejected-null': /not a list/,
  reset: /could not fetch the carrier list/,
  hang: /no complete answer within 500 ms \(--timeout\)/,
  endless: /larger than 32 MB/,
  huge: /larger than 32 MB/,
  'retry-day': /HTTP 429/,
};

let server: HostileServer;

beforeAll(async () => {
  server = await startHostileServer({ mode: 'ok' });
});

afterAll(async () => {
  await server?.close();
});

function envFor(family: Family, mode: HostileMode): NodeJS.ProcessEnv {
  // Errors as lines whatever the output format (--json would make them JSON objects).
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    TRK_TIMEOUT: `${timeoutFor(mode)}ms`,
    TRK_BASE_URL: server.url,
    TRK_ERROR_FORMAT: 'text',
  };
  if (family.lists) env.TRK_RES_URL = server.url;
  // auth login reads the key from stdin, and saves it only once verified.
  if (family.args[0] !== 'auth') env.TRK_API_KEY = KEY;
  return env;
}

/** Every family in this process at once (a hang's time limits are real: they run side by side). */
function inProcess(envs: readonly NodeJS.ProcessEnv[]): Promise<Result[]> {
  return Promise.all(FAMILIES.map((f, i) => trk(['-q', ...f.args], { env: envs[i]!, input: f.input ?? '' })));
}

/** Every family spawned, its peak memory recorded: three at a time, the machine has two cores. */
async function spawned(envs: readonly NodeJS.ProcessEnv[]): Promise<MeasuredRun[]> {
  const out: MeasuredRun[] = new Array(FAMILIES.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      while (next < FAMILIES.length) {
        const i = next++;
        out[i] = await trkMeasured(['-q', ...FAMILIES[i]!.args], envs[i]!, FAMILIES[i]!.input);
      }
    }),
  );
  return out;
}

describe('a well-behaved stand-in answers: every family works (the harness itself is sound)', () => {
  it('ok', async () => {
    server.setMode('ok');
    const runs = await inProcess(FAMILIES.map((f) => envFor(f, 'ok')));
    for (const [i, r] of runs.entries()) expect(r.code, `${FAMILIES[i]!.name}: ${r.stderr}`).toBe(0);
  });
});

/** One line naming the mode, exit 1 (or the exit code of an answer still correct), nothing on stdout. */
function expectEachFails(mode: Hostile, envs: readonly NodeJS.ProcessEnv[], runs: readonly Result[], notes: string[]) {
  runs.forEach((r, i) => {
    const f = FAMILIES[i]!;
    // A key is saved only once verified.
    if (f.args[0] === 'auth' && r.code !== 0)
      expect(existsSync(path.join(envs[i]!.TRK_CONFIG_DIR!, 'config.json'))).toBe(false);
    const what = `${f.name} against ${mode}: exit ${r.code}${notes[i] ?? ''}\n${r.stderr}`;
    const fine = f.fine?.[mode];
    if (fine !== undefined) {
      expect(r.code, what).toBe(fine);
      return;
    }
    expect(r.code, what).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines, what).toHaveLength(1);
    expect(lines[0], what).toMatch(/^trk: /);
    expect(lines[0], what).toMatch(f.lists ? LISTS_SAY[mode] : SAYS[mode]);
    expect(lines[0], what).not.toMatch(/interrupted|TypeError|undefined/);
    // Its attempts ran out, not its deadline (a last attempt cut short would end as a timeout instead).
    if (f.retriedReadIn?.has(mode)) expect(lines[0], what).toMatch(/ \(after 5 attempts\): /);
    // Nothing on stdout that a script could take for a result.
    expect(r.stdout, what).toBe('');
  });
}

const MODES = Object.keys(SAYS) as Hostile[];

describe.each(MODES.filter((m) => !SPAWNED_MODES.has(m)))('hostile answers: %s', (mode) => {
  it('every command family: one line, exit 1 (or 0 where the answer is still correct), bounded waits', async () => {
    server.setMode(mode);
    const envs = FAMILIES.map((f) => envFor(f, mode));
    const before = testClock().skippedMs;
    const runs = await inProcess(envs);
    const waited = testClock().skippedMs - before;
    expect(waited, `${mode}: the commands waited ${Math.round(waited)} ms`).toBeLessThan(maxWaitMs(timeoutFor(mode)));
    expectEachFails(mode, envs, runs, []);
  });
});

describe.each(MODES.filter((m) => SPAWNED_MODES.has(m)))('hostile answers too large to read: %s', (mode) => {
  // A process that never ends is killed (test/hostile/measure.ts), and fails here for want of an exit code.
  it('every command family: one line, exit 1, bounded memory', { timeout: KILL_AFTER_MS + 60_000 }, async () => {
    server.setMode(mode);
    const envs = FAMILIES.map((f) => envFor(f, mode));
    const runs = await spawned(envs);
    const notes = runs.map(
      (r) => `, ${r.seconds.toFixed(1)} s, ${r.rssMB} MB${r.signal ? `, killed (${r.signal})` : ''}`,
    );
    // Every run that ends records its peak (test/hostile/report-rss.mjs): NaN fails too.
    for (const [i, r] of runs.entries()) expect(r.rssMB, `${FAMILIES[i]!.name}${notes[i]}`).toBeLessThan(MAX_RSS_MB);
    expectEachFails(mode, envs, runs, notes);
  });
});
