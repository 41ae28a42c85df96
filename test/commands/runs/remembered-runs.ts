// Runs trk remembers: files of numbers registered with the emulator on 127.0.0.1, each a run of its own in the
// state folder of a private environment, for trk runs and trk runs forget.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { numbers, startEmulator, trk, type Emulator } from '../../e2e/helpers.js';

export interface RunEntry {
  id: string;
  state: string;
  command: string;
  input: string;
  done: number;
}

/** Registers the emulator's hooks; `register(name, count)` runs `trk register -f` on a new file of that name. */
export function rememberedRuns() {
  let emu: Emulator;
  const runs = {
    env: {} as NodeJS.ProcessEnv,
    async register(name: string, count: number, prefix: string): Promise<void> {
      const file = path.join(String(runs.env.HOME), name);
      writeFileSync(file, `${numbers(count, prefix).join('\n')}\n`);
      const r = await trk(['register', '-f', file, '--json'], { env: runs.env });
      expect(r.code, r.stderr).toBe(0);
    },
    /** What `trk runs --json` lists. */
    async list(): Promise<RunEntry[]> {
      return JSON.parse((await trk(['runs', '--json'], { env: runs.env })).stdout) as RunEntry[];
    },
  };
  beforeAll(async () => {
    emu = await startEmulator({ speed: 0 });
    runs.env = emu.env;
  });
  afterAll(async () => {
    await emu?.close();
  });
  return runs;
}
