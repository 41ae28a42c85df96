// One path for every item: arguments, a pipe, -f FILE and -f - get the same checks, the same exactly-once sending
// under faults, the same quota check and the same exit codes; runs of files and pipes are remembered (never paid
// twice without --again), resumed after kill -9 or SIGTERM, and never confused with a run of other options or of a
// file edited since. Commands run in this process; the ones stopped by a signal are processes of the built CLI.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as realDelay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import {
  ROOT,
  assertBuilt,
  budgetForAProcess,
  numbers,
  parseCsv,
  startEmulator,
  trk,
  type Emulator,
} from './helpers.js';
import { startHostileServer, type HostileServer } from '../hostile/server.js';

let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0, seed: 3 });
  dir = mkdtempSync(path.join(tmpdir(), 'trk-engine-'));
});

afterAll(async () => {
  await emu?.close();
});

const run = (args: string[], input?: string, env: NodeJS.ProcessEnv = emu.env) =>
  trk(args, { env, ...(input === undefined ? {} : { input }) });
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};
const registrations = (n: string) => emu.sandbox.account.store.forNumber(n).length;
/** How many of `list` the emulator holds. */
const registeredOf = (list: readonly string[]) => list.filter((n) => registrations(n) > 0).length;
const registerSends = () => emu.sandbox.state().requests.byOperation['v2/register'] ?? 0;

/** Every number registered exactly once, none missing. */
function expectOnce(list: readonly string[]): void {
  for (const n of list) expect(registrations(n), n).toBe(1);
}

describe('every way in gets the same guarantees', () => {
  const WAYS = ['arguments', 'pipe', '-f FILE', '-f -'] as const;
  const argsFor = (way: (typeof WAYS)[number], list: string[]): [string[], string | undefined] => {
    const text = `${list.join('\n')}\n`;
    if (way === 'arguments') return [list, undefined];
    if (way === 'pipe') return [[], text];
    if (way === '-f -') return [['-f', '-'], text];
    return [['-f', file(`way-${list[0]}.txt`, text)], undefined];
  };

  it.each(WAYS)(
    '%s: answers lost after the work was done are looked up, never sent twice; the summary counts numbers',
    async (way) => {
      // Every register answer is lost after the emulator registered the numbers: each chunk must be looked up.
      const proxy = await startHostileServer({
        mode: 'reset',
        upstream: emu.sandbox.url,
        corrupt: { path: /register$/ },
      });
      try {
        const list = numbers(100, `W${WAYS.indexOf(way)}`);
        const sends = registerSends();
        const [args, input] = argsFor(way, list);
        const r = await run(['register', ...args, '--carrier', '3011'], input, { ...emu.env, TRK_BASE_URL: proxy.url });
        expect(r.code, r.stderr).toBe(0);
        if (way === 'arguments') expect(r.stderr).toMatch(/(^|\n)registered 100\n$/);
        else {
          expect(r.stderr).toMatch(/register: 100 numbers in \d+s/);
          expect(r.stderr).toMatch(/ {2}registered {9}100 {2}\(100 confirmed by looking them up after a lost answer\)/);
        }
        // Three chunks, each sent once.
        expect(registerSends() - sends).toBe(3);
        expectOnce(list);
      } finally {
        await proxy.close();
      }
    },
  );

  it.each(WAYS)('%s: 503s and 429 bursts end with every number registered once', async (way) => {
    const list = numbers(80, `F${WAYS.indexOf(way)}`);
    emu.sandbox.setFaults({ failureRate: 0.25, burst429: 2 });
    try {
      const [args, input] = argsFor(way, list);
      const r = await run(['register', ...args, '--carrier', '3011', '-q'], input);
      expect(r.code, r.stderr).toBe(0);
    } finally {
      emu.sandbox.setFaults({ failureRate: 0, burst429: 0 });
    }
    expectOnce(list);
  });

  it.each(WAYS)('%s: a bad number is refused with where it is, and nothing is sent', async (way) => {
    const list = [...numbers(3, `B${WAYS.indexOf(way)}`), 'no!'];
    const [args, input] = argsFor(way, list);
    const before = emu.requests();
    const r = await run(['register', ...args], input);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      way === 'arguments' ? /^trk: argument 4: number "no!"/ : /^trk: (stdin|.*\.txt) line 4: number "no!"/,
    );
    expect(emu.requests()).toBe(before);
  });

  it.each(WAYS)('%s: --dry-run reports, predicts the quota refusal, and registers nothing', async (way) => {
    const list = numbers(5, `D${WAYS.indexOf(way)}`);
    const [args, input] = argsFor(way, list);
    const fine = await run(['register', ...args, '--dry-run'], input);
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).toMatch(/5 items in 1 request of up to 40/);
    expect(fine.stderr).toMatch(/quota: 5 units, every number new, [\d,]+ left/);
    const used = emu.sandbox.account.quota.used;
    emu.sandbox.setSettings({ quotaTotal: used + 3 });
    try {
      const short = await run(['register', ...args, '--dry-run'], input);
      expect(short.code).toBe(2);
      expect(short.stderr).toMatch(/not enough quota for .*: it needs 5 units, 3 are left \(2 missing\)/);
      const real = await run(['register', ...args], input);
      expect(real.code).toBe(2);
      expect(real.stderr).toMatch(/not enough quota/);
    } finally {
      emu.sandbox.setSettings({ quotaTotal: 1_000_000 });
    }
    for (const n of list) expect(registrations(n)).toBe(0);
  });
});

describe('runs of files and pipes are remembered', () => {
  it('the same import again is not sent (not paid twice): exit 0 saying when; --again sends it', async () => {
    const list = numbers(30, 'RA');
    const f = file('remember.csv', `number,carrier\n${list.map((n) => `${n},3011`).join('\n')}\n`);
    expect((await run(['register', '-f', f, '-q'])).code).toBe(0);
    const sends = registerSends();
    const again = await run(['register', '-f', f]);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(
        String.raw`remember\.csv: the same input was fully sent by trk register on \d{4}-\d\d-\d\d \d\d:\d\d ` +
          String.raw`\(30 registered\); nothing was sent: pass --again to send it again`,
      ),
    );
    expect(registerSends()).toBe(sends);
    // The same numbers piped in are the same input.
    const piped = await run(['register'], readFileSync(f, 'utf8'));
    expect(piped.stderr).toMatch(/the same input was fully sent/);
    expect(registerSends()).toBe(sends);
    const forced = await run(['register', '-f', f, '--again']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/already registered 30/);
    expect(registerSends()).toBeGreaterThan(sends);
    const runs = await run(['runs', '--csv']);
    expect(parseCsv(runs.stdout).some((r) => r.state === 'finished' && r.input === f && r.command === 'register')).toBe(
      true,
    );
  });

  it('kill -9 in the middle, then the same command: resumed, every number once', async () => {
    const list = numbers(240, 'RK');
    const f = file('killed.txt', `${list.join('\n')}\n`);
    // Once the first answers are back and journaled, while the chunks after them are in flight.
    await stopMidway(['register', '-f', f, '--carrier', '3011'], () => registeredOf(list) >= 80, {
      thenMs: 400,
      signal: 'SIGKILL',
    });
    const done = registeredOf(list);
    expect(done).toBeLessThan(240);
    const resumed = await run(['register', '-f', f, '--carrier', '3011']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming an interrupted run: [\d,]+ done/);
    expect(resumed.stderr).toMatch(/resumed: [\d,]+ done by the interrupted run before/);
    expectOnce(list);
  });

  it('SIGTERM finishes what is in flight, saves, summarises and exits 143; the same command resumes', async () => {
    const list = numbers(240, 'RT');
    const input = `${list.join('\n')}\n`;
    const { code, stderr } = await stopMidway(['register', '--carrier', '3011'], () => registeredOf(list) >= 40, {
      signal: 'SIGTERM',
      input,
    });
    expect(code, stderr).toBe(143);
    expect(stderr).toMatch(/register: [\d,]+ of 240 numbers in/);
    expect(stderr).toMatch(/progress is saved: run the same command again to resume/);
    expect(stderr.trim().split('\n').at(-1)).toMatch(/^trk: interrupted: [\d,]+ of 240 not done$/);
    const resumed = await run(['register', '--carrier', '3011'], input);
    expect(resumed.code, resumed.stderr).toBe(0);
    expectOnce(list);
  });

  it(
    'killed (kill -9 or SIGTERM) at random moments, seeded, and run again each time: every number ' + 'registered once',
    async () => {
      const list = numbers(280, 'RR');
      const f = file('random-kills.txt', `${list.join('\n')}\n`);
      const random = mulberry32(20261124);
      for (let k = 0; k < 4; k++) {
        // Somewhere between the next chunk and a few chunks later, sometimes while a request is on the wire.
        const target = Math.min(list.length, registeredOf(list) + 1 + Math.floor(random() * 80));
        await stopMidway(['register', '-f', f, '--carrier', '3011'], () => registeredOf(list) >= target, {
          thenMs: Math.floor(random() * 300),
          signal: random() < 0.5 ? 'SIGKILL' : 'SIGTERM',
        });
        if (registeredOf(list) === list.length) break;
      }
      const last = await run(['register', '-f', f, '--carrier', '3011']);
      expect(last.code, last.stderr).toBe(0);
      expectOnce(list);
    },
  );

  it('an interrupted run gives way to one with other options, never exit 2; --restart drops it quietly', async () => {
    const list = numbers(160, 'RO');
    const f = file('options.txt', `${list.join('\n')}\n`);
    await stopMidway(['register', '-f', f, '--carrier', '3011'], () => registeredOf(list) >= 40, { signal: 'SIGKILL' });
    const other = await run(['register', '-f', f, '--carrier', '3011', '--tag', 'x']);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(/options\.txt changed since an interrupted run of it \(.*\): starting a new run/);
    expect(other.stderr).not.toMatch(/not in the new file/);
    expectOnce(list);
    // Every number carries the tag: the ones registered before got it with a free change of their info.
    for (const n of list) expect([...emu.sandbox.account.store.values()].find((r) => r.number === n)?.tag, n).toBe('x');
    const tagged = ['register', '-f', f, '--carrier', '3011', '--tag', 'y', '--again'];
    const taggedY = () => list.filter((n) => emu.sandbox.account.store.forNumber(n)[0]?.tag === 'y').length;
    // Killed once its first chunk is done, the others not: a run left interrupted, with other options.
    await stopMidway(tagged, () => taggedY() > 0, { signal: 'SIGKILL' });
    expect(taggedY()).toBeLessThan(list.length);
    const interrupted = parseCsv((await run(['runs', '--csv'])).stdout);
    expect(interrupted.filter((r) => r.input === f && r.state === 'interrupted')).toHaveLength(1);
    const restarted = await run(['register', '-f', f, '--carrier', '3011', '--restart', '-q']);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stderr).toBe('');
    const runs = await run(['runs', '--csv']);
    expect(parseCsv(runs.stdout).filter((r) => r.input === f && r.state === 'interrupted')).toEqual([]);
    expectOnce(list);
  });
});

describe('inputs are never destroyed, and bad rows can be set aside', () => {
  it('--rejects naming the input (directly or through a link) is refused and the input stays whole', async () => {
    const text = `number\n${numbers(3, 'RJ').join('\n')}\n`;
    const f = file('in.csv', text);
    const link = path.join(dir, 'link.csv');
    symlinkSync(f, link);
    for (const target of [f, link]) {
      const r = await run(['register', '-f', f, '--rejects', target]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^trk: --rejects .* is the input file/);
    }
    expect(readFileSync(f, 'utf8')).toBe(text);
  });

  it('--skip-invalid sends the valid rows, sets the others aside with their line and reason, exits 3', async () => {
    const good = numbers(4, 'RS');
    const f = file(
      'mixed.csv',
      `number,tag\n${good[0]},a\nno!,b\n${good[1]},${'x'.repeat(101)}\n${good[2]},c\n${good[3]},d\n`,
    );
    const rejects = path.join(dir, 'mixed-rejects.csv');
    const refused = await run(['register', '-f', f]);
    expect(refused.code).toBe(2);
    const r = await run(['register', '-f', f, '--skip-invalid', '--rejects', rejects, '--carrier', '3011']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/2 invalid rows set aside/);
    expect(r.stderr).toMatch(/invalid, not sent\s+2/);
    expect(parseCsv(readFileSync(rejects, 'utf8'))).toEqual([
      {
        number: 'no!',
        tag: 'b',
        input_line: '3',
        error_code: 'invalid',
        error_message: 'number "no!" is not 5 to 50 letters, digits or hyphens',
      },
      {
        number: good[1],
        tag: 'x'.repeat(101),
        input_line: '4',
        error_code: 'invalid',
        error_message: 'tag longer than 100 characters (101)',
      },
    ]);
    for (const n of [good[0]!, good[2]!, good[3]!]) expect(registrations(n)).toBe(1);
    expect(registrations(good[1]!)).toBe(0);
    // Without a rejects file they are listed on stderr.
    const listed = await run(['register', 'RS900000001CN', 'no!', '--skip-invalid', '--carrier', '3011']);
    expect(listed.code).toBe(3);
    expect(listed.stderr).toMatch(/argument 2: number "no!" .* \(set aside\)/);
  });
});

describe('trk reads its own output', () => {
  it('list | push, list --csv | stop -f -, list --json | info', async () => {
    const list = numbers(5, 'RL');
    expect((await run(['register', ...list, '--carrier', '3011', '--tag', 'own-output', '-q'])).code).toBe(0);
    await emu.sandbox.advance(2 * 24 * 3600 * 1000);
    emu.sandbox.setSettings({ webhookUrl: 'http://127.0.0.1:9/hook' });
    try {
      const piped = await run(['list', '--number', list.join(',')]);
      const push = await run(['push'], piped.stdout);
      expect(push.code, push.stderr).toBe(0);
      expect(push.stderr).toMatch(
        /tab-separated rows without a header: the first column is read as the number, the second as the carrier/,
      );
      expect(push.stderr).toMatch(/queued for push\s+5/);
    } finally {
      emu.sandbox.setSettings({ webhookUrl: null });
    }
    const csv = await run(['list', '--number', list.join(','), '--csv']);
    const stop = await run(['stop', '-f', '-'], csv.stdout);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).toMatch(/ignored .*status.*: not used by trk stop/);
    expect(stop.stderr).toMatch(/stopped\s+5/);
    const json = await run(['list', '--number', list.join(','), '--json']);
    const info = await run(['info', '--json'], json.stdout);
    expect(info.code, info.stderr).toBe(0);
    expect((JSON.parse(info.stdout) as { accepted: unknown[] }).accepted).toHaveLength(5);
  });
});

describe('exit codes scripts can use', () => {
  it('push without a webhook URL: one line naming the fix, exit 1, no row per number', async () => {
    const list = numbers(3, 'RP');
    await run(['register', ...list, '--carrier', '3011', '-q']);
    await emu.sandbox.advance(2 * 24 * 3600 * 1000);
    const r = await run(['push', ...list]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      'trk: the service refused the account: webhook URL not set; cannot push (-18010204): save a webhook URL ' +
        'in the console (Settings, Webhook), then run the same command again',
    ]);
    // With --json the same error is one JSON object on stderr, and stdout stays empty.
    const json = await run(['push', ...list, '--json']);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { message: expect.stringContaining('webhook URL not set'), exit_code: 1 },
    });
  });

  it(
    'stop of a stopped number is done (0); delete of a missing one is rejected (1) unless ' + '--ignore-missing (0)',
    async () => {
      const [n] = numbers(1, 'RX');
      await run(['register', n!, '--carrier', '3011', '-q']);
      expect((await run(['stop', n!])).code).toBe(0);
      const again = await run(['stop', n!]);
      expect(again.code).toBe(0);
      expect(again.stderr).toBe('stopped 0, already stopped 1\n');
      expect((await run(['delete', n!, '--yes'])).code).toBe(0);
      expect((await run(['delete', n!, '--yes'])).code).toBe(1);
      expect((await run(['delete', n!, '--yes', '--ignore-missing'])).code).toBe(0);
    },
  );
});

describe('a service that keeps failing', () => {
  let hostile: HostileServer;
  beforeAll(async () => {
    hostile = await startHostileServer({ mode: 'ok' });
  });
  afterAll(async () => {
    await hostile?.close();
  });

  it(
    'register failing ambiguously while lookups work: given up within the --timeout deadline, exit 1, ' + 'resumable',
    async () => {
      hostile.setMode('html-502', { path: /register$/ });
      const env = { ...emu.env, TRK_BASE_URL: hostile.url, TRK_TIMEOUT: '1s' };
      const f = file('failing.txt', `${numbers(80, 'RF').join('\n')}\n`);
      // The time trk saw pass: its back-offs skipped by the tests' clock count as they would in real time.
      const started = clock().monotonic();
      const r = await run(['register', '-f', f, '--carrier', '3011'], undefined, env);
      expect(r.code, r.stderr).toBe(1);
      expect(clock().monotonic() - started).toBeLessThan(20_000);
      expect(r.stderr).toMatch(/progress is saved/);
      expect(r.stderr.trim().split('\n').at(-1)).toMatch(
        /^trk: server error of the service \(HTTP 502\).*--timeout deadline/,
      );
      expect(hostile.requests).toBeLessThan(40);
      const runs = await run(['runs', '--csv'], undefined, env);
      expect(parseCsv(runs.stdout).some((x) => x.state === 'interrupted' && x.input === f)).toBe(true);
    },
  );
});

/**
 * Runs the built CLI (a process: what is tested is how it ends on a signal) against a slow emulator (300 ms a
 * request) and sends it `signal` once `until` holds (and `thenMs` later): what it printed on stderr and its code.
 */
async function stopMidway(
  args: string[],
  until: () => boolean,
  opts: { thenMs?: number; signal: NodeJS.Signals; input?: string },
): Promise<{ code: number | null; stderr: string }> {
  assertBuilt();
  await budgetForAProcess(emu.env);
  emu.sandbox.setFaults({ latencyMs: 300 });
  try {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), ...args], {
      env: emu.env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((r) => child.on('close', r));
    child.stdin.on('error', () => {});
    child.stdin.end(opts.input ?? '');
    try {
      // Real time: the process runs on the machine's clock; bounded, and given up if it ended on its own.
      for (const deadline = Date.now() + 20_000; !until(); await realDelay(20)) {
        if (child.exitCode !== null) throw new Error(`trk ended (${child.exitCode}) before it was stopped: ${stderr}`);
        if (Date.now() > deadline) throw new Error(`trk never got there in 20 s: ${stderr}`);
      }
      // Real time, as the process lives it: the moment its requests are at.
      if (opts.thenMs) await realDelay(opts.thenMs);
    } catch (err) {
      child.kill('SIGKILL');
      await closed;
      throw err;
    }
    child.kill(opts.signal);
    return { code: await closed, stderr };
  } finally {
    emu.sandbox.setFaults({ latencyMs: 0 });
  }
}

/** A small seeded generator, so that "random" moments are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
