// The sandbox commands' state folder: a new temporary TRK_STATE_DIR for each test, and a context that runs on it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { Context } from '../../../src/context/context.js';
import { createFake } from '../../fake-context.js';
import type { TestIO } from '../../test-io.js';

/** Registers the folder's hooks; `dir()` is the folder of the running test. */
export function sandboxStateDir() {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trk-sandbox-cmd-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    context(io: TestIO, signal: AbortSignal, output?: 'json'): Context {
      const global = output ? { output } : {};
      return createFake({ io, signal, env: { TRK_STATE_DIR: dir }, global, noApi: true, realClock: true }).ctx;
    },
  };
}
