// A Context for command tests of the carrier and webhook commands: fixed settings, a captured IO, a
// controllable clock and Ctrl-C signal. Nothing else is built.

import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Settings } from '../../src/config/settings.js';
import type { Context, GlobalOptions } from '../../src/context.js';
import { createTestIO, type TestIO } from '../../src/io.js';
import { fakeContextOf, fakeSettings } from '../fake-context.js';

export interface FakeContext extends Context {
  readonly io: TestIO;
  /** Move the clock. */
  setNow(ms: number): void;
  /** Press Ctrl-C. */
  interrupt(): void;
}

export function fakeContext(
  opts: { settings?: Partial<Settings>; env?: NodeJS.ProcessEnv; global?: GlobalOptions; now?: number; tty?: boolean } = {},
): FakeContext {
  const io = createTestIO({ tty: opts.tty ?? false });
  const abort = new AbortController();
  let now = opts.now ?? Date.parse('2025-03-01T12:00:00Z');
  const settings: Settings = { ...fakeSettings('v2', 'test-key'), ...opts.settings };
  const ctx = fakeContextOf({
    io,
    // Never the user's own cache: a folder that does not exist unless a test passes its own.
    env: opts.env ?? { TRK_CACHE_DIR: path.join(tmpdir(), `trk-no-cache-${process.pid}-${Math.random()}`) },
    global: opts.global ?? {},
    settings: async () => settings,
    api: async () => {
      throw new Error('no API in these tests');
    },
    now: () => now,
    signal: abort.signal,
  });
  return {
    ...ctx,
    io,
    setNow: (ms) => {
      now = ms;
    },
    interrupt: () => abort.abort(),
  };
}
