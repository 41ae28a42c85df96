// A --jq program that never ends: Ctrl-C and SIGTERM (to the built CLI, since signals are a process's) and the time
// limit stop it (jq runs in a worker thread, src/output/jq-worker.ts), and jq's own abort reaches the user as one
// line, never as `Aborted()`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, startEmulator, trk, type Emulator } from './helpers.js';

let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ speed: 0 });
});

afterAll(async () => {
  await emu?.close();
});

/**
 * `trk quota --jq <program>` in a process of its own (the signal is what is tested), sent `signal` once the answer
 * is in, which the program then runs on without end. Its time limit is an hour away: only the signal stops it.
 */
function signalled(program: string, signal: NodeJS.Signals) {
  assertBuilt();
  return new Promise<{ code: number | null; stderr: string; sent: boolean }>((resolve, reject) => {
    const args = ['quota', '--verbose', '--timeout', '20m', '--jq', program];
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), ...args], {
      env: { ...emu.env, TRK_ERROR_FORMAT: 'text' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    let send: NodeJS.Timeout | undefined;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      // --verbose logs the answer as it comes; jq starts on it at once. Real time, the child's: a moment for that.
      if (send === undefined && /request getquota 200/.test(stderr)) {
        send = setTimeout(() => {
          sent = true;
          child.kill(signal);
        }, 300);
      }
    });
    child.stdout.resume();
    // A bound on the wait for another process, in real time: never left behind, whatever happens.
    const kill = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(send);
      clearTimeout(kill);
      resolve({ code, stderr, sent });
    });
  });
}

describe('--jq: a program that never ends', () => {
  it.each([
    ['SIGINT', 130, /^trk: interrupted/m],
    ['SIGTERM', 143, /^trk: terminated/m],
  ] as const)('%s stops it at once: exit %i', async (signal, code, says) => {
    const r = await signalled('def f: f; f', signal);
    // Running until the signal came, and stopped by it: the time limit is an hour away, the safety kill is exit null.
    expect(r.sent, r.stderr).toBe(true);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).toMatch(says);
  });

  it('the time limit (three times --timeout) stops it: one line, exit 1', async () => {
    // The limit is a real timer (it races jq's own work, src/output/jq-worker.ts): this takes its 3 s.
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
