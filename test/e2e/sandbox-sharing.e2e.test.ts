// One state file, several emulators: two `trk --sandbox` processes at once take turns on the state file and keep
// every number; a `--sandbox` command while `trk sandbox start` runs on the same file (a process of its own,
// stopped with SIGTERM) talks to that server; and relative times (`--tracked-since 1h`) count back from the
// emulator's clock, not the real one.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { startSandbox } from '@trk/sandbox';
import { assertBuilt, baseEnv, numbers, ROOT, trk, trkProcess } from './helpers.js';

const listed = async (env: NodeJS.ProcessEnv, args: string[] = []): Promise<string[]> => {
  const r = await trk(['--sandbox', 'list', '--json', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { number: string }[]).map((x) => x.number).sort();
};

describe('--sandbox commands sharing a state file', () => {
  it('two at once both register all their numbers, and both sets stay', async () => {
    const env = baseEnv();
    const a = numbers(120, 'RA');
    const b = numbers(120, 'RB');
    const fileA = path.join(env.HOME!, 'a.txt');
    const fileB = path.join(env.HOME!, 'b.txt');
    writeFileSync(fileA, `${a.join('\n')}\n`);
    writeFileSync(fileB, `${b.join('\n')}\n`);
    // Two processes, as two cron jobs are: the lock tells its holders apart by process (a live pid).
    const [ra, rb] = await Promise.all([
      trkProcess(['--sandbox', 'register', '-f', fileA, '--carrier', '3011'], { env }),
      trkProcess(['--sandbox', 'register', '-f', fileB, '--carrier', '3011'], { env }),
    ]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(await listed(env)).toEqual([...a, ...b].sort());
  });

  it(
    'while trk sandbox start runs on the file, a --sandbox command works through it and nothing is lost on ' +
      'its save',
    async () => {
      assertBuilt();
      const env = baseEnv();
      const server = spawn(
        process.execPath,
        [path.join(ROOT, 'bin', 'trk.js'), 'sandbox', 'start', '--json', '--log'],
        {
          env,
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      server.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      server.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      const exited = new Promise<number | null>((resolve) => server.once('close', resolve));
      try {
        // Real time: the server is a process of its own, polled (bounded) until it printed its address.
        await expect.poll(() => out, { timeout: 10_000 }).toContain('}');
        const { url } = JSON.parse(out) as { url: string };
        const reg = await trk(['--sandbox', 'register', 'RR123456789CN', '--carrier', '3011'], { env });
        expect(reg.code, reg.stderr).toBe(0);
        // The server saw the request (its --log line, polled in real time as above) ...
        await expect.poll(() => err, { timeout: 5000 }).toMatch(/ v2 register 1 item → 200 ok: 1 accepted, 0 rejected/);
        const state = (await (await fetch(`${url}/__sandbox/state`)).json()) as { account: { records: number } };
        expect(state.account.records).toBe(1);
      } finally {
        server.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
      // ... and its final save kept the number.
      expect(await listed(env)).toEqual(['RR123456789CN']);
    },
  );

  it('--tracked-since 1h counts back from the simulated clock', async () => {
    const env = baseEnv();
    // A sandbox whose simulated clock stands in January 2025.
    await (
      await startSandbox({
        stateFile: path.join(env.TRK_STATE_DIR!, 'sandbox.json'),
        speed: 0,
        start: Date.UTC(2025, 0, 15),
      })
    ).close();
    const reg = await trk(['--sandbox', 'register', 'RR123456789CN', '--carrier', '3011'], { env });
    expect(reg.code, reg.stderr).toBe(0);
    // The first tracking run comes 3 to 10 simulated seconds after registration: a second between the commands
    // is a simulated minute (the time between two --sandbox commands is added at their speed).
    await clock().sleep(1000);
    expect(await listed(env, ['--tracked-since', '1h'])).toEqual(['RR123456789CN']);
    expect(await listed(env, ['--registered-until', '2d'])).toEqual([]);
  });
});
