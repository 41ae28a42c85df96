// A Context for command tests of the carrier and webhook commands: fixed settings, a captured IO, a
// controllable clock and Ctrl-C signal. Nothing else is built.

import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Settings } from '../../src/config/settings.js';
import type { Context, GlobalOptions } from '../../src/context.js';
import { createTestIO, type TestIO } from '../../src/io.js';

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
  const settings: Settings = {
    profile: 'default',
    baseUrl: 'http://127.0.0.1:9',
    apiVersion: 'v2',
    apiKey: 'test-key',
    resUrl: 'http://127.0.0.1:9',
    sandbox: false,
    sources: { profile: 'default', baseUrl: 'default', apiVersion: 'default', apiKey: 'env', resUrl: 'default' },
    ...opts.settings,
  };
  const global = opts.global ?? {};
  return {
    io,
    // Never the user's own cache: a folder that does not exist unless a test passes its own.
    env: opts.env ?? { TRK_CACHE_DIR: path.join(tmpdir(), `trk-no-cache-${process.pid}-${Math.random()}`) },
    global,
    settings: async () => settings,
    api: async () => {
      throw new Error('no API in these tests');
    },
    prompter: {
      confirm: async () => false,
      input: async () => '',
      password: async () => '',
    },
    now: () => now,
    info: (line) => {
      if (!global.quiet) io.err(line);
    },
    debug: () => {},
    signal: abort.signal,
    pacer: async () => {
      throw new Error('no pacer in this test');
    },
    dispose: async () => {},
    setNow: (ms) => {
      now = ms;
    },
    interrupt: () => abort.abort(),
  };
}
