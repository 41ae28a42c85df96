// Every command family against a hostile service (test/hostile/server.ts), through the built CLI: each broken
// answer ends with one clear line on stderr, the right exit code (1; never 130 unless interrupted, never 0 with
// nothing to show), in bounded time and bounded memory, and nothing half-written on stdout.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, baseEnv } from '../e2e/helpers.js';
import { trkMeasured } from './measure.js';
import { startHostileServer, type HostileMode, type HostileServer, type LeakMode } from './server.js';

const KEY = 'hostile-test-key-000000000000000';
/** Per request; the deadline of a command is three times that. Short, so that hangs end quickly here. */
// Short, so that hangs end quickly, yet long enough that a loaded machine answers a request in time: a request
// that merely runs slow would otherwise end as a timeout rather than as the mode's failure.
const TIMEOUT = '1500ms';
/**
 * Far below what reading a 200 MB or endless answer whole takes (900 MB and more): a command that sends a request
 * peaks at some 105 MB here, and may read up to 8 MB of an answer, or 32 MB of a reference list, before refusing it.
 */
const MAX_RSS_MB = 220;
/** A hung service would keep trk for ever; bounded means well within this (generous for a loaded machine). */
const MAX_SECONDS = 25;

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
}

const EXTRA_FIELDS = { 'accepted-string': 0, 'accepted-number': 0, 'rejected-null': 0 } as const;

const FAMILIES: readonly Family[] = [
  { name: 'quota (read)', args: ['quota', '--json'], fine: EXTRA_FIELDS },
  { name: 'list (read, paged)', args: ['list', '--json'] },
  { name: 'info (read, items)', args: ['info', 'RR123456789CN', '--json'] },
  { name: 'register (charging write)', args: ['register', 'RR123456789CN', '--carrier', '3011', '--json'] },
  { name: 'stop (write)', args: ['stop', 'RR123456789CN', '--json'] },
  { name: 'realtime (charging, one item)', args: ['realtime', 'RR123456789CN', '--carrier', '3011', '--json'] },
  // The raw command exits 3 whenever the answer carries rejected items, whatever they are.
  { name: 'api (raw)', args: ['api', 'getquota'], fine: { ...EXTRA_FIELDS, 'rejected-null': 3 } },
  {
    name: 'auth login (verification)',
    args: ['auth', 'login', '--with-key-stdin'],
    input: `${KEY}\n`,
    fine: EXTRA_FIELDS,
  },
  { name: 'carriers (reference list)', args: ['carriers', 'china post', '--json'], lists: true },
];

/** What the one error line must say for each mode (API requests; the lists have their own wording). */
const SAYS: Record<Exclude<HostileMode, 'ok' | LeakMode>, RegExp> = {
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
const LISTS_SAY: Record<Exclude<HostileMode, 'ok' | LeakMode>, RegExp> = {
  'html-502': /HTTP 502/,
  truncated: /not JSON/,
  'data-null': /not a list/,
  'accepted-string': /not a list/,
  'accepted-number': /not a list/,
  'rejected-null': /not a list/,
  reset: /could not fetch the carrier list/,
  hang: /no complete answer within 1\.5 s \(--timeout\)/,
  endless: /larger than 32 MB/,
  huge: /larger than 32 MB/,
  'retry-day': /HTTP 429/,
};

let server: HostileServer;

beforeAll(async () => {
  assertBuilt();
  server = await startHostileServer({ mode: 'ok' });
});

afterAll(async () => {
  await server?.close();
});

function envFor(family: Family): NodeJS.ProcessEnv {
  // Errors as lines whatever the output format (--json would make them JSON objects).
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    TRK_TIMEOUT: TIMEOUT,
    TRK_BASE_URL: server.url,
    TRK_ERROR_FORMAT: 'text',
  };
  if (family.lists) env.TRK_RES_URL = server.url;
  // auth login reads the key from stdin, and saves it only once verified.
  if (family.args[0] !== 'auth') env.TRK_API_KEY = KEY;
  return env;
}

/** Runs `fn` over `items`, `limit` at a time: the machine has two cores. */
async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

describe('a well-behaved stand-in answers: every family works (the harness itself is sound)', () => {
  it('ok', async () => {
    server.setMode('ok');
    const runs = await pool(FAMILIES, 3, (f) => trkMeasured(['-q', ...f.args], envFor(f), f.input));
    for (const [i, r] of runs.entries()) expect(r.code, `${FAMILIES[i]!.name}: ${r.stderr}`).toBe(0);
  });
});

describe.each(Object.keys(SAYS) as Exclude<HostileMode, 'ok' | LeakMode>[])('hostile answers: %s', (mode) => {
  it(
    'every command family: one line, exit 1 (or 0 where the answer is still correct), bounded time ' + 'and memory',
    async () => {
      server.setMode(mode);
      const envs = FAMILIES.map(envFor);
      const runs = await pool(
        FAMILIES.map((f, i) => [f, envs[i]!] as const),
        3,
        ([f, env]) => trkMeasured(['-q', ...f.args], env, f.input),
      );
      runs.forEach((r, i) => {
        const f = FAMILIES[i]!;
        // A key is saved only once verified.
        if (f.args[0] === 'auth' && r.code !== 0)
          expect(existsSync(path.join(envs[i]!.TRK_CONFIG_DIR!, 'config.json'))).toBe(false);
        const what = `${f.name} against ${mode}: exit ${r.code}, ${r.seconds.toFixed(1)} s, ${r.rssMB} MB\n${r.stderr}`;
        expect(r.seconds, what).toBeLessThan(MAX_SECONDS);
        if (Number.isFinite(r.rssMB)) expect(r.rssMB, what).toBeLessThan(MAX_RSS_MB);
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
        // Nothing on stdout that a script could take for a result.
        expect(r.stdout, what).toBe('');
      });
    },
  );
});
