// The life of a run of a file through the built CLI: stopped at any moment, its file changed, run again with other
// options or another night's export, against an account that holds some of its numbers already.

import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, baseEnv, numbers, startEmulator, type Emulator } from './helpers.js';

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
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('signals', () => {
  it('SIGTERM at any early moment (starting, checking the file, asking for the quota) exits 143, never 130', async () => {
    const f = file('early.txt', `${numbers(2000, 'ET').join('\n')}\n`);
    emu.sandbox.setFaults({ latencyMs: 800 });
    try {
      const quotaAsks = () => emu.sandbox.state().requests.byOperation['v2/getquota'] ?? 0;
      const moments: (() => Promise<void>)[] = [
        () => sleep(0),
        () => sleep(150),
        // The quota request is on the wire (it waits 800 ms for its answer).
        async () => {
          const before = quotaAsks();
          while (quotaAsks() === before) await sleep(10);
        },
      ];
      for (const [i, moment] of moments.entries()) {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'trk.js'), 'register', '-f', f, '--carrier', '3011'], {
          env: { ...baseEnv(), TRK_BASE_URL: emu.sandbox.url, TRK_API_KEY: emu.sandbox.key },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const exited = new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('close', (code, signal) => r([code, signal])));
        await moment();
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
