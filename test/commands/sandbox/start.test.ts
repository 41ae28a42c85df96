// trk sandbox start: its flags as the emulator's options, what it prints, serving until stopped.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runSandboxReset, runSandboxStart, sandboxOptions } from '../../../src/commands/sandbox/emulator.js';
import { UsageError } from '../../../src/core/errors.js';
import { createTestIO } from '../../test-io.js';
import { call } from '../../../packages/sandbox/test/http.js';
import { sandboxStateDir } from './state-dir.js';
import { baseEnv, trk, trkRunning } from '../../e2e/helpers.js';

const state = sandboxStateDir();
describe('sandboxOptions', () => {
  it('maps flags to emulator options, with the default state file under TRK_STATE_DIR', async () => {
    const o = await sandboxOptions(
      {
        port: 0,
        webhook: 'http://127.0.0.1:9/h',
        speed: 3600,
        failureRate: 0.1,
        dropRate: 0.05,
        latency: 20,
        quota: 100,
        dailyCap: 10,
        ipAllow: ['127.0.0.1'],
        realtime: false,
        start: '2026-06-01T00:00:00Z',
        numericMetrics: true,
        strictPaths: true,
        pageOverlap: 3,
      },
      { TRK_STATE_DIR: state.dir() },
    );
    expect(o).toEqual({
      port: 0,
      webhookUrl: 'http://127.0.0.1:9/h',
      speed: 3600,
      stateFile: path.join(state.dir(), 'sandbox.json'),
      start: Date.UTC(2026, 5, 1),
      failureRate: 0.1,
      dropRate: 0.05,
      latencyMs: 20,
      quotaTotal: 100,
      maxTrackDaily: 10,
      ipAllowList: ['127.0.0.1'],
      realtimeAllowed: false,
      numericMetrics: true,
      strictPaths: true,
      pageOverlap: 3,
    });
    expect((await sandboxOptions({ state: false }, {})).stateFile).toBeUndefined();
    expect((await sandboxOptions({ state: '/x/y.json' }, {})).stateFile).toBe('/x/y.json');
  });

  it.each([
    [{ failureRate: 2 }, /--failure-rate/],
    [{ port: 70000 }, /--port/],
    [{ speed: -1 }, /--speed/],
    [{ webhook: 'nope' }, /--webhook/],
    [{ ipAllow: ['1.2.3'] }, /--ip-allow/],
    [{ start: 'soon' }, /--start/],
    [{ quota: 1.5 }, /--quota/],
    [{ tick: 0 }, /--tick/],
    [{ pageOverlap: 40 }, /--page-overlap must be less than a page \(40 records\)/],
  ])('refuses %j as a usage error', async (opts, message) => {
    const err = await sandboxOptions(opts, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(message);
  });
});

describe('runSandboxStart', () => {
  it('prints URL and key on stdout, status on stderr, serves until stopped, then saves', async () => {
    const io = createTestIO();
    const stop = new AbortController();
    const run = runSandboxStart({ speed: 0 }, state.context(io, stop.signal));
    await vi.waitFor(() => expect(io.stdoutText()).toContain('TRK_API_KEY='), { timeout: 5000 });
    const lines = Object.fromEntries(
      io
        .stdoutText()
        .trim()
        .split('\n')
        .map((l) => l.split('=') as [string, string]),
    );
    expect(lines.TRK_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.TRK_API_KEY).toBe('sandbox-key');
    expect(io.stderrText()).toContain('sandbox listening on');
    expect(io.stderrText()).not.toContain('sandbox-key');
    const a = await call(lines.TRK_BASE_URL!, '/track/v2/getquota', { key: lines.TRK_API_KEY });
    expect(a.status).toBe(200);

    stop.abort();
    await run;
    expect(io.stderrText()).toContain('state saved');
    expect((await stat(path.join(state.dir(), 'sandbox.json'))).isFile()).toBe(true);

    const resetIO = createTestIO();
    await runSandboxReset({}, state.context(resetIO, new AbortController().signal));
    await expect(stat(path.join(state.dir(), 'sandbox.json'))).rejects.toThrow();
    expect(resetIO.stderrText()).toContain('removed');
    await runSandboxReset({}, state.context(resetIO, new AbortController().signal));
    expect(resetIO.stderrText()).toContain('nothing to do');
  });

  it('--log prints one line per request on stderr, not the key, and nothing on stdout', async () => {
    const io = createTestIO();
    const stop = new AbortController();
    const run = runSandboxStart(
      { state: false, log: true, speed: 0, start: '2026-06-01T08:00:00Z' },
      state.context(io, stop.signal, 'json'),
    );
    await vi.waitFor(() => expect(io.stdoutText()).toContain('}'), { timeout: 5000 });
    const { url, key } = JSON.parse(io.stdoutText()) as { url: string; key: string };
    await call(url, '/track/v2/register', {
      key,
      body: JSON.stringify([{ number: 'RR100000001CN' }, { number: '12' }]),
    });
    await call(url, '/track/v1/retrack', { key, body: '[]' });
    await call(url, '/track/v2/getquota', { key: 'wrong' });
    stop.abort();
    await run;
    const lines = io
      .stderrText()
      .split('\n')
      .filter((l) => l.startsWith('2026-'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^2026-06-01T08:00:00Z v2 register 2 items → 200 ok: 1 accepted, 1 rejected \(-18010012\) \d+ ms$/,
      ),
      expect.stringMatching(/^2026-06-01T08:00:00Z v1 retrack 0 items → 200 ok: 0 accepted, 0 rejected \d+ ms$/),
      expect.stringMatching(/^2026-06-01T08:00:00Z v2 getquota 0 items → 401 -18010002 \d+ ms$/),
    ]);
    expect(io.stderrText()).not.toContain('sandbox-key');
    expect(io.stdoutText().trim().split('\n')).toHaveLength(1);
  });

  it('prints JSON with --output json and keeps state in memory with --no-state', async () => {
    const io = createTestIO();
    const stop = new AbortController();
    const run = runSandboxStart({ state: false, key: 'k-123' }, state.context(io, stop.signal, 'json'));
    await vi.waitFor(() => expect(io.stdoutText()).toContain('}'), { timeout: 5000 });
    const out = JSON.parse(io.stdoutText()) as { url: string; key: string };
    expect(out.key).toBe('k-123');
    expect((await call(out.url, '/track/v2/getquota', { key: 'k-123' })).status).toBe(200);
    stop.abort();
    await run;
    await expect(readFile(path.join(state.dir(), 'sandbox.json'))).rejects.toThrow();
  });
});

describe('trk sandbox start in its own process', () => {
  it('prints TRK_RES_URL too, so carrier names resolve against it rather than the real list host', async () => {
    const env = baseEnv();
    delete env.TRK_API_KEY;
    delete env.TRK_BASE_URL;
    // A key of its own: the default one is a secret to this process since the commands before used it (trk
    // redacts the keys a process has used), and would be printed as ***, as it is not by a process of its own.
    const key = 'settings-start-0123456789abcdef';
    const server = trkRunning(['sandbox', 'start', '--no-state', '--speed', '0', '--key', key], { env });
    try {
      await server.printed(/TRK_RES_URL=/, 'stdout');
      const vars = Object.fromEntries(
        server
          .stdout()
          .trim()
          .split('\n')
          .map((l) => l.split('=', 2) as [string, string]),
      );
      expect(Object.keys(vars)).toEqual(['TRK_BASE_URL', 'TRK_API_KEY', 'TRK_RES_URL']);
      expect(vars.TRK_RES_URL).toBe(vars.TRK_BASE_URL);
      expect(vars.TRK_API_KEY).toBe(key);
      // baseEnv points TRK_RES_URL at a closed port: the printed value replaces it, as sourcing the lines would.
      const reg = await trk(['register', 'RR123456789CN', '--carrier', 'China Post', '--json'], {
        env: { ...env, ...vars },
      });
      expect(reg.code, reg.stderr).toBe(0);
      expect(reg.stdout).toMatch(/"carrier":\s*3011/);
    } finally {
      server.interrupt();
    }
    expect((await server.done).code).toBe(0);
  });
});
