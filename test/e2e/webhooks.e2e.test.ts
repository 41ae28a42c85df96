// Webhooks end to end: the emulator delivers to trk's own receiver (startListener, and `trk webhook listen`, in
// this process and as a process of its own stopped with Ctrl-C), signatures are checked against the spec's rule
// computed here independently, and a failed delivery is retried 600 s of simulated time later, with the outcome
// visible in `trk list`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { SANDBOX_KEY } from '@trk/sandbox/http/server.js';
import { startListener, type Listener, type ReceivedEvent } from '../../src/webhook/listen.js';
import { rawMember } from '../../src/webhook/raw-json.js';
import { app, deadUrl } from '../webhook/app.js';
import { ROOT, numbers, parseCsv, startEmulator, trk, trkRunning, type Emulator } from './helpers.js';

const SECOND = 1000;
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

let emu: Emulator;
let listener: Listener;
/** Numbers whose first delivery is answered 500. */
const failFirst = new Set<string>();
const failedOnce = new Set<string>();

/** Every delivery the listener handled, kept here: the listener itself keeps counters only. */
const received: ReceivedEvent[] = [];
/** Told of each delivery as the listener handles it. */
const watchers = new Set<() => void>();
const eventsOf = (number: string) => received.filter((e) => e.summary.number === number);

/** The `n`-th delivery of `number`, once the listener has handled it. */
function nth(number: string, n: number): Promise<ReceivedEvent> {
  return new Promise((resolve) => {
    const check = () => {
      const ev = eventsOf(number)[n - 1];
      if (!ev) return;
      watchers.delete(check);
      resolve(ev);
    };
    watchers.add(check);
    check();
  });
}

beforeAll(async () => {
  listener = await startListener({
    io: createTestIO(),
    key: SANDBOX_KEY,
    onEvent: (ev) => {
      received.push(ev);
      for (const w of [...watchers]) w();
    },
    respond: (ev) => {
      const number = ev.summary.number ?? '';
      if (!failFirst.has(number) || failedOnce.has(number)) return undefined;
      failedOnce.add(number);
      return 500;
    },
  });
  emu = await startEmulator({ speed: 0, webhookUrl: listener.url });
  expect(emu.sandbox.key).toBe(SANDBOX_KEY);
});

afterAll(async () => {
  await emu?.close();
  await listener?.close();
});

/** Register one number in `version` with trk. */
async function register(version: string, number: string): Promise<void> {
  const r = await trk(['--api-version', version, 'register', number, '--carrier', '3011', '-q'], { env: emu.env });
  expect(r.code, r.stderr).toBe(0);
}

/** The record as trk lists it, as JSON (the service's item) and as CSV (the common columns). */
async function listed(
  version: string,
  number: string,
): Promise<{ json: Record<string, unknown>; csv: Record<string, string> }> {
  const j = await trk(['--api-version', version, 'list', '--number', number, '--json'], { env: emu.env });
  expect(j.code, j.stderr).toBe(0);
  const c = await trk(['--api-version', version, 'list', '--number', number, '--csv'], { env: emu.env });
  expect(c.code, c.stderr).toBe(0);
  return { json: (JSON.parse(j.stdout) as Record<string, unknown>[])[0]!, csv: parseCsv(c.stdout)[0]! };
}

function expectV2Signed(ev: ReceivedEvent): void {
  expect(ev.version).toBe('v2');
  expect(ev.verified).toBe(true);
  // The spec's rule, computed here: sha256 of the raw body, a slash and the key, lowercase hex.
  expect(ev.headers.sign).toBe(sha(Buffer.concat([ev.raw, Buffer.from(`/${SANDBOX_KEY}`)])));
}

function expectV1Signed(ev: ReceivedEvent): void {
  expect(ev.version).toBe('v1');
  expect(ev.verified).toBe(true);
  expect(ev.headers.sign).toBeUndefined();
  const text = ev.raw.toString('utf8');
  const body = JSON.parse(text) as { event: string; sign: string };
  expect(Object.keys(body)).toEqual(['event', 'sign', 'data']);
  // `<event>/<compact data as sent>/<key>`.
  expect(body.sign).toBe(sha(`${body.event}/${rawMember(text, 'data')}/${SANDBOX_KEY}`));
}

const LISTENING = /Listening on (http:\/\/127\.0\.0\.1:\d+\/hook)/;

/** `trk webhook listen ...` as a process of its own: its output so far, what it prints, its exit. */
function spawnListener(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const seen = new Set<() => void>();
  let closed = false;
  const wake = () => {
    for (const w of [...seen]) w();
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out.stdout += d;
    wake();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    out.stderr += d;
    wake();
  });
  const exited = new Promise<number | null>((r) =>
    child.on('close', (code) => {
      closed = true;
      wake();
      r(code);
    }),
  );
  /** The first match of `pattern` in what it printed on `stream`, as it comes; rejects if it exits first. */
  const printed = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stderr') =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out[stream]);
        if (!m && !closed) return;
        seen.delete(check);
        if (m) resolve(m);
        else reject(new Error(`trk ${args.join(' ')} exited without printing ${pattern}:\n${out.stderr}`));
      };
      seen.add(check);
      check();
    });
  return {
    child,
    get stdout() {
      return out.stdout;
    },
    get stderr() {
      return out.stderr;
    },
    exited,
    printed,
  };
}

describe('webhooks from the emulator to trk’s receiver', () => {
  const [v2Number, v1Number, v21Number, failing, viaCli, saved] = numbers(6, 'WH');

  it('TRACKING_UPDATED arrives verified: v2/v2.1 with the sign header, v1 with the sign in its body', async () => {
    await register('v2', v2Number!);
    await register('v1', v1Number!);
    await register('v2.1', v21Number!);
    // First tracking runs come 3 to 10 s after registration; their results are pushed at once.
    await emu.sandbox.advance(60 * SECOND);

    const v2 = await nth(v2Number!, 1);
    expectV2Signed(v2);
    expect(v2.status).toBe(200);
    expect(v2.body).toMatchObject({ event: 'TRACKING_UPDATED', data: { number: v2Number, carrier: 3011 } });
    expect((v2.body as { data: object }).data).toHaveProperty('track_info');

    const v1 = await nth(v1Number!, 1);
    expectV1Signed(v1);
    expect(v1.body).toMatchObject({ event: 'TRACKING_UPDATED', data: { number: v1Number } });
    expect((v1.body as { data: { track: { w1: number } } }).data.track.w1).toBe(3011);

    const v21 = await nth(v21Number!, 1);
    expectV2Signed(v21);
    const providers = (
      v21.body as { data: { track_info: { tracking: { providers: { events: { sub_status?: string }[] }[] } } } }
    ).data.track_info.tracking.providers;
    // v2.1 bodies carry each event's sub_status.
    expect(providers.flatMap((p) => p.events).every((e) => typeof e.sub_status === 'string')).toBe(true);

    // The emulator records the successful pushes; trk lists them in every version.
    expect((await listed('v2', v2Number!)).json).toMatchObject({ push_status: 'Success', push_status_code: 200 });
    expect((await listed('v1', v1Number!)).json).toMatchObject({ ps: 200 });
    expect((await listed('v1', v1Number!)).csv).toMatchObject({ push_status: 'Success', push_code: '200' });
  });

  it('trk webhook verify accepts the delivered bodies and refuses altered ones', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-hooks-'));
    const env = { ...emu.env };
    const v2 = eventsOf(v2Number!)[0]!;
    const v1 = eventsOf(v1Number!)[0]!;
    const v2File = path.join(dir, 'v2.json');
    const v1File = path.join(dir, 'v1.json');
    writeFileSync(v2File, v2.raw);
    writeFileSync(v1File, v1.raw);
    const sign = String(v2.headers.sign);
    expect((await trk(['webhook', 'verify', '--body', v2File, '--sign', sign], { env })).code).toBe(0);
    expect((await trk(['webhook', 'verify', '--body', v1File], { env })).code).toBe(0);
    // The same under any --api-version: the rule follows the body.
    expect(
      (await trk(['--api-version', 'v1', 'webhook', 'verify', '--body', v2File, '--sign', sign], { env })).code,
    ).toBe(0);
    const altered = path.join(dir, 'altered.json');
    writeFileSync(altered, v2.raw.toString('utf8').replace(v2Number!, v1Number!));
    const bad = await trk(['webhook', 'verify', '--body', altered, '--sign', sign], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not genuine/);
    writeFileSync(altered, v1.raw.toString('utf8').replace('"TRACKING_UPDATED"', '"TRACKING_STOPPED"'));
    expect((await trk(['webhook', 'verify', '--body', altered], { env })).code).toBe(1);
  });

  it(
    'a failed delivery is recorded as Failure, retried 600 s of simulated time later, then recorded as ' + 'Success',
    async () => {
      failFirst.add(failing!);
      await register('v2', failing!);
      await emu.sandbox.advance(60 * SECOND);
      const first = await nth(failing!, 1);
      expect(first.status).toBe(500);
      expectV2Signed(first);

      const failed = await listed('v2', failing!);
      expect(failed.json).toMatchObject({ push_status: 'Failure', push_status_code: 500 });
      expect(failed.csv).toMatchObject({ push_status: 'Failure', push_code: '500' });
      const failedV1 = await listed('v1', failing!);
      expect(failedV1.json).toMatchObject({ ps: 500 });
      expect(failedV1.csv).toMatchObject({ push_status: 'Failure', push_code: '500', pushed: failed.csv.pushed });
      const list = await trk(['list', '--push-status', 'Failure', '--json'], { env: emu.env });
      expect((JSON.parse(list.stdout) as { number: string }[]).map((r) => r.number)).toEqual([failing]);

      // Not before 600 s: advance() returns once what fell due was delivered and answered, so a retry due by now
      // would have been sent, and handled by the listener before it answered.
      await emu.sandbox.advance(599 * SECOND);
      expect(emu.sandbox.account.deliveries().filter((d) => d.number === failing)).toHaveLength(1);
      expect(eventsOf(failing!)).toHaveLength(1);
      // ...and at 600 s.
      await emu.sandbox.advance(1 * SECOND);
      const retry = await nth(failing!, 2);
      expect(retry.status).toBe(200);
      expectV2Signed(retry);
      expect(retry.raw.equals(first.raw)).toBe(true);

      const done = await listed('v2', failing!);
      expect(done.json).toMatchObject({ push_status: 'Success', push_status_code: 200 });
      expect(Date.parse(done.json.push_time as string) - Date.parse(failed.json.push_time as string)).toBe(
        600 * SECOND,
      );
      expect((await listed('v1', failing!)).csv).toMatchObject({
        push_status: 'Success',
        push_code: '200',
        pushed: done.csv.pushed,
      });
    },
  );

  it('trk push with the v1 body version set on the account: a v1 body for a number registered with v2', async () => {
    emu.sandbox.setSettings({ webhookVersion: 'v1' });
    try {
      const before = eventsOf(v2Number!).length;
      const r = await trk(['push', v2Number!, '-q'], { env: emu.env });
      expect(r.code, r.stderr).toBe(0);
      await emu.sandbox.advance(1 * SECOND);
      const pushed = await nth(v2Number!, before + 1);
      expectV1Signed(pushed);
      expect(pushed.body).toMatchObject({ event: 'TRACKING_UPDATED', data: { number: v2Number } });
    } finally {
      emu.sandbox.setSettings({ webhookVersion: null });
    }
  });

  it(
    'trk webhook listen (spawned) prints each verified notification, refuses a forged one, stops ' + 'on Ctrl-C',
    async () => {
      const env = { ...emu.env };
      const proc = spawnListener(['webhook', 'listen', '--port', '0', '--json'], env);
      const { child, exited } = proc;
      try {
        const url = (await proc.printed(LISTENING))[1]!;
        emu.sandbox.setSettings({ webhookUrl: url });
        await register('v1', viaCli!);
        await emu.sandbox.advance(60 * SECOND);
        // A whole line: what came so far may end within one.
        const line = (await proc.printed(new RegExp(`^(.*${viaCli}.*)\n`, 'm'), 'stdout'))[1]!;
        expect(JSON.parse(line)).toMatchObject({
          event: 'TRACKING_UPDATED',
          number: viaCli,
          carrier: 3011,
          verified: true,
        });
        expect((await listed('v1', viaCli!)).csv).toMatchObject({ push_status: 'Success', push_code: '200' });

        const forged = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', sign: '0'.repeat(64) },
          body: JSON.stringify({ event: 'TRACKING_UPDATED', data: { number: viaCli } }),
        });
        expect(forged.status).toBe(401);
        await proc.printed(/401 bad signature/);
      } finally {
        emu.sandbox.setSettings({ webhookUrl: listener.url });
        child.kill('SIGINT');
      }
      expect(await exited).toBe(0);
      expect(proc.stderr).toMatch(/stopped: \d+ notifications?, 1 refused/);
    },
  );

  it(
    'listen --save keeps body and headers, --print streams bodies (through --jq); verify checks the saved ' +
      'pair later',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'trk-hooks-'));
      const hooks = path.join(dir, 'hooks');
      const env = { ...emu.env };
      const run = trkRunning(['webhook', 'listen', '--port', '0', '--save', hooks, '--print', '--jq', '.data.number'], {
        env,
      });
      try {
        emu.sandbox.setSettings({ webhookUrl: (await run.printed(LISTENING))[1]! });
        await register('v2', saved!);
        await emu.sandbox.advance(60 * SECOND);
        // The body went through the jq program as soon as it came: the number alone, raw.
        await run.printed(new RegExp(`^${saved}$`, 'm'), 'stdout');
        // The event line went to stderr, so that stdout holds nothing but bodies.
        expect(run.stderr()).toContain(`TRACKING_UPDATED  ${saved}`);
      } finally {
        emu.sandbox.setSettings({ webhookUrl: listener.url });
        run.interrupt();
      }
      expect((await run.done).code).toBe(0);

      const { readdirSync, readFileSync } = await import('node:fs');
      const files = readdirSync(hooks)
        .filter((f) => f.includes(saved!))
        .sort();
      expect(files).toHaveLength(2);
      const [headersFile, bodyFile] = files.map((f) => path.join(hooks, f)) as [string, string];
      expect(headersFile).toMatch(/\.headers$/);
      const headers = readFileSync(headersFile, 'utf8');
      expect(headers).toMatch(/^POST \/hook HTTP\/1\.1\n/);
      expect(headers).toMatch(
        new RegExp(`^sign: ${sha(Buffer.concat([readFileSync(bodyFile), Buffer.from(`/${SANDBOX_KEY}`)]))}$`, 'mi'),
      );

      // The body file alone: the sign is read from the headers file beside it.
      const ok = await trk(['webhook', 'verify', bodyFile], { env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toBe('');
      expect(ok.stderr).toMatch(/^genuine: the sign header \(from the sign header in .*\.headers\) matches/);
      // The headers file names the body beside it; the verdict as data when asked for.
      const json = await trk(['webhook', 'verify', headersFile, '--json'], { env });
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([
        { genuine: true, rule: 'v2', body: bodyFile, sign_from: `the sign header in ${headersFile}` },
      ]);
      const csv = await trk(['webhook', 'verify', '--body', bodyFile, '--headers', headersFile, '--csv'], { env });
      expect(parseCsv(csv.stdout)).toEqual([
        { genuine: 'true', rule: 'v2', body: bodyFile, sign_from: `the sign header in ${headersFile}` },
      ]);

      // A body changed after it was saved is not genuine (exit 1), and says so in the verdict too.
      const altered = path.join(dir, 'altered.json');
      writeFileSync(altered, readFileSync(bodyFile, 'utf8').replace(saved!, 'RR000000000CN'));
      const bad = await trk(['webhook', 'verify', '--body', altered, '--headers', headersFile, '-o', 'ndjson'], {
        env,
      });
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stdout)).toMatchObject({ genuine: false, rule: 'v2' });

      // --save onto a file: refused in words, nothing listened on.
      const refused = await trk(['webhook', 'listen', '--port', '0', '--save', bodyFile], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^trk: cannot save into .*: a file is in the way, and notifications are saved in a folder: give a folder/,
      );
      expect(refused.stderr).not.toContain('EEXIST');
      expect(refused.stderr).not.toContain('Listening');
    },
  );

  it('listen --forward-to keeps what the app did not take; replay sends it signed as received', async () => {
    const [queued] = numbers(1, 'WQ');
    const env = { ...emu.env };
    const downUrl = await deadUrl();
    const run = trkRunning(['webhook', 'listen', '--port', '0', '--forward-to', downUrl], { env });
    try {
      emu.sandbox.setSettings({ webhookUrl: (await run.printed(LISTENING))[1]! });
      await register('v2', queued!);
      await emu.sandbox.advance(60 * SECOND);
      await run.printed(new RegExp(`${queued} not forwarded to `));
      expect(run.stderr()).toContain(`${queued} not forwarded to ${downUrl}`);
    } finally {
      emu.sandbox.setSettings({ webhookUrl: listener.url });
      run.interrupt();
    }
    const { code, stderr } = await run.done;
    expect(code).toBe(0);
    expect(stderr).toMatch(/stopped: 1 notification, 0 refused; 0 forwarded, 1 failed/);
    const dir = /is kept in (\S+): trk webhook replay \1 --forward-to/.exec(stderr)?.[1];
    expect(dir).toContain(path.join(String(env.TRK_STATE_DIR), 'webhook-queue'));

    // The app is up now.
    const target = await app([204]);
    const r = await trk(['webhook', 'replay', dir!, '--forward-to', target.url], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/replayed 1 notification: 1 forwarded/);
    const [got] = target.got;
    expect(target.got).toHaveLength(1);
    expect(JSON.parse(got!.body.toString())).toMatchObject({ event: 'TRACKING_UPDATED', data: { number: queued } });
    expect(got!.headers.sign).toBe(sha(Buffer.concat([got!.body, Buffer.from(`/${SANDBOX_KEY}`)])));
    expect(existsSync(dir!)).toBe(false);
  });
});
