// The hostile server as a proxy in front of the real emulator: the emulator does the work, then the answer is lost
// or spoiled. trk must say that a write may have been done (and never claim it failed cleanly), ask again for what
// is safe to ask again, and never present part of a list as the whole.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbers, startEmulator, trk, type Emulator } from '../e2e/helpers.js';
import { startHostileServer, type HostileServer } from './server.js';

let emu: Emulator;
let proxy: HostileServer;
/** trk pointed at the proxy, with the emulator's key. */
let viaProxy: NodeJS.ProcessEnv;

beforeAll(async () => {
  // No rate limit upstream: the proxy's own latency varies more than trk's pacing margin allows for, and a 429
  // turned into a spoiled 200 would test the proxy, not trk.
  emu = await startEmulator({ speed: 0, rateLimit: 0 });
  proxy = await startHostileServer({ mode: 'ok', upstream: emu.sandbox.url });
  // A deadline of 30 s: a call's attempts run out first (their back-offs come to 7.5 s at most, on the tests'
  // clock), so the failure shown is the answer's, never a last attempt cut short by what was left of the deadline;
  // the item engine's lookups reach it (their pauses double from half a second), and end with it.
  viaProxy = { ...emu.env, TRK_BASE_URL: proxy.url, TRK_TIMEOUT: '10s' };
});

afterAll(async () => {
  await proxy?.close();
  await emu?.close();
});

const registered = (number: string) =>
  [...emu.sandbox.account.store.values()].some((r) => (r as { number?: string }).number === number);

describe('answers lost or spoiled after the emulator did the work', () => {
  const sends = () => emu.sandbox.state().requests.byOperation['v2/register'] ?? 0;

  it('register: the connection drops after processing → looked up, found, not sent twice (exit 0)', async () => {
    const [n] = numbers(1, 'RP');
    proxy.setMode('reset', { path: /register$/ });
    const before = sends();
    const r = await trk(['register', n!, '--carrier', '3011'], { env: viaProxy });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('registered 1\n');
    // Charging: exactly one send reached the service; the lookup of the number (gettracklist) found it.
    expect(sends() - before).toBe(1);
    expect(registered(n!)).toBe(true);
    // The next run sees it as already registered: nothing was lost, nothing charged twice.
    proxy.setMode('ok');
    const again = await trk(['register', n!, '--carrier', '3011'], { env: viaProxy });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already registered 1/);
  });

  it(
    'register: an answer of the wrong shape is an unknown outcome, looked up rather than sent again, not ' + 'a crash',
    async () => {
      for (const mode of ['accepted-string', 'rejected-null', 'data-null', 'truncated'] as const) {
        const [n] = numbers(1, `RQ${mode.length}`);
        proxy.setMode(mode, { path: /register$/ });
        const before = sends();
        const r = await trk(['register', n!, '--carrier', '3011'], { env: viaProxy });
        expect(r.code, `${mode}: ${r.stderr}`).toBe(0);
        expect(sends() - before, mode).toBe(1);
        expect(registered(n!)).toBe(true);
      }
    },
  );

  it(
    'register: when the lookups fail too, the run gives up within the deadline, saying it may have been ' + 'processed',
    async () => {
      const [n] = numbers(1, 'RG');
      proxy.setMode('truncated');
      const before = sends();
      const r = await trk(['-q', 'register', n!, '--carrier', '3011'], { env: viaProxy });
      expect(r.code).toBe(1);
      // The quota read fails first: nothing is sent.
      expect(r.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^trk: the service sent an answer trk cannot read: not JSON/),
      ]);
      expect(sends() - before).toBe(0);
      proxy.setMode('truncated', { path: /(register|gettracklist)$/ });
      const spoiled = await trk(['-q', 'register', n!, '--carrier', '3011'], { env: viaProxy });
      expect(spoiled.code).toBe(1);
      expect(spoiled.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^trk: the service sent an answer trk cannot read: .*--timeout deadline.*may have been processed/,
        ),
      ]);
      expect(sends() - before).toBe(1);
      expect(registered(n!)).toBe(true);
    },
  );

  it('delete: a truncated answer after the deletion → exit 1 naming how to check; the number is gone', async () => {
    const [n] = numbers(1, 'RD');
    proxy.setMode('ok');
    expect((await trk(['-q', 'register', n!, '--carrier', '3011'], { env: viaProxy })).code).toBe(0);
    proxy.setMode('truncated', { path: /deletetrack$/ });
    const r = await trk(['-q', 'delete', n!, '--yes'], { env: viaProxy });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/may have been processed: check with "trk info"/);
    expect(registered(n!)).toBe(false);
  });

  it('quota: data null is a failure, never an empty quota with exit 0', async () => {
    proxy.setMode('data-null');
    const r = await trk(['-q', 'quota', '--json'], { env: viaProxy });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    // --json: the error is JSON too.
    expect((JSON.parse(r.stderr) as { error: { message: string } }).error.message).toMatch(
      /^the service sent an answer trk cannot read: data is null/,
    );
  });
});

describe('reads are asked again; a list is whole or visibly not', () => {
  const listed = numbers(45, 'RL');

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'trk-hostile-'));
    const file = path.join(dir, 'in.txt');
    writeFileSync(file, `${listed.join('\n')}\n`);
    const r = await trk(['-q', 'register', '-f', file, '--carrier', '3011'], { env: emu.env });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a truncated first answer to a read is asked for again: the whole list, exit 0', async () => {
    proxy.setMode('truncated', { first: 1 });
    const r = await trk(['-q', 'list', '--number', listed.join(','), '--json'], { env: viaProxy });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(45);
  });

  it('a later page that keeps failing: exit 1, and neither the JSON nor the CSV written parses', async () => {
    for (const format of ['--json', '--csv']) {
      proxy.setMode('html-502', { after: 1 });
      const r = await trk(['-q', 'list', '--number', listed.join(','), format], { env: viaProxy });
      expect(r.code, r.stderr).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      // --json: the error is JSON too.
      const line =
        format === '--json'
          ? (JSON.parse(lines[0]!) as { error: { message: string } }).error.message
          : lines[0]!.replace(/^trk: /, '');
      expect(line).toMatch(/^server error of the service \(HTTP 502\)/);
      // The first page arrived and was written...
      expect(r.stdout).toContain(listed[0]!);
      // ...but a script reading it is stopped.
      if (format === '--json') expect(() => JSON.parse(r.stdout)).toThrow();
      else expect(() => parse(r.stdout, { columns: true })).toThrow();
    }
  });
});
