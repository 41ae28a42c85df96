// What every command prints, end to end against the emulator, piped: each output flag is honoured (the output
// parses as that format) or refused (exit 2, nothing sent); on any failure stdout carries nothing at all; --jq runs
// real jq programs over the JSON output.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, numbers, parseCsv, startEmulator, trk, type Emulator, type Result } from './helpers.js';

const SECOND = 1000;
let emu: Emulator;
/** emu.env with the reference lists served by the emulator and a saved profile. */
let env: NodeJS.ProcessEnv;
let dir: string;

const FORMATS = {
  tsv: [],
  json: ['--json'],
  csv: ['--csv'],
  ndjson: ['-o', 'ndjson'],
  table: ['-o', 'table'],
  jq: ['--jq', '.'],
  text: ['-o', 'text'],
} as const;
type Format = keyof typeof FORMATS;
const ALL = Object.keys(FORMATS) as Format[];
/** What commands printing rows honour: every format but the parcel summary of tracking details. */
const ROWS = ALL.filter((f) => f !== 'text');

/** What the automatic (piped) output of a command is. */
type Piped = 'tabs' | 'json' | 'value' | 'empty';

interface Case {
  name: string;
  /** The command line, with numbers in the state the command needs (taken from a pool: one per run). */
  args(): string[];
  /** Formats honoured; the rest must be refused. */
  honours: readonly Format[];
  piped: Piped;
  /** Exit code of a successful run (default 0). */
  code?: number;
}

// Numbers in each state the item commands need, made ahead and handed out one per run.
const pools: Record<string, string[]> = {};
const take = (pool: string): string => {
  const n = pools[pool]!.shift();
  if (!n) throw new Error(`pool ${pool} is empty`);
  return n;
};

async function ok(args: string[], e: NodeJS.ProcessEnv = env): Promise<Result> {
  const r = await trk(args, { env: e });
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r;
}

/** Runs `jobs` a few at a time: the machine is small and the emulator's rate limit is per key. */
async function inTurn<T>(jobs: (() => Promise<T>)[], width = 3): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

let bodyFile: string;
/** A registered number with a result, for list and info. */
let viewed: string;
let bodySign: string;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0, webhookUrl: 'http://127.0.0.1:9/hook' });
  env = { ...emu.env, TRK_RES_URL: emu.sandbox.url };
  dir = mkdtempSync(path.join(tmpdir(), 'trk-formats-'));
  // A saved profile for auth list; the environment's key and base URL still decide the rest.
  const login = await trk(['auth', 'login', '--with-key-stdin', '--base-url', emu.sandbox.url, '--profile', 'main'], {
    env,
    input: emu.sandbox.key,
  });
  expect(login.code, login.stderr).toBe(0);

  const runs = ALL.length;
  const all = numbers(8 * runs + 2, 'FM');
  const chunk = () => all.splice(0, runs);
  Object.assign(pools, {
    fresh: chunk(),
    stop: chunk(),
    retrack: chunk(),
    delete: chunk(),
    push: chunk(),
    change: chunk(),
    update: chunk(),
    realtime: chunk(),
  });
  viewed = all[0]!;
  const registered = [
    ...pools.stop!,
    ...pools.retrack!,
    ...pools.delete!,
    ...pools.push!,
    ...pools.change!,
    ...pools.update!,
    ...pools.realtime!,
    ...all,
  ];
  await ok(['register', ...registered, '--carrier', '3011', '-q']);
  await ok(['stop', ...pools.retrack!, '-q']);
  // Results come back: change-carrier needs one.
  await emu.sandbox.advance(120 * SECOND);
  // A remembered run, for trk runs.
  const file = path.join(dir, 'numbers.csv');
  writeFileSync(file, `number\n${all[0]}\n`);
  await ok(['update', '-f', file, '--tag', 'from-file', '-q']);
  bodyFile = path.join(dir, 'body.json');
  const body = JSON.stringify({
    event: 'TRACKING_STOPPED',
    data: { number: all[1], carrier: 3011, param: null, tag: '' },
  });
  writeFileSync(bodyFile, body);
  bodySign = createHash('sha256').update(`${body}/${emu.sandbox.key}`).digest('hex');
}, 60_000);

afterAll(async () => {
  await emu?.close();
});

const ITEMS: readonly Format[] = ROWS;
const CASES: readonly Case[] = [
  { name: 'quota', args: () => ['quota'], honours: ROWS, piped: 'tabs' },
  { name: 'api', args: () => ['api', 'getquota'], honours: ['tsv', 'json', 'ndjson', 'jq'], piped: 'json' },
  { name: 'list', args: () => ['list', '--number', viewed], honours: ROWS, piped: 'tabs' },
  { name: 'info', args: () => ['info', viewed], honours: ALL, piped: 'tabs' },
  { name: 'register', args: () => ['register', take('fresh'), '--carrier', '3011'], honours: ITEMS, piped: 'tabs' },
  // Numbers named on the command line: the results are printed, piped too.
  { name: 'stop', args: () => ['stop', take('stop')], honours: ITEMS, piped: 'tabs' },
  { name: 'retrack', args: () => ['retrack', take('retrack')], honours: ITEMS, piped: 'tabs' },
  { name: 'delete', args: () => ['delete', take('delete'), '--yes'], honours: ITEMS, piped: 'tabs' },
  { name: 'push', args: () => ['push', take('push')], honours: ITEMS, piped: 'tabs' },
  { name: 'realtime', args: () => ['realtime', take('realtime')], honours: [...ITEMS, 'text'], piped: 'tabs' },
  {
    name: 'change-carrier',
    args: () => ['change-carrier', take('change'), '--to', '190008'],
    honours: ITEMS,
    piped: 'tabs',
  },
  { name: 'update', args: () => ['update', take('update'), '--tag', 'x'], honours: ITEMS, piped: 'tabs' },
  { name: 'runs', args: () => ['runs', 'list'], honours: ROWS, piped: 'tabs' },
  { name: 'carriers', args: () => ['carriers', '3011'], honours: ROWS, piped: 'tabs' },
  { name: 'countries', args: () => ['countries', 'CN'], honours: ROWS, piped: 'tabs' },
  { name: 'auth list', args: () => ['auth', 'list'], honours: ROWS, piped: 'tabs' },
  { name: 'auth status', args: () => ['auth', 'status'], honours: ROWS, piped: 'tabs' },
  { name: 'config get', args: () => ['config', 'get', 'base-url'], honours: ROWS, piped: 'value' },
  { name: 'config list', args: () => ['config', 'list'], honours: ROWS, piped: 'tabs' },
  {
    name: 'webhook verify',
    args: () => ['webhook', 'verify', '--body', bodyFile, '--sign', bodySign],
    honours: ROWS,
    piped: 'empty',
  },
];

/** Commands whose output this file does not run to completion (they run until stopped): their refusals only. */
const LONG_RUNNING: readonly (readonly [string[], readonly Format[]])[] = [
  [
    ['sandbox', 'start', '--no-state'],
    ['tsv', 'json', 'ndjson', 'jq'],
  ],
  [
    ['webhook', 'listen', '--port', '0'],
    ['tsv', 'table', 'json', 'ndjson', 'jq'],
  ],
];

/** Commands that print no data: every output flag is refused. */
const NO_DATA: readonly string[][] = [
  ['auth', 'login', '--with-key-stdin'],
  ['auth', 'switch', 'main'],
  ['auth', 'logout', '--profile', 'main'],
  ['config', 'set', 'output', 'json'],
  ['config', 'unset', 'output'],
  ['sandbox', 'reset'],
  ['runs', 'forget', '--all'],
  ['completion', 'bash'],
  ['help', 'list'],
];

function expectHonoured(c: Case, format: Format, r: Result): void {
  const what = `${c.name} ${format}: ${r.stderr}`;
  expect(r.code, what).toBe(c.code ?? 0);
  const lines = r.stdout.split('\n').filter((l) => l !== '');
  switch (format) {
    case 'json':
      expect(() => JSON.parse(r.stdout), what).not.toThrow();
      break;
    case 'jq':
    case 'ndjson':
      // One complete JSON value a line (`--jq .` prints compactly when piped).
      expect(lines.length, what).toBeGreaterThan(0);
      for (const l of lines) expect(() => JSON.parse(l), `${what}: ${l}`).not.toThrow();
      break;
    case 'csv': {
      const rows = parseCsv(r.stdout);
      expect(rows.length, what).toBeGreaterThan(0);
      expect(Object.keys(rows[0]!).length, what).toBeGreaterThan(1);
      break;
    }
    case 'table':
      expect(() => JSON.parse(r.stdout), what).toThrow();
      // A header of capitals, columns apart, then rows.
      expect(lines[0], what).toMatch(/^[A-Z][A-Z0-9 .-]*[A-Z]( {2,}[A-Z][A-Z0-9 .-]*)+$/);
      expect(lines.length, what).toBeGreaterThan(1);
      break;
    case 'text':
      // A parcel's summary in plain lines, to paste into a reply.
      expect(lines[0], what).toMatch(/^Tracking number \S+/);
      expect(
        lines.slice(1).every((l) => /^[A-Z][a-z ]+: /.test(l)),
        what,
      ).toBe(true);
      break;
    case 'tsv':
      if (c.piped === 'empty') expect(r.stdout, what).toBe('');
      else if (c.piped === 'json') expect(() => JSON.parse(r.stdout), what).not.toThrow();
      else if (c.piped === 'value') expect(lines, what).toEqual([emu.sandbox.url]);
      else for (const l of lines) expect(l, what).toContain('\t');
      if (c.piped !== 'empty') expect(lines.length, what).toBeGreaterThan(0);
      break;
  }
}

const REFUSAL = new RegExp(
  '^(".*" (prints no data on stdout, so .* does not apply|prints no JSON, so --jq does not apply|' +
    String.raw`cannot print \w+)|--jq filters JSON)`,
);

/** Exit 2 and the refusal, as a line or, when JSON was asked for, as a JSON error. */
function expectRefused(what: string, r: Result): void {
  expect(r.code, `${what}: ${r.stdout}${r.stderr}`).toBe(2);
  expect(r.stdout, what).toBe('');
  const message = r.stderr.startsWith('{')
    ? (JSON.parse(r.stderr) as { error: { message: string } }).error.message
    : r.stderr.replace(/^trk: /, '');
  expect(message, what).toMatch(REFUSAL);
}

describe('every output flag is honoured or refused', () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const results = await inTurn(
        ALL.map((format) => async () => {
          const r = await trk([...c.args(), ...FORMATS[format]], { env });
          return { format, r };
        }),
      );
      for (const { format, r } of results) {
        if (c.honours.includes(format)) expectHonoured(c, format, r);
        else expectRefused(`${c.name} ${format}`, r);
      }
    },
    60_000,
  );

  it('long-running commands refuse the formats they cannot print, before starting', async () => {
    for (const [args, honours] of LONG_RUNNING) {
      for (const format of ALL.filter((f) => !honours.includes(f))) {
        const r = await trk([...args, ...FORMATS[format]], { env });
        expectRefused(`${args.join(' ')} ${format}`, r);
      }
    }
  });

  it('commands that print no data refuse every output flag and --jq, changing nothing', async () => {
    const before = emu.requests();
    const jobs = NO_DATA.flatMap((args) =>
      ALL.filter((f) => f !== 'tsv').map(
        (format) => () =>
          trk([...args, ...FORMATS[format]], { env, input: emu.sandbox.key }).then((r) => ({ args, format, r })),
      ),
    );
    for (const { args, format, r } of await inTurn(jobs)) expectRefused(`${args.join(' ')} ${format}`, r);
    expect(emu.requests()).toBe(before);
    // The profile is still there: logout did not run.
    expect(JSON.parse((await ok(['auth', 'list', '--json'])).stdout)).toHaveLength(1);
  });
});

describe('on any failure stdout carries nothing', () => {
  const wrongKey = () => ({ ...env, TRK_API_KEY: 'wrong-key-0000000000000000000000' });
  const deadService = () => ({ ...env, TRK_BASE_URL: 'http://127.0.0.1:9', TRK_TIMEOUT: '1s' });
  const noLists = () => ({ ...baseEnv(), TRK_API_KEY: emu.sandbox.key, TRK_BASE_URL: emu.sandbox.url });
  const n = numbers(1, 'ZZ')[0]!;
  const FAILURES: readonly (readonly [string, string[], () => NodeJS.ProcessEnv, number])[] = [
    ['wrong key', ['list'], wrongKey, 4],
    ['wrong key', ['list', '--number', n], wrongKey, 4],
    ['wrong key', ['info', n], wrongKey, 4],
    ['wrong key', ['register', n, '--carrier', '3011'], wrongKey, 4],
    ['wrong key', ['stop', n], wrongKey, 4],
    ['wrong key', ['retrack', n], wrongKey, 4],
    ['wrong key', ['delete', n, '--yes'], wrongKey, 4],
    ['wrong key', ['push', n], wrongKey, 4],
    ['wrong key', ['realtime', n], wrongKey, 4],
    ['wrong key', ['change-carrier', n, '--to', '190008'], wrongKey, 4],
    ['wrong key', ['update', n, '--tag', 'x'], wrongKey, 4],
    ['wrong key', ['quota'], wrongKey, 4],
    ['wrong key', ['api', 'getquota'], wrongKey, 4],
    ['wrong key', ['auth', 'status'], wrongKey, 4],
    ['service down', ['list'], deadService, 1],
    ['service down', ['quota'], deadService, 1],
    ['service down', ['register', n, '--carrier', '3011'], deadService, 1],
    ['service down', ['auth', 'status'], deadService, 1],
    ['lists unreachable', ['carriers', 'dhl'], noLists, 1],
    ['lists unreachable', ['countries', 'BR'], noLists, 1],
    ['unknown profile', ['config', 'list', '--profile', 'nosuch'], () => env, 2],
    ['unknown profile', ['config', 'get', 'base-url', '--profile', 'nosuch'], () => env, 2],
    ['unknown profile', ['quota', '--profile', 'nosuch'], () => env, 2],
    ['no such file', ['webhook', 'verify', path.join(tmpdir(), 'no-such-body.json')], () => env, 2],
    ['no key', ['webhook', 'verify', '--body', '-', '--sign', '0'], () => ({ ...baseEnv() }), 4],
    ['unknown run', ['runs', 'forget', 'ffffffffffff'], () => env, 2],
  ];

  it.each(FAILURES.map(([why, args, e, code]) => [`${args.join(' ')} (${why})`, args, e, code] as const))(
    '%s',
    async (_name, args, e, code) => {
      const results = await inTurn(
        ALL.map(
          (format) => () => trk([...args, ...FORMATS[format]], { env: e(), input: '{}' }).then((r) => ({ format, r })),
        ),
      );
      for (const { format, r } of results) {
        const what = `${args.join(' ')} ${format}: ${r.stderr}`;
        expect(r.code, what).not.toBe(0);
        // A format the command refuses is exit 2 whatever else is wrong; every other run fails for its cause.
        if (r.code !== 2) expect(r.code, what).toBe(code);
        expect(r.stdout, what).toBe('');
      }
    },
    60_000,
  );
});

describe('--jq', () => {
  let tagged: string[];
  beforeAll(async () => {
    tagged = numbers(3, 'JQ');
    await ok(['register', ...tagged, '--carrier', '3011', '-q']);
    await ok(['update', tagged[0]!, tagged[2]!, '--tag', 'order-42', '-q']);
  });

  /** What the system's jq makes of `trk ... --json`, when jq is installed: the reference semantics. */
  function systemJq(json: string, program: string): string | undefined {
    try {
      return execFileSync('jq', ['-r', '-c', program], { input: json, encoding: 'utf8' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  it.each([
    ['select and raw strings', '.[] | select(.tag == "order-42") | .number', (t: string[]) => `${t[0]}\n${t[2]}\n`],
    ['reduce to a number', 'map(select(.number | startswith("JQ"))) | length', () => '3\n'],
    [
      'objects print one a line when piped',
      '.[] | select(.tag == "order-42") | {number, tag}',
      (t: string[]) => `{"number":"${t[0]}","tag":"order-42"}\n{"number":"${t[2]}","tag":"order-42"}\n`,
    ],
    [
      '@tsv',
      '.[] | select(.tag == "order-42") | [.number, .carrier] | @tsv',
      (t: string[]) => `${t[0]}\t3011\n${t[2]}\t3011\n`,
    ],
    ['strings keep their blanks', '"  padded  "', () => '  padded  \n'],
  ])('%s', async (_name, program, expected) => {
    const args = ['list', '--number', tagged.join(',')];
    const r = await ok([...args, '--jq', program]);
    // The list comes in the service's order; programs that print one line per record are compared as sets.
    const sorted = (s: string) => s.split('\n').filter(Boolean).sort().join('\n');
    expect(sorted(r.stdout)).toBe(sorted(expected(tagged)));
    const reference = systemJq((await ok([...args, '--json'])).stdout, program);
    if (reference !== undefined) expect(sorted(r.stdout)).toBe(sorted(reference));
  });

  it("runs on each line of NDJSON, and on trk api's envelope", async () => {
    const nd = await ok([
      'list',
      '--number',
      tagged.join(','),
      '-o',
      'ndjson',
      '--jq',
      'select(.tag == "order-42") | .number',
    ]);
    expect(nd.stdout.split('\n').filter(Boolean).sort()).toEqual([tagged[0], tagged[2]].sort());
    const api = await ok([
      'api',
      'gettracklist',
      '--data',
      JSON.stringify({ number: tagged.join(',') }),
      '--jq',
      '.data.accepted | map(.number) | sort | join(",")',
    ]);
    expect(api.stdout).toBe(`${[...tagged].sort().join(',')}\n`);
  });

  it(
    'a program that does not compile is exit 2 before anything is sent; one that fails prints ' + 'nothing, exit 1',
    async () => {
      const before = emu.requests();
      const bad = await trk(['register', numbers(1, 'JX')[0]!, '--carrier', '3011', '--jq', '.[] | select(.tag =='], {
        env,
      });
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      // --jq asks for JSON, so the error is JSON too.
      expect(JSON.parse(bad.stderr)).toEqual({
        error: {
          code: null,
          kind: 'usage',
          message: expect.stringMatching(/^--jq: syntax error, .* line 1, column \d+$/),
          hint: expect.stringMatching(/jq manual/),
          exit_code: 2,
        },
      });
      expect(emu.requests()).toBe(before);
      const fails = await trk(
        ['list', '-q', '--number', tagged.join(','), '--jq', '.[] | .number | error("stop at \\(.)")'],
        { env },
      );
      expect(fails.code).toBe(1);
      expect(fails.stdout).toBe('');
      expect((JSON.parse(fails.stderr) as { error: { message: string; exit_code: number } }).error).toMatchObject({
        message: expect.stringMatching(/^--jq: stop at JQ/),
        exit_code: 1,
      });
    },
  );
});

describe('trk api', () => {
  it('-o ndjson prints the envelope on one line; csv is refused with the formats it has', async () => {
    const nd = await ok(['api', 'getquota', '-o', 'ndjson']);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(nd.stdout)).toMatchObject({ code: 0, data: { quota_total: expect.any(Number) } });
    const csv = await trk(['api', 'getquota', '--csv'], { env });
    expect(csv.stderr).toBe('trk: "trk api" cannot print csv: use --json, -o ndjson, or drop --csv\n');
  });
});
