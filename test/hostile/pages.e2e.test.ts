// Pages whose counts cannot be right (test/hostile/server.ts, `paging`): a billion pages of the same page, a page
// count of Infinity, a short page in the middle. trk reads what the counts and the pages agree on, ends in bounded
// time and memory, and fails (exit 1) naming the inconsistency, leaving output that does not parse as complete:
// `trk list` with and without --tag (records checked here), and the item engine's paged lookups (`list` of more
// than 200 numbers, a register whose answer was lost).
import { describe, expect, it } from 'vitest';
import { baseEnv, numbers } from '../e2e/helpers.js';
import { trkMeasured } from './measure.js';
import { hostileServerForTests, type Paging } from './server.js';

const KEY = 'hostile-test-key-000000000000000';
const MAX_SECONDS = 25;
const MAX_RSS_MB = 220;

const hostile = hostileServerForTests();

function env(): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    TRK_TIMEOUT: '1500ms',
    TRK_BASE_URL: hostile().url,
    TRK_API_KEY: KEY,
    TRK_ERROR_FORMAT: 'text',
  };
}

/** Runs trk against `paging`; the requests it made. */
async function against(paging: Paging, args: readonly string[]) {
  hostile().setMode('ok');
  hostile().setPaging(paging);
  const before = hostile().requests;
  const r = await trkMeasured(args, env());
  const what =
    `${args.join(' ')} against ${paging}: exit ${r.code}, ${r.seconds.toFixed(1)} s, ${r.rssMB} ` + `MB\n${r.stderr}`;
  expect(r.seconds, what).toBeLessThan(MAX_SECONDS);
  if (Number.isFinite(r.rssMB)) expect(r.rssMB, what).toBeLessThan(MAX_RSS_MB);
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

  it.each(['repeat', 'infinite'] as const)('%s with --tag (records checked here): ends too, exit 1', async (paging) => {
    const r = await against(paging, ['-q', 'list', '--tag', 'X', '--json']);
    expect(r.code, r.what).toBe(1);
    expect(r.stderr, r.what).toMatch(DOES_NOT_ADD_UP[paging]);
    expect(() => JSON.parse(r.stdout), r.what).toThrow();
  });

  it('piped lines: the lines read are kept, and the command fails', async () => {
    const r = await against('repeat', ['-q', 'list']);
    expect(r.code, r.what).toBe(1);
    expect(r.stdout.trim().split('\n'), r.what).toHaveLength(40);
  });

  it('page_total of a billion with data_total 100: the three pages 100 records fill, exit 0', async () => {
    const r = await against('overcount', ['-q', 'list', '--json']);
    expect(r.code, r.what).toBe(0);
    expect(JSON.parse(r.stdout), r.what).toHaveLength(100);
    expect(r.requests, r.what).toBe(3);
  });
});

describe("the engine's paged lookups against pages that cannot be right", () => {
  it('list of more than 200 numbers: exit 1 naming it, in bounded time', async () => {
    const args = ['-q', 'list', '--json', ...numbers(201, 'RP').flatMap((n) => ['--number', n])];
    const r = await against('repeat', args);
    expect(r.code, r.what).toBe(1);
    expect(r.stderr, r.what).toMatch(/the service's pages do not add up: page 2 repeats page 1/);
    expect(() => JSON.parse(r.stdout), r.what).toThrow();
  });

  it('a register whose answer was lost is looked up; pages that repeat stop the run, exit 1', async () => {
    hostile().setPaging('repeat');
    hostile().setMode('reset', { path: /register$/ });
    const before = hostile().requests;
    const r = await trkMeasured(['-q', 'register', numbers(1, 'RL')[0]!, '--carrier', '3011'], env());
    const what = `exit ${r.code}, ${r.seconds.toFixed(1)} s\n${r.stderr}`;
    expect(r.seconds, what).toBeLessThan(MAX_SECONDS);
    expect(r.code, what).toBe(1);
    expect(r.stderr, what).toMatch(/the service's pages do not add up: page 2 repeats page 1/);
    expect(hostile().requests - before, what).toBeLessThanOrEqual(8);
  });
});
