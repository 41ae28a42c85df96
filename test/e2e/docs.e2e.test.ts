// Every shell example of README.md, docs/*.md, ARCHITECTURE.md and the help pages runs, as written, against one
// emulator on 127.0.0.1, in a throw-away HOME with the files the examples name (from test/fixtures/docs and
// test/fixtures/exports), the account seeded with parcels of every status and a mirror. A line of trk commands
// alone (words plain or quoted, `< file`, `> file`, joined by `|` or `&&`) runs in this process, in the example's
// folder; a line only a shell runs (a variable, a glob, a loop, another program) runs in bash, with the built trk
// on the PATH. A server or a watch is stopped as by Ctrl-C once it printed and ran a second. An example fails the
// test when it exits with a code it is not said to end with, or prints an error line. Examples marked as not run
// (test/docs/examples.ts) are counted and each has its reason.
//
// Each source's examples run in turn in a HOME of their own, a few sources at once; examples that change the
// parcels others read (stop, delete, change-carrier...) run afterwards one at a time, on a parcel set back first.

import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { signedV1Body, signV2 } from '../../src/webhook/verify.js';
import {
  type Example,
  helpExamples,
  markdownExamples,
  markdownFiles,
  STOPPED_EXITS,
  type TrkCommand,
  trkCommands,
} from '../docs/examples.js';
import { HELP_EXITS, HELP_NOT_RUN, HELP_UNTIL_STOPPED } from '../docs/help-examples.js';
import { fixturePath } from '../fixture-files.js';
import { type Emulator, ROOT, startEmulator, trk, trkRunning } from './helpers.js';

const DAY = 86_400_000;
const PARALLEL = 3;
/** A server or a watch is stopped this long after it first printed (on the clock in this process, real in bash). */
const STOP_AFTER_MS = 1000;
/** Examples that change the parcels other examples read: one at a time, after the others. */
const CHANGES_PARCELS = /\btrk (stop|retrack|delete|change-carrier|update|realtime)\b|\bsandbox reset\b/;
/** An error of trk's (a line or JSON), or of the shell; what Ctrl-C prints ("trk: interrupting...") is none. */
const ERROR_LINE =
  /^(trk: (?!interrupting:|interrupted$)|\{"error":)|command not found|No such file or directory|syntax error/m;
/** Examples that do not run (cron lines, PostgreSQL, a terminal's prompts...): more is a decision, made here. */
const NOT_RUN = 59;
/** The parcel most examples name, registered afresh before each example that changes parcels. */
const PARCEL = 'RR123456789CN';

let emu: Emulator;
let hook: Server;
let seedHome: string;
const shim = mkdtempSync(path.join(tmpdir(), 'trk-docs-bin-'));
/** Folders the test made, removed at the end. */
const made: string[] = [shim];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** All examples: the Markdown's, and the help pages' with their listed exceptions. */
function allExamples(): Example[] {
  const fromMarkdown = markdownFiles(ROOT).flatMap((f) =>
    markdownExamples(f, readFileSync(path.join(ROOT, f), 'utf8')),
  );
  const fromHelp = helpExamples(ROOT).map(({ page, line }) => ({
    where: page,
    source: page,
    line,
    skip: HELP_NOT_RUN[line],
    exits: HELP_UNTIL_STOPPED.has(line) ? STOPPED_EXITS : (HELP_EXITS[line]?.exits ?? [0]),
    untilStopped: HELP_UNTIL_STOPPED.has(line),
  }));
  return [...fromMarkdown, ...fromHelp];
}

/** A HOME with trk's folders, the mirror and caches of the seeded account, and the files examples name. */
function home(): { env: NodeJS.ProcessEnv; cwd: string } {
  const dir = tempDir('trk-docs-');
  cpSync(seedHome, dir, { recursive: true });
  const cwd = path.join(dir, 'work');
  mkdirSync(cwd, { recursive: true });
  cpSync(fixturePath('docs'), cwd, { recursive: true });
  cpSync(path.join(ROOT, 'examples', 'numbers.csv'), path.join(cwd, 'numbers.csv'));
  cpSync(fixturePath('exports/shopify-fulfillments.csv'), path.join(cwd, 'orders_export.csv'));
  writeFileSync(path.join(cwd, 'key.txt'), emu.sandbox.key);
  writeSavedNotification(cwd);
  return { env: envOf(dir), cwd };
}

function envOf(dir: string): NodeJS.ProcessEnv {
  return {
    PATH: `${shim}:${process.env.PATH}`,
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, '.config'),
    XDG_STATE_HOME: path.join(dir, '.local/state'),
    XDG_CACHE_HOME: path.join(dir, '.cache'),
    XDG_DATA_HOME: path.join(dir, '.local/share'),
    NO_COLOR: '1',
    TRK_PAGER: 'cat',
    TRK_BASE_URL: emu.sandbox.url,
    TRK_API_KEY: emu.sandbox.key,
    TRK_RES_URL: emu.sandbox.url,
    TZ: 'UTC',
  };
}

/** hooks/<name>.json and .headers as `webhook listen --save` keeps them, signed with the emulator's key; body.json. */
function writeSavedNotification(cwd: string): void {
  const body = JSON.stringify({ event: 'TRACKING_UPDATED', data: { number: PARCEL, carrier: 3011, track_info: null } });
  const name = path.join(cwd, 'hooks', `20261123T175200.000Z-TRACKING_UPDATED-${PARCEL}`);
  mkdirSync(path.dirname(name), { recursive: true });
  writeFileSync(`${name}.json`, body);
  writeFileSync(
    `${name}.headers`,
    `POST /hook HTTP/1.1\nContent-Type: application/json\nsign: ${signV2(body, emu.sandbox.key)}\n`,
  );
  // A v1 body carries its sign (`trk webhook verify --body body.json --v1`).
  writeFileSync(
    path.join(cwd, 'body.json'),
    signedV1Body('TRACKING_UPDATED', { number: PARCEL, carrier: 3011 }, emu.sandbox.key),
  );
}

interface Outcome {
  example: Example;
  code: number | null;
  stdout: string;
  stderr: string;
}

type Place = { env: NodeJS.ProcessEnv; cwd: string };

/** Commands in this process take turns: each runs in its example's folder, made the process's current one. */
let turn: Promise<unknown> = Promise.resolve();
function inFolder<T>(at: Place, f: () => Promise<T>): Promise<T> {
  const mine = turn.then(async () => {
    const cwd = process.cwd();
    const tz = process.env.TZ;
    process.chdir(at.cwd);
    process.env.TZ = at.env.TZ;
    try {
      return await f();
    } finally {
      process.chdir(cwd);
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
  turn = mine.catch(() => {});
  return mine;
}

/**
 * A line of trk commands in this process, as bash runs it with pipefail: a pipe's commands in turn, each one's
 * stdout the next one's stdin, the line's pipes in turn while each ends with 0.
 */
function runHere(example: Example, commands: TrkCommand[], at: Place): Promise<Outcome> {
  return inFolder(at, async () => {
    const outcome: Outcome = { example, code: 0, stdout: '', stderr: '' };
    /** What the pipe passes on, and the exit code of its last command that failed. */
    let piped: string | undefined;
    let failed = 0;
    for (const { args, from, to, piped: pipes } of commands) {
      if (from !== undefined && !existsSync(from))
        return { ...outcome, code: 1, stderr: `${outcome.stderr}bash: ${from}: No such file or directory\n` };
      const input = from === undefined ? piped : readFileSync(from, 'utf8');
      const r = await trk(args, { env: at.env, ...(input === undefined ? {} : { input }) });
      outcome.stderr += r.stderr;
      if (to !== undefined) writeFileSync(to, r.stdout);
      const out = to === undefined ? r.stdout : '';
      if (r.code !== 0) failed = r.code ?? 1;
      if (pipes) {
        piped = out;
        continue;
      }
      outcome.stdout += out;
      outcome.code = failed;
      if (failed !== 0) break;
      piped = undefined;
    }
    return outcome;
  });
}

/** A server or a watch in this process: stopped as by Ctrl-C once it printed and ran a moment on the clock. */
function runUntilStopped(example: Example, args: string[], at: Place): Promise<Outcome> {
  return inFolder(at, async () => {
    const running = trkRunning(args, { env: at.env });
    // A bound in real time: one that never prints is stopped all the same.
    const cap = setTimeout(() => running.interrupt(), 30_000);
    try {
      // What it prints once it runs: a warning about the config folder comes before it has started.
      await Promise.any([running.printed(/\S/, 'stdout'), running.printed(/^(?!warning: )\S/m, 'stderr')]);
      await clock().sleep(STOP_AFTER_MS);
    } catch {
      // It ended without printing: its exit code says how.
    } finally {
      running.interrupt();
      clearTimeout(cap);
    }
    return { example, ...(await running.done) };
  });
}

/** The trk commands of an example that runs in this process; undefined for one that bash runs. */
function hereCommands(example: Example): TrkCommand[] | undefined {
  const commands = trkCommands(example.line);
  if (!example.untilStopped || commands === undefined) return commands;
  // A server or a watch piped into another trk, or writing to a file, is left to bash.
  const [only, ...more] = commands;
  return more.length === 0 && only!.from === undefined && only!.to === undefined ? commands : undefined;
}

function run(example: Example, at: Place): Promise<Outcome> {
  const commands = hereCommands(example);
  if (!commands) return runInShell(example, at);
  return example.untilStopped ? runUntilStopped(example, commands[0]!.args, at) : runHere(example, commands, at);
}

function runInShell(example: Example, at: Place): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    // A group of its own, so that Ctrl-C reaches every process of a pipeline, as a terminal sends it.
    const child = spawn('bash', ['-o', 'pipefail', '-c', example.line], { env: at.env, cwd: at.cwd, detached: true });
    let stdout = '';
    let stderr = '';
    const interrupt = () => {
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // ended already
      }
    };
    let stopping: NodeJS.Timeout | undefined;
    const printed = () => {
      // Real time: the server or watch is a process of its own, on the machine's clock; it runs a moment.
      if (example.untilStopped && !stopping) stopping = setTimeout(interrupt, STOP_AFTER_MS);
    };
    // One that never prints is stopped all the same (a bound in real time, as above).
    const cap = example.untilStopped ? setTimeout(interrupt, 30_000) : undefined;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      printed();
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      printed();
    });
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(stopping);
      clearTimeout(cap);
      resolve({ example, code, stdout, stderr });
    });
  });
}

/** What is wrong with an outcome, or undefined. */
function fault({ example, code, stdout, stderr }: Outcome): string | undefined {
  if (!example.exits.includes(code ?? -1)) return `exit ${code}, expected ${example.exits.join(' or ')}`;
  // An exit code other than 0 said to be expected comes with its error; a server stopped with Ctrl-C has none.
  const clean = code === 0 || example.untilStopped === true;
  if (clean && ERROR_LINE.test(stderr)) return 'printed an error';
  if (clean && ERROR_LINE.test(stdout)) return 'printed an error on stdout';
  return undefined;
}

/** The parcel most examples name, registered afresh (whatever an example did to it: stopped, retracked, moved). */
async function setBackParcel(): Promise<void> {
  const call = (op: string, body: unknown) =>
    fetch(`${emu.sandbox.url}/track/v2/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', svctoken: emu.sandbox.key },
      body: JSON.stringify(body),
    }).then((r) => r.arrayBuffer());
  await call('deletetrack', [{ number: PARCEL }]);
  await call('register', [{ number: PARCEL, carrier: 3011, tag: 'order-10030' }]);
  // Its first result, which a change of carrier waits for.
  await emu.sandbox.advance(3_600_000);
}

/** Runs each group's examples in turn, `PARALLEL` groups at once. */
async function runGroups(groups: Example[][], before?: () => Promise<void>): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    for (let g = next++; g < groups.length; g = next++) {
      const at = home();
      for (const example of groups[g]!) {
        await before?.();
        outcomes.push(await run(example, at));
      }
    }
  };
  await Promise.all(Array.from({ length: before ? 1 : PARALLEL }, worker));
  return outcomes;
}

async function seed(): Promise<void> {
  seedHome = tempDir('trk-docs-seed-');
  const env = { ...envOf(seedHome), TRK_API_VERSION: 'v2.1' };
  const file = path.join(seedHome, 'seed.csv');
  const carriers = [3011, 100003, 21051, 190012, 100001, 2151, 7041, 190008];
  // Records of every kind examples meet: one without a tag among them (a jq program must expect tag null).
  const rows = [`${PARCEL},3011,order-10030,#10030,ann@example.com`, 'RR555555555CN,3011,,,'];
  const register = await trk(['register', '-f', path.join(ROOT, 'examples', 'numbers.csv'), '-q'], { env });
  expect(register.code, register.stderr).toBe(0);
  for (let day = 0; day < 5; day++) {
    for (let i = 0; i < 24; i++)
      rows.push(
        `RS${100000000 + day * 100 + i}XX,${carriers[i % 8]},order-${day * 100 + i},#${20000 + day * 100 + i},`,
      );
    writeFileSync(file, `number,carrier,tag,order_no,email\n${rows.join('\n')}\n`);
    const r = await trk(['register', '-f', file, '-q'], { env });
    expect(r.code, r.stderr).toBe(0);
    rows.length = 0;
    await emu.sandbox.advance(5 * DAY);
  }
  for (const [args, input] of [
    // The profiles examples name, as a user who follows them has them (the first one is active), and its mirror.
    ...['shop-eu', 'staging', 'ci'].map((name) => [
      ['auth', 'login', '--profile', name, '--with-key-stdin', '-q'],
      emu.sandbox.key,
    ]),
    [['carriers', '-q', '--json']],
    [['sync', '-q']],
    [['--profile', 'default', 'sync', '-q']],
  ] as [string[], string?][]) {
    const r = await trk(args, { env, input });
    expect(r.code, r.stderr).toBe(0);
  }
}

/** Programs of the machine examples pipe into, and the pattern of an example that uses each. */
const PROGRAMS: Readonly<Record<string, RegExp>> = { jq: /\| *jq\b/, sqlite3: /^sqlite3\b/ };
const missing = Object.keys(PROGRAMS).filter((p) => spawnSync('sh', ['-c', `command -v ${p}`]).status !== 0);
const needsMissing = (e: Example) => missing.some((p) => PROGRAMS[p]!.test(e.line));

describe('the examples of the documentation and of the help pages', () => {
  const examples = allExamples();
  const skipped = examples.filter((e) => e.skip !== undefined);
  const runnable = examples.filter((e) => e.skip === undefined && !needsMissing(e));

  beforeAll(async () => {
    hook = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
    await new Promise((r) => hook.once('listening', r));
    const start = Date.UTC(2026, 9, 20);
    emu = await startEmulator({
      rateLimit: 0,
      speed: 0,
      start,
      webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
    });
    writeFileSync(
      path.join(shim, 'trk'),
      `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'bin', 'trk.js')}" "$@"\n`,
      {
        mode: 0o755,
      },
    );
    await seed();
  }, 120_000);

  afterAll(async () => {
    await emu?.close();
    hook?.close();
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the examples, and says which are not run and why', () => {
    expect(runnable.length).toBeGreaterThan(100);
    // Each exception has a reason, and the list of help exceptions names examples the pages still show.
    for (const e of skipped) expect(e.skip, e.where).toMatch(/\w/);
    expect(skipped.length, 'examples not run').toBe(NOT_RUN);
    // Examples that need a program this machine lacks are skipped, saying so, as the completion tests are.
    if (missing.length > 0)
      console.log(`not installed: ${missing.join(', ')}; skipped: ${examples.filter(needsMissing).length}`);
    // What runs in this process, and what needs bash.
    expect(trkCommands('trk auth login --profile shop-eu --with-key-stdin < key.txt   # saves shop-eu')).toEqual([
      { args: ['auth', 'login', '--profile', 'shop-eu', '--with-key-stdin'], from: 'key.txt' },
    ]);
    expect(trkCommands('trk list --status Delivered --csv > delivered.csv && trk stop -f delivered.csv')).toEqual([
      { args: ['list', '--status', 'Delivered', '--csv'], to: 'delivered.csv' },
      { args: ['stop', '-f', 'delivered.csv'] },
    ]);
    expect(trkCommands(`trk find '#10030' --jq '.[] | [.a, "b"]' --tag "order-10*"`)).toEqual([
      { args: ['find', '#10030', '--jq', '.[] | [.a, "b"]', '--tag', 'order-10*'] },
    ]);
    expect(trkCommands('trk list --status Exception -o ids | trk push --json')).toEqual([
      { args: ['list', '--status', 'Exception', '-o', 'ids'], piped: true },
      { args: ['push', '--json'] },
    ]);
    for (const line of [
      'trk quota --columns quota_remain | cut -f2',
      'printf %s "$TRK_API_KEY" | trk auth login --with-key-stdin',
      'mkdir -p ~/.zfunc && trk completion zsh > ~/.zfunc/_trk',
      'for f in hooks/*.json; do trk webhook verify -q "$f" || echo "forged: $f"; done',
      'trk webhook verify hooks/*.json',
      'trk info "$N"',
      'trk list >> all.csv',
    ])
      expect(trkCommands(line), line).toBeUndefined();
    const here = runnable.filter((e) => hereCommands(e) !== undefined).length;
    expect(here).toBeGreaterThan(100);
    const shown = new Set(helpExamples(ROOT).map((e) => e.line));
    for (const line of [...Object.keys(HELP_NOT_RUN), ...Object.keys(HELP_EXITS)]) expect(shown, line).toContain(line);
    console.log(
      `${runnable.length} examples run (${here} in this process, ${runnable.length - here} in bash), ` +
        `${skipped.length} not run:\n` +
        skipped.map((e) => `  ${e.where}: ${e.line.slice(0, 70)} (${e.skip})`).join('\n'),
    );
  });

  it('runs every other example with the exit code it should have and no error', async () => {
    const changes = (e: Example) => CHANGES_PARCELS.test(e.line) && !e.untilStopped;
    const groups = new Map<string, Example[]>();
    for (const e of runnable.filter((e) => !changes(e))) {
      // Listeners share a port (4242): one after another, the trigger that sends there too (none is listening when
      // it runs). Other servers and watches each in a HOME of its own.
      const group = / webhook (listen|trigger) /.test(` ${e.line} `)
        ? 'listeners'
        : e.untilStopped
          ? e.where + e.line
          : e.source;
      groups.set(group, [...(groups.get(group) ?? []), e]);
    }
    // The longest first, so that the workers end together: a line bash runs starts processes (a server or a
    // watch there runs for a second or more), a line of trk commands takes a moment of this process.
    const cost = (group: Example[]) =>
      group.reduce((sum, e) => sum + (hereCommands(e) ? 1 : e.untilStopped ? 10 : 3), 0);
    const reading = await runGroups([...groups.values()].sort((a, b) => cost(b) - cost(a)));
    const changing = await runGroups([runnable.filter(changes)], setBackParcel);
    const faults = [...reading, ...changing].flatMap((o) => {
      const why = fault(o);
      const tail = `${o.stdout}${o.stderr}`.trim().split('\n').slice(-8).join('\n  ');
      return why ? [`${o.example.where}: ${o.example.line}\n  ${why}\n  ${tail}`] : [];
    });
    expect(faults).toEqual([]);
  }, 300_000);

  it('opens the README with the two commands that work on a fresh clone', async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const first = /```sh\n([\s\S]*?)```/.exec(readme)![1];
    expect(first).toBe(
      'npm install && npx trk register -f examples/numbers.csv --sandbox && npx trk list --sandbox\nnpm test\n',
    );
    // What follows the install, with the built trk in place of npx's, in a HOME with nothing in it.
    const { TRK_BASE_URL: _url, TRK_API_KEY: _key, TRK_RES_URL: _res, ...fresh } = envOf(tempDir('trk-docs-fresh-'));
    const line = 'trk register -f examples/numbers.csv --sandbox && trk list --sandbox';
    const r = await run({ where: 'README.md', source: 'README.md', line, exits: [0] }, { env: fresh, cwd: ROOT });
    expect(fault(r), r.stderr).toBeUndefined();
    expect(r.stdout.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(50);
  }, 60_000);
});
