// Credentials, settings and failures end to end: each gives its exit code and one clear line on stderr.
import { createServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, startEmulator, trk, type Emulator, type Result } from './helpers.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
});

afterAll(async () => {
  await emu?.close();
});

function oneLine(r: Result): string {
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0]!;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('failures', () => {
  it('wrong key → 4', async () => {
    const r = await trk(['quota'], { env: { ...emu.env, TRK_API_KEY: 'wrong-key-0000000000000000000000' } });
    expect(r.code).toBe(4);
    expect(oneLine(r)).toBe('trk: invalid API key (-18010002): run "trk auth login" or set TRK_API_KEY');
  });

  it('no key → 4, nothing sent', async () => {
    const before = emu.requests();
    const env = { ...emu.env };
    delete env.TRK_API_KEY;
    const r = await trk(['list'], { env });
    expect(r.code).toBe(4);
    expect(oneLine(r)).toBe('trk: no API key configured: run "trk auth login" or set TRK_API_KEY');
    expect(emu.requests()).toBe(before);
  });

  it('unknown flag → 2, nothing sent', async () => {
    const before = emu.requests();
    const r = await trk(['list', '--colour'], { env: emu.env });
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/^trk: unknown option '--colour'/);
    expect(emu.requests()).toBe(before);
  });

  it('malformed file → 2, nothing sent', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'trk-mal-')), 'in.csv');
    writeFileSync(file, 'number,carrier\nRR123456789CN,"3011\n');
    const before = emu.requests();
    const r = await trk(['stop', '-f', file], { env: emu.env });
    expect(r.code).toBe(2);
    expect(oneLine(r)).toMatch(/^trk: .*in\.csv is not valid CSV/);
    expect(emu.requests()).toBe(before);
  });

  it('service down (closed port) → 1', async () => {
    const port = await closedPort();
    const r = await trk(['quota', '-q'], { env: { ...emu.env, TRK_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.code).toBe(1);
    expect(oneLine(r)).toMatch(new RegExp(`^trk: cannot reach 127\\.0\\.0\\.1:${port}.*: check the network`));
  });

  it(
    '429s that outlast the retries → 1, with a hint that says what is true: trk processes on a key share ' +
      'its budget',
    async () => {
      emu.sandbox.setFaults({ burst429: 1000 });
      try {
        const r = await trk(['quota', '-q', '--timeout', '1s'], { env: emu.env });
        expect(r.code).toBe(1);
        const line = oneLine(r);
        expect(line).toMatch(/^trk: rate limit of the service exceeded \(HTTP 429\)/);
        // Not "do not run several trk processes on the same key": they share one budget and wait their turn.
        expect(line).not.toMatch(/do not run several/);
        expect(line).toMatch(/trk processes on this machine share the key's budget/);
        expect(line).toMatch(/another program or host/);
        expect(line).toMatch(/TRK_BUDGET_URL/);
      } finally {
        emu.sandbox.setFaults({ burst429: 0 });
      }
    },
  );

  it('--verbose logs each request without the key', async () => {
    const r = await trk(['quota', '--json', '--verbose'], { env: emu.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/request getquota 200 \d+ ms/);
    expect(r.stderr).not.toContain(emu.sandbox.key);
  });
});

describe('auth and config', () => {
  it(
    'login with --with-key-stdin verifies and saves; status shows where settings come from; logout removes ' +
      'the key',
    async () => {
      const env = baseEnv();
      const wrong = await trk(['auth', 'login', '--with-key-stdin', '--base-url', emu.sandbox.url], {
        env,
        input: 'not-the-key\n',
      });
      expect(wrong.code).toBe(4);
      // Not "run trk auth login": that is what the user just did.
      expect(oneLine(wrong)).toBe(
        'trk: invalid API key (-18010002); nothing was saved: copy the key again from the console (Settings, ' +
          'Security, access key)',
      );

      const login = await trk(['auth', 'login', '--with-key-stdin', '--base-url', emu.sandbox.url], {
        env,
        input: `${emu.sandbox.key}\n`,
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain(`logged in to ${emu.sandbox.url}`);
      expect(login.stderr).not.toContain(emu.sandbox.key);

      // The saved profile now works without any TRK_* variable.
      const quota = await trk(['quota', '--json'], { env });
      expect(quota.code, quota.stderr).toBe(0);

      const status = await trk(['auth', 'status', '--json'], { env });
      expect(status.code).toBe(0);
      const s = JSON.parse(status.stdout) as Record<string, { value: string; source: string }>;
      expect(s['base-url']).toEqual({ value: emu.sandbox.url, source: 'profile' });
      expect(s['api-key']!.source).toBe('profile');
      expect(status.stdout).not.toContain(emu.sandbox.key);

      const envStatus = await trk(['auth', 'status', '--csv'], { env: { ...env, TRK_API_VERSION: 'v2.1' } });
      expect(envStatus.stdout).toContain('api-version,v2.1,env');

      const logout = await trk(['auth', 'logout'], { env });
      expect(logout.code).toBe(0);
      expect(logout.stderr).toContain('removed profile "default"');
      const after = await trk(['auth', 'status'], { env });
      expect(after.code).toBe(4);
      expect(after.stdout).toBe('');
      expect(after.stderr).toBe('trk: no API key configured: run "trk auth login" or set TRK_API_KEY\n');
    },
  );

  it('login without a terminal and without --with-key-stdin → 2', async () => {
    const r = await trk(['auth', 'login'], { env: baseEnv() });
    expect(r.code).toBe(2);
    expect(oneLine(r)).toBe('trk: no terminal to ask for the API key: pipe the key in with --with-key-stdin');
  });

  it('config set/get/list; the key cannot be set there', async () => {
    const env = baseEnv();
    expect((await trk(['config', 'set', 'api-version', 'v2.1', '--create'], { env })).code).toBe(0);
    const get = await trk(['config', 'get', 'api-version'], { env });
    expect(get.stdout).toBe('v2.1\n');
    const list = await trk(['config', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)['api-version']).toEqual({ value: 'v2.1', source: 'profile' });
    const key = await trk(['config', 'set', 'api-key', 'abc'], { env });
    expect(key.code).toBe(2);
    const bad = await trk(['config', 'set', 'base-url', 'ftp://x'], { env });
    expect(bad.code).toBe(2);
  });

  it('help exit-codes', async () => {
    const r = await trk(['help', 'exit-codes'], { env: baseEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Exit codes of trk:/);
  });
});
