// trk-sandbox, the emulator's own command: its flags read as trk sandbox start's are (start-options.ts), its
// errors as exit codes, and once as a process (what the bin itself does: start, print, serve, stop on SIGTERM).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main, readFlags, USAGE } from '../src/cli.js';
import { call } from './http.js';

function streams() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

describe('trk-sandbox flags', () => {
  it('reads numbers, lists, switches and their negations into the start flags', () => {
    const { flags, json } = readFlags([
      '--port=0',
      '--failure-rate',
      '0.25',
      '--ip-allow',
      '127.0.0.1, 10.0.0.0/8',
      '--ip-allow',
      '::1',
      '--no-retry-after',
      '--no-realtime',
      '--strict-paths',
      '--json',
    ]);
    expect(flags).toEqual({
      port: 0,
      failureRate: 0.25,
      ipAllow: ['127.0.0.1', '10.0.0.0/8', '::1'],
      retryAfter: false,
      realtime: false,
      strictPaths: true,
    });
    expect(json).toBe(true);
  });

  it.each([
    [['--port', '70000'], '--port must be at most 65535'],
    [['--speed', 'fast'], '--speed must be a number'],
    [['--drop-rate', '2'], '--drop-rate must be a number from 0 to 1'],
    [['--ip-allow', '300.1.2.3'], '--ip-allow:'],
    [['--colour'], "Unknown option '--colour'"],
  ])('%j: one line naming the flag, exit 2, nothing started', async (argv, message) => {
    const s = streams();
    expect(await main(argv, s.io)).toBe(2);
    expect(s.out).toEqual([]);
    expect(s.err).toHaveLength(1);
    expect(s.err[0]).toContain(message);
    expect(s.err[0]).toMatch(/^trk-sandbox: .*\n$/);
  });

  it('--help prints every flag on stdout', async () => {
    const s = streams();
    expect(await main(['--help'], s.io)).toBe(0);
    expect(s.out.join('')).toBe(USAGE);
    for (const flag of ['--port', '--failure-rate', '--no-retry-after', '--state', '--json'])
      expect(USAGE).toContain(flag);
  });

  it('serves until its signal aborts, its addresses on stdout, its state in memory unless --state', async () => {
    const s = streams();
    const stop = new AbortController();
    const done = main(['--port', '0', '--json', '--rate-limit', '0', '--key', 'k1'], s.io, stop.signal);
    while (s.out.length === 0) await new Promise((r) => setImmediate(r));
    const { url, key, res_url } = JSON.parse(s.out[0]!) as { url: string; key: string; res_url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect([key, res_url]).toEqual(['k1', url]);
    expect((await call(url, '/track/v2.1/getquota', { key })).json).toMatchObject({ code: 0 });
    stop.abort();
    expect(await done).toBe(0);
    expect(s.err.join('')).toContain('state kept in memory only');
  });
});

describe('trk-sandbox, the process', () => {
  it('prints the lines a shell sources, answers on them, and stops with exit 0 on SIGTERM', async () => {
    const bin = fileURLToPath(new URL('../bin/trk-sandbox.js', import.meta.url));
    const child = spawn(process.execPath, [bin, '--port', '0', '--rate-limit', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    while (!out.includes('TRK_RES_URL=')) out += (await once(child.stdout, 'data'))[0];
    const env = Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((line) => line.split('=') as [string, string]),
    );
    expect(Object.keys(env)).toEqual(['TRK_BASE_URL', 'TRK_API_KEY', 'TRK_RES_URL']);
    const quota = await call(env.TRK_BASE_URL!, '/track/v2.1/getquota', { key: env.TRK_API_KEY! });
    expect(quota.json).toMatchObject({ code: 0 });
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});
