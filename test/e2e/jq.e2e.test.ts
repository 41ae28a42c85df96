// A --jq program that never ends, through the built CLI: Ctrl-C, SIGTERM and the time limit stop it (jq runs in a
// worker thread, src/output/jq-worker.ts), and jq's own abort reaches the user as one line, never as `Aborted()`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startEmulator, trk, type Emulator } from './helpers.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
});

afterAll(async () => {
  await emu?.close();
});

/** `trk quota --jq <program>`, sent `signal` once it has been running for `afterMs`; how long it took to end after. */
function signalled(program: string, signal: NodeJS.Signals, afterMs: number) {
  return new Promise<{ code: number | null; stderr: string; endedAfterMs: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), 'quota', '--jq', program], {
      env: { ...emu.env, TRK_ERROR_FORMAT: 'text' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sentAt = 0;
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const send = setTimeout(() => {
      sentAt = Date.now();
      child.kill(signal);
    }, afterMs);
    // Never left behind, whatever happens.
    const kill = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(send);
      clearTimeout(kill);
      resolve({ code, stderr, endedAfterMs: sentAt === 0 ? -1 : Date.now() - sentAt });
    });
  });
}

describe('--jq: a program that never ends', () => {
  it.each([
    ['SIGINT', 130, /^trk: interrupted/m],
    ['SIGTERM', 143, /^trk: terminated/m],
  ] as const)('%s stops it at once: exit %i', async (signal, code, says) => {
    const r = await signalled('def f: f; f', signal, 2500);
    expect(r.endedAfterMs, r.stderr).toBeGreaterThanOrEqual(0);
    expect(r.endedAfterMs, r.stderr).toBeLessThan(5000);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toMatch(says);
  });

  it('the time limit (three times --timeout) stops it: one line, exit 1', async () => {
    const r = await trk(['quota', '--timeout', '1s', '--jq', 'def f: f; f'], {
      env: { ...emu.env, TRK_ERROR_FORMAT: 'text' },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(
      'trk: --jq: the program ran longer than 3 s on one value, and was stopped: check it for a loop that never ' +
        'ends (the limit is three times --timeout)\n',
    );
    expect(r.stdout).toBe('');
  });

  it('one that collects without end: jq\'s abort is one line, never "Aborted()"', async () => {
    const r = await trk(['quota', '--jq', '[repeat(1)]'], { env: { ...emu.env, TRK_ERROR_FORMAT: 'text' } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe(
      'trk: --jq: the program ran out of memory (jq has 256 MB), and was stopped: check it for a loop that ' +
        'never ends, such as repeat\n',
    );
  });
});
