// Pages whose counts cannot be right (test/hostile/server.ts, `paging`): a billion pages of the same page, a page
// count of Infinity, a short page in the middle. trk reads what the counts and the pages agree on, ends after a
// bounded number of requests and in bounded memory, and fails (exit 1) naming the inconsistency, leaving output that
// does not parse as complete: `trk list` with and without --tag (records checked here), and the item engine's paged
// lookups (`list` of more than 200 numbers, a register whose answer was lost).
//
// `trk list` runs in a process of its own with its peak memory recorded: the list it gathers is what a billion pages
// would fill memory with. The rest runs in this process, on the tests' clock, bounded by the requests it makes.
import { describe, expect, it } from 'vitest';
import { baseEnv, numbers, trk } from '../e2e/helpers.js';
import { testClock } from '../skipping-clock.js';
import { KILL_AFTER_MS, trkMeasured } from './measure.js';
import { hostileServerForTests, type Paging } from './server.js';

const KEY = 'hostile-test-key-000000000000000';
const MAX_RSS_MB = 220;
/** Per request, a real time limit: nothing here hangs, so it is long enough that a loaded machine never meets it. */
const TIMEOUT = '10s';
/** What a command in this process may wait on the tests' clock (pacing, a pause before a lookup). */
const MAX_WAIT_MS = 25_000;
/** A spawned run that never ends is killed after KILL_AFTER_MS, and fails for want of an exit code. */
const SPAWNED = { timeout: KILL_AFTER_MS + 30_000 };

const hostile = hostileServerForTests();

function env(): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    TRK_TIMEOUT: TIMEOUT,
    TRK_BASE_URL: hostile().url,
    TRK_API_KEY: KEY,
    TRK_ERROR_FORMAT: 'text',
  };
}

/** Runs trk against `paging` in a process of its own; its peak memory is bounded, the requests it made counted. */
async function against(paging: Paging, args: readonly string[]) {
  hostile().setMode('ok');
  hostile().setPaging(paging);
  const before = hostile().requests;
  const r = await trkMeasured(args, env());
  const measured = `${r.seconds.toFixed(1)} s, ${r.rssMB} MB${r.signal ? `, killed (${r.signal})` : ''}`;
  const what = `${args.join(' ')} against ${paging}: exit ${r.code}, ${measured}\n${r.stderr}`;
  expect(r.rssMB, what).toBeLessThan(MAX_RSS_MB);
  return { ...r, what, requests: hostile().requests - before };
}

/** Runs trk in this process; the requests it made, and what it waited on the tests' clock is bounded. */
async function inProcess(args: readonly string[]) {
  const before = hostile().requests;
  const waitedBefore = testClock().skippedMs;
  const r = await trk(args, { env: env() });
  const waited = testClock().skippedMs - waitedBefore;
  const what = `${args.slice(0, 4).join(' ')}: exit ${r.code}, waited ${Math.round(waited)} ms\n${r.stderr}`;
  expect(waited, what).toBeLessThan(MAX_WAIT_MS);
  return { ...r, what, requests: hostile().requests - before };
}

const DOES_NOT_ADD_UP: Record<Exclude<Paging, 'overcount'>, RegExp> = {
  repeat: new RegExp(
    "^trk: the service's pages do not add up: page 2 repeats page 1, but the service announced " +
      String.raw`1,000,000,000 pages \(40,000,000,000 records\): what was read is incomplete`,
  ),
  infinite: /^trk: the service's pages do not add up: page 2 repeats page 1, but the service announced Infinity pages/,
  short:
    /^trk: the service's pages do not add up: page 2 has 7 records, but the service announced 5 pages \(200 records\)/,
};

describe('trk list against pages that cannot be right', () => {
  it.each(Object.keys(DOES_NOT_ADD_UP) as (keyof typeof DOES_NOT_ADD_UP)[])(
    '%s: exit 1 naming it, the JSON left incomplete',
    SPAWNED,
    async (paging) => {
      const r = await against(paging, ['-q', 'list', '--json']);
      expect(r.code, r.what).toBe(1);
      expect(r.stderr.trim().split('\n'), r.what).toEqual([expect.stringMatching(DOES_NOT_ADD_UP[paging])]);
      // What was written must not pass for the whole list.
      expect(() => JSON.parse(r.stdout), r.what).toThrow();
      // The first page, and no more than a window of pages after it.
      expect(r.requests, r.what).toBeLessThanOrEqual(10);
    },
  );

  it.each(['repeat', 'infinite'] as const)(
    '%s with --tag (records checked here): ends too, exit 1',
    SPAWNED,
    async (paging) => {
      const r = await against(paging, ['-q', 'list', '--tag', 'X', '--json']);
      expect(r.code, r.what).toBe(1);
      expect(r.stderr, r.what).toMatch(DOES_NOT_ADD_UP[paging]);
      expect(() => JSON.parse(r.stdout), r.what).toThrow();
    },
  );

  it('piped lines: the lines read are kept, and the command fails', SPAWNED, async () => {
    const r = await against('repeat', ['-q', 'list']);
    expect(r.code, r.what).toBe(1);
    expect(r.stdout.trim().split('\n'), r.what).toHaveLength(40);
  });

  it('page_total of a billion with data_total 100: the three pages 100 records fill, exit 0', async () => {
    hostile().setMode('ok');
    hostile().setPaging('overcount');
    const r = await inProcess(['-q', 'list', '--json']);
    expect(r.code, r.what).toBe(0);
    expect(JSON.parse(r.stdout), r.what).toHaveLength(100);
    expect(r.requests, r.what).toBe(3);
  });
});

describe("the engine's paged lookups against pages that cannot be right", () => {
  it('list of more than 200 numbers: exit 1 naming it, after a bounded number of requests', async () => {
    hostile().setMode('ok');
    hostile().setPaging('repeat');
    const r = await inProcess(['-q', 'list', '--json', ...numbers(201, 'RP').flatMap((n) => ['--number', n])]);
    expect(r.code, r.what).toBe(1);
    expect(r.stderr, r.what).toMatch(/the service's pages do not add up: page 2 repeats page 1/);
    expect(() => JSON.parse(r.stdout), r.what).toThrow();
    // Two lookups of at most 200 numbers, each its first page and no more than a window of pages after it.
    expect(r.requests, r.what).toBeLessThanOrEqual(20);
  });

  it('a register whose answer was lost is looked up; pages that repeat stop the run, exit 1', async () => {
    hostile().setPaging('repeat');
    hostile().setMode('reset', { path: /register$/ });
    const r = await inProcess(['-q', 'register', numbers(1, 'RL')[0]!, '--carrier', '3011']);
    expect(r.code, r.what).toBe(1);
    expect(r.stderr, r.what).toMatch(/the service's pages do not add up: page 2 repeats page 1/);
    expect(r.requests, r.what).toBeLessThanOrEqual(8);
  });
});
