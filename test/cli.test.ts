import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, NetworkError, RateLimitError, RequestAbortedError } from '../src/api/errors.js';
import {
  checkOutputFlags,
  errorData,
  errorOutcome,
  errorsAsJson,
  readGlobalOptions,
  resolveOutputFormat,
  runCli,
} from '../src/cli.js';
import { CredentialsError, InterruptedError, UsageError } from '../src/core/errors.js';
import { createTestIO } from './test-io.js';

const env = () => ({
  TRK_RES_URL: 'http://127.0.0.1:9',
  TRK_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'trk-cli-')),
  TRK_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'trk-st-')),
});

async function cli(argv: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const io = createTestIO();
  const code = await runCli(argv, { io, env: { ...env(), ...extraEnv } });
  return { code, out: io.stdoutText(), err: io.stderrText() };
}

describe('errorOutcome', () => {
  it('maps trk errors to their exit codes and one line', () => {
    expect(errorOutcome(new UsageError('bad', 'fix it'))).toEqual({ exitCode: 2, line: 'bad: fix it' });
    expect(errorOutcome(new CredentialsError('no key', 'log in'))).toEqual({ exitCode: 4, line: 'no key: log in' });
    expect(errorOutcome(new InterruptedError())).toEqual({ exitCode: 130, line: 'interrupted' });
    const auth = new AuthenticationError({ operation: 'getquota', httpStatus: 401, serviceCode: -18010002 });
    expect(errorOutcome(auth)).toEqual({
      exitCode: 4,
      line: 'invalid API key (-18010002): run "trk auth login" or set TRK_API_KEY',
    });
    const down = new NetworkError({
      operation: 'getquota',
      host: '127.0.0.1:1',
      reason: 'ECONNREFUSED',
      delivery: 'not-sent',
    });
    expect(errorOutcome(down).exitCode).toBe(1);
  });

  it('maps commander usage errors to 2, help and version to 0', () => {
    expect(
      errorOutcome(
        new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'\n(Did you mean --y?)"),
      ),
    ).toEqual({
      exitCode: 2,
      line: "unknown option '--x' (Did you mean --y?)",
    });
    expect(errorOutcome(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)')).exitCode).toBe(0);
    expect(errorOutcome(new CommanderError(0, 'commander.version', '1.0.0')).exitCode).toBe(0);
  });

  it('cleans every line of escape sequences and bidi overrides, wherever its text came from', () => {
    const echoed = new UsageError('unknown carrier "\u202eXNUD\u202c\u001b[2J"', 'see "trk carriers"');
    expect(errorOutcome(echoed).line).toBe('unknown carrier "XNUD": see "trk carriers"');
    const said = new Error('service said \u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007\r\nnow');
    expect(errorOutcome(said).line).toBe('service said click now');
  });

  it('maps unexpected errors to 1 and adds the stack only when debugging', () => {
    expect(errorOutcome(new TypeError('x is undefined'))).toEqual({ exitCode: 1, line: 'x is undefined' });
    expect(errorOutcome(new TypeError('x'), { debug: true }).detail).toMatch(/TypeError: x/);
    expect(errorOutcome(new Error('aborted'), { stopped: 130 })).toEqual({ exitCode: 130, line: 'interrupted' });
    expect(errorOutcome(new Error('aborted'), { stopped: 143 })).toEqual({ exitCode: 143, line: 'terminated' });
    // An interruption raised on its own terms (a request aborted while waiting, a prompt) takes the signal's code.
    expect(errorOutcome(new InterruptedError(), { stopped: 143 })).toEqual({ exitCode: 143, line: 'terminated' });
    const aborted = new RequestAbortedError({ operation: 'getquota', delivery: 'not-sent' });
    expect(errorOutcome(aborted, { stopped: 143 })).toEqual({ exitCode: 143, line: 'terminated' });
    expect(errorOutcome(aborted, { stopped: 130 })).toEqual({ exitCode: 130, line: 'interrupted' });
    // What a run says when stopped keeps its words; only the code follows the signal.
    const said = new InterruptedError('interrupted: 3 of 9 not done');
    expect(errorOutcome(said, { stopped: 143 })).toEqual({ exitCode: 143, line: 'interrupted: 3 of 9 not done' });
  });
});

describe('global options', () => {
  it('resolves --json, --csv and -o to one format, refusing two different ones', () => {
    expect(resolveOutputFormat({ json: true })).toBe('json');
    expect(resolveOutputFormat({ output: 'json', json: true })).toBe('json');
    expect(resolveOutputFormat({})).toBeUndefined();
    expect(() => resolveOutputFormat({ json: true, csv: true })).toThrow(UsageError);
  });

  it('reads the program options into GlobalOptions', () => {
    expect(
      readGlobalOptions({
        profile: 'p',
        baseUrl: 'u',
        apiVersion: 'v1',
        sandbox: true,
        csv: true,
        quiet: true,
        verbose: true,
        yes: true,
        color: false,
      }),
    ).toEqual({
      profile: 'p',
      baseUrl: 'u',
      apiVersion: 'v1',
      sandbox: true,
      output: 'csv',
      quiet: true,
      verbose: true,
      yes: true,
      color: false,
    });
    expect(readGlobalOptions({ color: true })).toEqual({});
    expect(readGlobalOptions({ timeout: '5s', rawCsv: true })).toEqual({ timeout: '5s', rawCsv: true });
  });
});

describe('runCli', () => {
  it('prints the version and help with exit 0', async () => {
    const version = await cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.out).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: trk');
  });

  it.each([
    [['list', '--bogus'], "trk: unknown option '--bogus'"],
    [['--jsn', 'list'], "trk: unknown option '--jsn' (Did you mean --json?)"],
    [['realtime'], "trk: missing required argument 'number'"],
    [['list', '--status', 'Lost'], "trk: option '--status <status>' argument 'Lost' is invalid. Allowed choices are"],
    [
      ['list', '--limit', '0'],
      "trk: option '--limit <n>' argument '0' is invalid. --limit must be a positive integer.",
    ],
    [['frobnicate'], "trk: unknown command 'frobnicate'"],
    [
      ['list', '--csv', '-o', 'table'],
      'trk: conflicting output formats: table, csv: give one of --json, --csv, --output',
    ],
    // An empty filter must not become no filter (every record of the account).
    [
      ['list', '--number', ''],
      "trk: option '--number <numbers>' argument '' is invalid. give at least one tracking number.",
    ],
    [['list', '--number', ' , ,'], 'give at least one tracking number.'],
    [
      ['quota', '--timeout', 'soon'],
      'trk: invalid --timeout "soon": give a duration from 100ms to 60m, such as 30s or 2m',
    ],
    // Echoed values reach the terminal without their escape sequences.
    [['list', '--status', 'Lost\u001b[2J\u202e'], "trk: option '--status <status>' argument 'Lost' is invalid."],
  ])('usage error %j → exit 2 with one line on stderr', async (argv, message) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [['list', '--bogus'], 'trk: unknown option \'--bogus\': see "trk list --help"\n'],
    [['auth', 'login', '--nope'], 'trk: unknown option \'--nope\': see "trk auth login --help"\n'],
    [['realtime'], 'trk: missing required argument \'number\': see "trk realtime --help"\n'],
    [
      ['quota', 'extra'],
      'trk: too many arguments for \'quota\'. Expected 0 arguments but got 1: see "trk quota --help"\n',
    ],
    [['frobnicate'], 'trk: unknown command \'frobnicate\': see "trk --help"\n'],
    [['--jsn', 'list'], "trk: unknown option '--jsn' (Did you mean --json?)\n"],
  ])('usage error %j names the fix: the help of the command that failed', async (argv, line) => {
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.err).toBe(line);
  });

  it('a group without its subcommand shows its help and exits 2', async () => {
    const r = await cli(['auth']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Usage: trk auth');
  });

  it('no key configured → exit 4 with the fix', async () => {
    const r = await cli(['quota']);
    expect(r.code).toBe(4);
    expect(r.err).toBe('trk: no API key configured: run "trk auth login" or set TRK_API_KEY\n');
  });

  it('a bad number is refused before credentials are even looked at', async () => {
    const r = await cli(['stop', 'AAA11111', 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^trk: argument 2: number "x" is not 5 to 50 letters, digits or hyphens/);
  });

  it('delete without a terminal and without --yes exits 2, --yes placed anywhere', async () => {
    const r = await cli(['delete', 'AAA11111']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('needs confirmation: pass --yes');
    // With --yes it goes on to need a key: proof that the flag was seen after the subcommand and before it.
    expect((await cli(['delete', 'AAA11111', '--yes'])).code).toBe(4);
    expect((await cli(['-y', 'delete', 'AAA11111'])).code).toBe(4);
  });

  it('help exit-codes prints the table', async () => {
    const r = await cli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('130  interrupted');
  });

  it("help <command> prints that command's help", async () => {
    const r = await cli(['help', 'auth', 'login']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: trk auth login');
  });
});

describe('output flags', () => {
  it('--jq implies json, goes with ndjson, and is refused with csv or table', () => {
    expect(resolveOutputFormat({ jq: '.' })).toBe('json');
    expect(resolveOutputFormat({ jq: '.', output: 'ndjson' })).toBe('ndjson');
    expect(() => resolveOutputFormat({ jq: '.', csv: true })).toThrow('--jq filters JSON, not csv');
    expect(() => resolveOutputFormat({ jq: '.', output: 'table' })).toThrow('--jq filters JSON, not table');
  });

  it('a format the command does not print is refused, naming the flag as typed and the formats it has', () => {
    const refusal = (o: Record<string, unknown>, formats: Parameters<typeof checkOutputFlags>[1]) => {
      try {
        checkOutputFlags(o, formats, 'trk x');
      } catch (err) {
        return (err as UsageError).toLine();
      }
      return undefined;
    };
    expect(refusal({ csv: true }, ['json', 'ndjson'])).toBe(
      '"trk x" cannot print csv: use --json, -o ndjson, or drop --csv',
    );
    expect(refusal({ output: 'table' }, ['json'])).toBe('"trk x" cannot print table: use --json, or drop -o table');
    expect(refusal({ json: true }, [])).toBe('"trk x" prints no data on stdout, so --json does not apply: drop --json');
    expect(refusal({ jq: '.' }, [])).toBe('"trk x" prints no data on stdout, so --jq does not apply: drop --jq');
    expect(refusal({ jq: '.' }, ['table'])).toBe('"trk x" prints no JSON, so --jq does not apply: drop --jq');
    expect(refusal({ output: 'ndjson' }, ['json', 'ndjson'])).toBeUndefined();
    expect(refusal({}, [])).toBeUndefined();
  });
});

describe('errors as JSON', () => {
  it('when JSON output is asked for, unless TRK_ERROR_FORMAT says otherwise', () => {
    expect(errorsAsJson({}, { json: true })).toBe(true);
    expect(errorsAsJson({}, { output: 'ndjson' })).toBe(true);
    expect(errorsAsJson({}, { jq: '.' })).toBe(true);
    expect(errorsAsJson({}, { output: 'csv' })).toBe(false);
    expect(errorsAsJson({ TRK_ERROR_FORMAT: 'json' }, {})).toBe(true);
    expect(errorsAsJson({ TRK_ERROR_FORMAT: 'TEXT' }, { json: true })).toBe(false);
  });

  it('code, kind, message and hint apart; the line says the same', () => {
    const auth = new AuthenticationError({ operation: 'getquota', httpStatus: 401, serviceCode: -18010002 });
    expect(errorData(auth, errorOutcome(auth))).toEqual({
      code: -18010002,
      kind: 'auth',
      message: 'invalid API key (-18010002)',
      hint: 'run "trk auth login" or set TRK_API_KEY',
      exit_code: 4,
    });
    const usage = new UsageError('bad', 'fix it');
    expect(errorData(usage, errorOutcome(usage))).toEqual({
      code: null,
      kind: 'usage',
      message: 'bad',
      hint: 'fix it',
      exit_code: 2,
    });
    const limited = new RateLimitError({ operation: 'getquota' });
    expect(errorData(limited, errorOutcome(limited)).kind).toBe('rate-limit');
    const net = new NetworkError({ operation: 'getquota', host: '127.0.0.1:9', delivery: 'not-sent' });
    expect(errorData(net, errorOutcome(net)).kind).toBe('network');
    expect(errorData(new TypeError('x'), errorOutcome(new TypeError('x')))).toMatchObject({
      kind: 'failure',
      hint: null,
      exit_code: 1,
    });
  });

  it('runCli prints one JSON object on stderr and nothing on stdout', async () => {
    const r = await cli(['list', '--json', '--limit', '0']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(JSON.parse(r.err)).toMatchObject({ error: { kind: 'usage', exit_code: 2, code: null } });
    const text = await cli(['list', '--json', '--limit', '0'], { TRK_ERROR_FORMAT: 'text' });
    expect(text.err).toMatch(/^trk: option '--limit <n>'/);
  });
});

describe('global options are settled before the context is made', () => {
  it("the default output (TRK_OUTPUT) and a command's own --columns reach the command", async () => {
    const e = env();
    expect(
      await runCli(['--sandbox', 'register', 'SB123456789CN', '--carrier', '3011', '-q'], {
        io: createTestIO(),
        env: e,
      }),
    ).toBe(0);
    const io = createTestIO();
    const code = await runCli(['--sandbox', 'list', '-q', '--columns', 'carrier,number'], {
      io,
      env: { ...e, TRK_OUTPUT: 'csv' },
    });
    expect(io.stderrText()).toBe('');
    expect(code).toBe(0);
    expect(io.stdoutText().trim().split('\n')[0]).toMatch(/^carrier,number$/i);
  });

  it('--columns with a default output of ids is refused before the command runs (exit 2)', async () => {
    const r = await cli(['--sandbox', 'list', '--columns', 'number'], { TRK_OUTPUT: 'ids' });
    expect(r.code).toBe(2);
    expect(r.err).toBe('trk: -o ids prints ids, not columns: drop --columns, or use another --output\n');
  });

  it("the context's options cannot be changed once it is made", async () => {
    const { createContext } = await import('../src/context/context-impl.js');
    const ctx = createContext({ io: createTestIO(), env: env(), global: { output: 'json' } });
    expect(() => {
      (ctx.global as { output?: string }).output = 'csv';
    }).toThrow(TypeError);
    expect(ctx.global.output).toBe('json');
  });
});
