// The life of a run of a file: stopped at any moment, its file changed, run again with other options or another
// night's export, against an account that holds some of its numbers already. Commands run in this process; the
// ones stopped by a signal are processes of the built CLI.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as realDelay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ROOT,
  assertBuilt,
  baseEnv,
  budgetForAProcess,
  numbers,
  parseCsv,
  startEmulator,
  trk,
  type Emulator,
} from './helpers.js';

let emu: Emulator;
let dir: string;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0, seed: 5 });
  dir = mkdtempSync(path.join(tmpdir(), 'trk-runs-'));
});

afterAll(async () => {
  await emu?.close();
});

const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

/**
 * Real time, bounded: waits until `until` holds while a process (on the machine's clock) or the emulator's latency
 * (a real timer) brings it about; fails at once when `gone` says what it waited on ended first.
 */
async function poll(until: () => boolean, what: string, gone?: () => string | undefined): Promise<void> {
  // Real time: what is waited for happens on the machine's clock (a process, the emulator's latency).
  for (const deadline = Date.now() + 20_000; !until(); await realDelay(10)) {
    const ended = gone?.();
    if (ended !== undefined) throw new Error(`ended before ${what}: ${ended}`);
    if (Date.now() > deadline) throw new Error(`not ${what} in 20 s`);
  }
}

describe('signals', () => {
  it('SIGTERM early (starting, checking the file, asking for the quota) exits 143, never 130', async () => {
    assertBuilt();
    const f = file('early.txt', `${numbers(2000, 'ET').join('\n')}\n`);
    emu.sandbox.setFaults({ latencyMs: 800 });
    try {
      const quotaAsks = () => emu.sandbox.state().requests.byOperation['v2/getquota'] ?? 0;
      const moments: ((child: ChildProcess) => Promise<void>)[] = [
        () => realDelay(0), // Starting; real time, the machine's clock the process runs on.
        () => realDelay(150), // Checking the file; real time, the machine's clock the process runs on.
        // The quota request is on the wire (it waits 800 ms for its answer).
        async (child) => {
          const before = quotaAsks();
          await poll(
            () => quotaAsks() > before,
            'asking for the quota',
            () => (child.exitCode === null ? undefined : `exit ${child.exitCode}`),
          );
        },
      ];
      for (const [i, moment] of moments.entries()) {
        const child = spawn(
          process.execPath,
          [path.join(ROOT, 'bin', 'trk.js'), 'register', '-f', f, '--carrier', '3011'],
          {
            env: { ...baseEnv(), TRK_BASE_URL: emu.sandbox.url, TRK_API_KEY: emu.sandbox.key },
            stdio: ['ignore', 'ignore', 'pipe'],
          },
        );
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) =>
          child.on('close', (code, signal) => r([code, signal])),
        );
        await moment(child).catch((err: unknown) => {
          child.kill('SIGKILL');
          throw err;
        });
        child.kill('SIGTERM');
        const [code, signal] = await exited;
        // Before trk has its handler, Node's default ends the process by the signal: a shell sees 143 too.
        expect(code ?? (signal === 'SIGTERM' ? 143 : signal), `moment ${i}: ${stderr}`).toBe(143);
        expect(stderr).not.toMatch(/Node\.js|at .*\(node:/);
      }
    } finally {
      emu.sandbox.setFaults({ latencyMs: 0 });
    }
  });
});

const run = (args: string[], input?: string, env: NodeJS.ProcessEnv = emu.env) =>
  trk(args, { env, ...(input === undefined ? {} : { input }) });
const registered = (n: string) => emu.sandbox.account.store.forNumber(n);
const registerSends = () => emu.sandbox.state().requests.byOperation['v2/register'] ?? 0;

/**
 * Runs the built CLI (a process: what is tested is how it ends on a signal) against a slow emulator, sends it
 * `signal` once `until` holds, and waits for it to end: its exit code and what it printed.
 */
async function stopWhen(args: string[], until: () => boolean, signal: NodeJS.Signals = 'SIGTERM') {
  assertBuilt();
  await budgetForAProcess(emu.env);
  emu.sandbox.setFaults({ latencyMs: 300 });
  try {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), ...args], {
      env: emu.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    await poll(until, 'stopped', () =>
      child.exitCode === null ? undefined : `exit ${child.exitCode}: ${out.stderr}`,
    ).catch(async (err: unknown) => {
      child.kill('SIGKILL');
      await exited;
      throw err;
    });
    child.kill(signal);
    return { code: await exited, ...out };
  } finally {
    emu.sandbox.setFaults({ latencyMs: 0 });
  }
}

const countOf = (list: readonly string[], test: (n: string) => boolean) => list.filter(test).length;

describe('a nightly cron job that survives a bad night', () => {
  it('cut off, then the export rewritten: the next night starts a new run, names what was lost, exits 0', async () => {
    const night1 = numbers(300, 'CN1');
    const f = file('export.csv', `Tracking Number,Carrier\n${night1.map((n) => `${n},3011`).join('\n')}\n`);
    const cron = ['register', '-f', f, '--column', 'Tracking Number=number'];
    const cut = await stopWhen(cron, () => countOf(night1, (n) => registered(n).length > 0) >= 80);
    expect(cut.code).toBe(143);
    const done = night1.filter((n) => registered(n).length > 0);
    // The shop rewrites the file: yesterday's first 150 orders and 30 new ones.
    const night2 = [...night1.slice(0, 150), ...numbers(30, 'CN2')];
    writeFileSync(f, `Tracking Number,Carrier\n${night2.map((n) => `${n},3011`).join('\n')}\n`);
    const sends = registerSends();
    const r = await run(cron);
    expect(r.code, r.stderr).toBe(0);
    const lost = night1.slice(150).filter((n) => !done.includes(n));
    expect(r.stderr).toMatch(
      /export\.csv changed since an interrupted run of it \(.*\): starting a new run of the file as it is now/,
    );
    expect(r.stderr).toContain(
      `${lost.length} numbers of the interrupted run are not in the new file and were not sent: they are named in `,
    );
    const rejects = /(\S+\.csv)\n/.exec(r.stderr.split('are named in ')[1] ?? '')?.[1];
    expect(rejects).toMatch(/\/state\/rejects\/.*-register-export\.csv$/);
    const named = parseCsv(readFileSync(rejects!, 'utf8'));
    expect(named.map((x) => x['Tracking Number']).sort()).toEqual([...lost].sort());
    expect(named.every((x) => x.error_code === 'not-sent')).toBe(true);
    // Only what the interrupted run had not confirmed was sent; nothing twice.
    const fresh = night2.filter((n) => !done.includes(n));
    expect(registerSends() - sends).toBe(Math.ceil(fresh.length / 40));
    for (const n of new Set([...done, ...night2])) expect(registered(n), n).toHaveLength(1);
    // The night after: nothing new, exit 0, and no interrupted run left.
    const third = await run([...cron, '-q']);
    expect(third.code).toBe(0);
    expect(third.stderr).toBe('');
    const runs = await run(['runs', '--csv']);
    expect(parseCsv(runs.stdout).filter((x) => x.input === f && x.state === 'interrupted')).toEqual([]);
  });

  it('stop -f alike, and with --quiet the one line names what was set aside', async () => {
    const list = numbers(200, 'CQ1');
    expect((await run(['register', ...list, '--carrier', '3011', '-q'])).code).toBe(0);
    const f = file('stop.txt', `${list.join('\n')}\n`);
    const stopped = (n: string) => registered(n)[0]?.tracking === false;
    const cut = await stopWhen(['stop', '-f', f], () => countOf(list, stopped) >= 40, 'SIGKILL');
    expect(cut.code).toBeNull();
    const done = list.filter(stopped);
    writeFileSync(f, `${list.slice(0, 120).join('\n')}\n`);
    const r = await run(['stop', '-f', f, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const lost = list.slice(120).filter((n) => !done.includes(n));
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^stop: ${lost.length} numbers of the interrupted run are not in the new file and were not sent: ` +
          'written to .*\\.csv$',
      ),
    );
    for (const n of list.slice(0, 120)) expect(stopped(n), n).toBe(true);
  });
});

describe('what is charged, what is sent again, what is set aside', () => {
  it('the quota check counts only numbers not registered already; --dry-run says how many are new', async () => {
    const old = numbers(50, 'CA1');
    expect((await run(['register', ...old, '--carrier', '3011', '-q'])).code).toBe(0);
    const used = emu.sandbox.account.quota.used;
    // Registering a registered number again costs nothing.
    expect((await run(['register', old[0]!, '--carrier', '3011', '-q'])).code).toBe(0);
    expect(emu.sandbox.account.quota.used).toBe(used);
    const fresh = numbers(10, 'CA2');
    const f = file('quota.txt', `${[...old, ...fresh].join('\n')}\n`);
    emu.sandbox.setSettings({ quotaTotal: used + 12 });
    try {
      const dry = await run(['register', '-f', f, '--carrier', '3011', '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stderr).toContain('quota: 10 units for 10 new numbers (50 registered already cost nothing), 12 left');
      const r = await run(['register', '-f', f, '--carrier', '3011']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/registered\s+10\n/);
      expect(r.stderr).toMatch(/already registered\s+50\n/);
      expect(emu.sandbox.account.quota.used).toBe(used + 10);
    } finally {
      emu.sandbox.setSettings({ quotaTotal: 1_000_000 });
    }
  });

  it('a finished file run again with an option that changes its requests sends them again', async () => {
    const list = numbers(6, 'RC');
    const f = file('options.csv', `number,shipper\n${list.map((n) => `${n},3011`).join('\n')}\n`);
    expect((await run(['register', '-f', f, '-q'])).code).toBe(0);
    const sends = registerSends();
    const same = await run(['register', '-f', f]);
    expect(same.stderr).toMatch(/the same input was fully sent/);
    expect(registerSends()).toBe(sends);
    const mapped = await run(['register', '-f', f, '--column', 'shipper=carrier']);
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(mapped.stderr).toMatch(/already registered\s+6/);
    expect(registerSends()).toBe(sends + 1);
    const tagged = await run(['register', '-f', f, '--column', 'shipper=carrier', '--tag', 'vip']);
    expect(tagged.code, tagged.stderr).toBe(0);
    expect(tagged.stderr).toMatch(/already registered\s+6\n {2}tag applied {8}6 {2}\(to numbers registered already/);
    for (const n of list) expect(registered(n)[0]?.tag).toBe('vip');
    // A carrier map that says another code for the shop's carrier name changes the requests too.
    const named = file('named.csv', `number,carrier\n${list.map((n) => `${n},Posty`).join('\n')}\n`);
    const map = (code: number) => file(`map-${code}.csv`, `name,code\nPosty,${code}\n`);
    expect((await run(['register', '-f', named, '--carrier-map', map(3011), '-q'])).code).toBe(0);
    const mapped3011 = registerSends();
    expect((await run(['register', '-f', named, '--carrier-map', map(3011)])).stderr).toMatch(/fully sent/);
    const remapped = await run(['register', '-f', named, '--carrier-map', map(190271)]);
    expect(remapped.code, remapped.stderr).toBe(0);
    expect(registerSends()).toBe(mapped3011 + 1);
  });

  it('register --tag of a registered number applies the tag and the row reads accepted', async () => {
    const [n] = numbers(1, 'CT1');
    expect((await run(['register', n!, '--carrier', '3011', '--tag', 'first', '-q'])).code).toBe(0);
    const used = emu.sandbox.account.quota.used;
    const r = await run(['register', n!, '--carrier', '3011', '--tag', 'second', '--csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(parseCsv(r.stdout)).toEqual([
      expect.objectContaining({ number: n, result: 'accepted', tag: 'second', error_code: '' }),
    ]);
    expect(r.stderr).toBe('registered 0, already registered 1, tag applied 1\n');
    expect(registered(n!)[0]?.tag).toBe('second');
    expect(emu.sandbox.account.quota.used).toBe(used);
  });

  it('rejections without --rejects or a format go to a rejects file in the state folder', async () => {
    const good = numbers(2, 'CR1');
    const f = file('with-bad.csv', `number,tag\n${good[0]},a\nXX00000099,b\n${good[1]},c\n`);
    const r = await run(['register', '-f', f]);
    expect(r.code, r.stderr).toBe(3);
    const written = /1 row written to (\S+)\n/.exec(r.stderr)?.[1];
    expect(written).toBe(path.join(emu.env.TRK_STATE_DIR!, 'rejects', path.basename(written!)));
    expect(parseCsv(readFileSync(written!, 'utf8'))).toEqual([
      {
        number: 'XX00000099',
        tag: 'b',
        input_line: '3',
        error_code: '-18019903',
        error_message: 'carrier cannot be detected',
      },
    ]);
    const quiet = await run(['register', '-f', f, '--again', '-q']);
    expect(quiet.code).toBe(3);
    expect(quiet.stderr).toMatch(/^register: 1 of 3 numbers set aside \(1 rejected\): written to \S+\.csv\n$/);
  });

  it('--json of a run whose file changed part-way does not parse as complete, and the exit is not 0', async () => {
    // Rows of a kilobyte, 1,000 of them: the run reads ahead a few chunks only, and meets the change.
    const list = numbers(1000, 'CJ1');
    const wide = (l: readonly string[]) => `number,note\n${l.map((n) => `${n},${'x'.repeat(1000)}`).join('\n')}\n`;
    const f = file('changing.csv', wide(list));
    const args = ['register', '-f', f, '--carrier', '3011', '--json'];
    const started = () => countOf(list, (n) => registered(n).length > 0) > 0;
    // Answers held 300 ms: the first chunks are registered while the run is still reading the file.
    emu.sandbox.setFaults({ latencyMs: 300 });
    let r: Awaited<ReturnType<typeof run>>;
    try {
      let ended = false;
      const running = run(args).finally(() => (ended = true));
      await poll(started, 'started', () => (ended ? 'the run' : undefined));
      writeFileSync(f, wide(list.slice(0, 500)));
      r = await running;
    } finally {
      emu.sandbox.setFaults({ latencyMs: 0 });
    }
    expect(r.code, r.stderr).toBe(1);
    expect(() => JSON.parse(r.stdout)).toThrow();
    expect(r.stderr).toMatch(/changing\.csv changed since it was checked/);
    expect(countOf(list, (n) => registered(n).length > 0)).toBeLessThan(1000);
  });
});
