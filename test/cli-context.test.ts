// The lazily built context: nothing read until asked, the key required for api(), quiet and debug lines.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/context/context-impl.js';
import { debugEnabled } from '../src/core/debug.js';
import { BudgetFileError } from '../src/pacing/budget-file.js';
import { CredentialsError, UsageError } from '../src/core/errors.js';
import { createTestIO } from './test-io.js';
import { startSandbox } from '@trk/sandbox';

const dirs = () => ({
  TRK_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'trk-ctx-')),
  TRK_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'trk-ctx-')),
});

describe('createContext', () => {
  it('info is silent with --quiet; debug only with --verbose or TRK_DEBUG', () => {
    const io = createTestIO();
    const quiet = createContext({ io, env: {}, global: { quiet: true } });
    quiet.info('status');
    quiet.debug('detail');
    expect(io.stderrText()).toBe('');
    const loud = createContext({ io, env: { TRK_DEBUG: '1' }, global: {} });
    loud.info('status');
    loud.debug('detail');
    expect(io.stderrText()).toBe('status\ndetail\n');
    expect(debugEnabled({ TRK_DEBUG: '0' }, undefined)).toBe(false);
    expect(debugEnabled({ TRK_DEBUG: 'false' }, undefined)).toBe(false);
    expect(debugEnabled({ TRK_DEBUG: '' }, undefined)).toBe(false);
    expect(debugEnabled({ TRK_DEBUG: 'yes' }, undefined)).toBe(true);
    expect(debugEnabled({}, true)).toBe(true);
  });

  it('settings: flags over environment, with sources', async () => {
    const ctx = createContext({
      io: createTestIO(),
      env: { ...dirs(), TRK_BASE_URL: 'http://127.0.0.1:1', TRK_API_VERSION: 'v1' },
      global: { apiVersion: 'v2.1' },
    });
    const s = await ctx.settings();
    expect(s.baseUrl).toBe('http://127.0.0.1:1');
    expect(s.sources.baseUrl).toBe('env');
    expect(s.apiVersion).toBe('v2.1');
    expect(s.sources.apiVersion).toBe('flag');
    expect(await ctx.settings()).toBe(s);
  });

  it('api() without a key is a credentials error (exit 4) naming the fix', async () => {
    const ctx = createContext({ io: createTestIO(), env: dirs(), global: {} });
    const err = await ctx.api().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CredentialsError);
    expect((err as CredentialsError).exitCode).toBe(4);
    expect((err as CredentialsError).toLine()).toBe('no API key configured: run "trk auth login" or set TRK_API_KEY');
  });

  it('api() builds one client for the resolved version, closed by dispose()', async () => {
    const ctx = createContext({
      io: createTestIO(),
      env: { ...dirs(), TRK_API_KEY: 'k'.repeat(32), TRK_BASE_URL: 'http://127.0.0.1:1' },
      global: { apiVersion: 'v2.1' },
    });
    const api = await ctx.api();
    expect(api.version).toBe('v2.1');
    expect(await ctx.api()).toBe(api);
    await ctx.dispose();
  });

  it('--sandbox starts the embedded emulator and needs no key', async () => {
    const ctx = createContext({ io: createTestIO(), env: dirs(), global: { sandbox: true } });
    const api = await ctx.api();
    const env = await api.call('getquota', []);
    expect(env.code).toBe(0);
    await ctx.dispose();
  });

  it("--sandbox: now() is the emulator's simulated clock once api() has started it", async () => {
    const env = dirs();
    // A state file whose simulated clock stands a year back, saved just now (so no catch-up to speak of).
    const simulated = Date.UTC(2025, 0, 15, 12);
    await (
      await startSandbox({ stateFile: path.join(env.TRK_STATE_DIR, 'sandbox.json'), speed: 0, start: simulated })
    ).close();
    const ctx = createContext({ io: createTestIO(), env, global: { sandbox: true } });
    expect(Math.abs(ctx.now() - Date.now())).toBeLessThan(60_000);
    await ctx.api();
    expect(ctx.now() - simulated).toBeGreaterThanOrEqual(0);
    expect(ctx.now() - simulated).toBeLessThan(3_600_000);
    await ctx.dispose();
  });

  it('--sandbox with a sandbox server running on the state file: its URL, key and clock', async () => {
    const env = dirs();
    const server = await startSandbox({
      stateFile: path.join(env.TRK_STATE_DIR, 'sandbox.json'),
      speed: 0,
      start: Date.UTC(2025, 0, 15),
      key: 'k-server',
    });
    try {
      const ctx = createContext({ io: createTestIO(), env, global: { sandbox: true } });
      const api = await ctx.api();
      expect((await api.call('register', [{ number: 'RR123456789CN' }])).code).toBe(0);
      expect(ctx.now()).toBe(Date.UTC(2025, 0, 15));
      await ctx.dispose();
      expect(server.state().account.records).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('status and debug lines reach the terminal without escape sequences or bidi overrides', () => {
    const io = createTestIO();
    const ctx = createContext({ io, env: { TRK_DEBUG: '1' }, global: {} });
    ctx.info('number \u202eNC987654321RR\u202c \u001b]0;title\u0007done');
    ctx.debug('said \u001b[31mred\u001b[0m');
    expect(io.stderrText()).toBe('number NC987654321RR done\nsaid red\n');
  });

  it(
    'a state folder that cannot hold the budget: reads are paced in process after one warning, writes fail ' +
      'naming the path',
    async () => {
      const base = mkdtempSync(path.join(tmpdir(), 'trk-ctx-'));
      const blocked = path.join(base, 'state');
      writeFileSync(blocked, 'a file where the state folder should be');
      const io = createTestIO();
      const ctx = createContext({
        io,
        env: { ...dirs(), TRK_STATE_DIR: blocked, TRK_API_KEY: 'k'.repeat(32) },
        global: {},
      });
      const pacer = await ctx.pacer();
      await pacer.acquire(undefined, { readOnly: true });
      await pacer.acquire(undefined, { readOnly: true });
      expect(io.stderrText().trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            '^warning: cannot use the rate budget file .*state.*: a file is in the way of a folder ' +
              String.raw`\((ENOTDIR|EEXIST)\); pacing requests in this process only$`,
          ),
        ),
      ]);
      const err = await pacer.acquire(undefined, { readOnly: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BudgetFileError);
      expect((err as BudgetFileError).exitCode).toBe(1);
    },
  );

  it('--timeout and TRK_TIMEOUT: a bad value is a usage error naming its source', async () => {
    const bad = createContext({
      io: createTestIO(),
      env: { ...dirs(), TRK_API_KEY: 'k'.repeat(32), TRK_TIMEOUT: 'soon' },
      global: {},
    });
    const err = await bad.api().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).toLine()).toBe(
      'invalid TRK_TIMEOUT "soon": give a duration from 100ms to 60m, such as 30s or 2m',
    );
    const flag = createContext({
      io: createTestIO(),
      env: { ...dirs(), TRK_API_KEY: 'k'.repeat(32), TRK_TIMEOUT: 'soon' },
      global: { timeout: '2s' },
    });
    expect((await flag.api()).version).toBe('v2');
    await flag.dispose();
  });
});
