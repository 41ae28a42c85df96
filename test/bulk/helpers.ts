// Shared pieces of the bulk tests: a temporary state folder, input files, a context without the CLI, and the
// emulator with a client paced like the bulk runtime's.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { createPacer, type Pacer } from '../../src/api/pacer.js';
import type { ApiVersion } from '../../src/api/spec.js';
import type { Settings } from '../../src/config/settings.js';
import type { Context, GlobalOptions } from '../../src/context.js';
import { createTestIO, type TestIO } from '../../src/io.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export function tempDir(prefix = 'trk-bulk-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function writeInput(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** S10 numbers of China Post (3011): the emulator detects their carrier. */
export function s10(i: number, suffix = 'CN'): string {
  return `RR${String(i).padStart(9, '0')}${suffix}`;
}

export function numberList(count: number, from = 1): string[] {
  return Array.from({ length: count }, (_, i) => s10(from + i));
}

export interface TestContext extends Context {
  readonly io: TestIO;
  abort(): void;
}

export function testContext(opts: {
  stateDir: string;
  settings?: Partial<Settings>;
  global?: GlobalOptions;
  io?: TestIO;
  client?: ApiClient;
}): TestContext {
  const io = opts.io ?? createTestIO();
  const controller = new AbortController();
  const settings: Settings = {
    profile: 'default',
    baseUrl: 'http://127.0.0.1:9',
    apiVersion: 'v2',
    apiKey: 'test-key',
    resUrl: 'http://127.0.0.1:9',
    sandbox: false,
    sources: { profile: 'default', baseUrl: 'default', apiVersion: 'default', apiKey: 'default', resUrl: 'default' },
    ...opts.settings,
  };
  const global = opts.global ?? {};
  return {
    io,
    env: { TRK_STATE_DIR: opts.stateDir },
    global,
    settings: async () => settings,
    api: async () => {
      if (!opts.client) throw new Error('no client in this test');
      return opts.client;
    },
    prompter: {
      confirm: async () => false,
      input: async () => '',
      password: async () => '',
    },
    now: () => Date.now(),
    info: (line) => {
      if (!global.quiet) io.err(line);
    },
    debug: () => {},
    signal: controller.signal,
    dispose: async () => {},
    abort: () => controller.abort(),
  };
}

export interface BulkSandbox {
  sandbox: RunningSandbox;
  client: ApiClient;
  pacer: Pacer;
  close(): Promise<void>;
}

/** The emulator with its rate limit on, and a client that paces itself as the bulk runtime's does. */
export async function bulkSandbox(opts: SandboxOptions & { version?: ApiVersion; timeoutMs?: number } = {}): Promise<BulkSandbox> {
  const sandbox = await startSandbox({ rateLimit: 3, ...opts });
  const pacer = createPacer({ perSecond: 3, marginMs: 30 });
  const client = createApiClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.key,
    version: opts.version ?? 'v2',
    pacer,
    ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
  });
  return {
    sandbox,
    client,
    pacer,
    close: async () => {
      await client.close();
      await sandbox.close();
    },
  };
}

/** (number, carrier) pairs the emulator holds, and how many times each. */
export function registrations(sandbox: RunningSandbox): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of sandbox.account.store.values()) {
    const key = `${r.number}/${r.carrier}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}
