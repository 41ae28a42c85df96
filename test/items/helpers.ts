// Shared pieces of the bulk tests: a temporary state folder, input files, a context without the CLI, and the
// emulator with a client paced like the bulk runtime's.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiClient, type ApiClient } from '../../src/api/client.js';
import { createPacer, stoppablePacer, type Pacer } from '../../src/pacing/pacer.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { Settings } from '../../src/config/settings.js';
import type { Context, GlobalOptions } from '../../src/context/context.js';
import { createContext } from '../../src/context/context-impl.js';
import { createTestIO, type TestIO } from '../test-io.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '@trk/sandbox';
import { refusingPrompter } from '../fake-context.js';
import type { ItemSource } from '../../src/items/source.js';
import { runItems, type ItemRunOptions } from '../../src/items/run.js';
import { Readable } from 'node:stream';
import { afterEach } from 'vitest';
import { clock } from '../../src/core/clock.js';

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

/**
 * The context the CLI builds, on settings from the environment: its client is paced by the budget shared by
 * every process on the key, as in real runs. `client`/`pacer` replace them where a test needs its own.
 */
export function testContext(opts: {
  stateDir: string;
  /** Default: `config` in the state folder. */
  configDir?: string;
  settings?: Partial<Pick<Settings, 'baseUrl' | 'apiKey' | 'apiVersion'>>;
  global?: GlobalOptions;
  io?: TestIO;
  client?: ApiClient;
  pacer?: Pacer;
}): TestContext {
  const io = opts.io ?? createTestIO();
  const controller = new AbortController();
  const s = { baseUrl: 'http://127.0.0.1:9', apiKey: 'test-key', apiVersion: 'v2', ...opts.settings };
  const env: NodeJS.ProcessEnv = {
    TRK_STATE_DIR: opts.stateDir,
    TRK_CONFIG_DIR: opts.configDir ?? path.join(opts.stateDir, 'config'),
    TRK_BASE_URL: s.baseUrl,
    TRK_API_KEY: s.apiKey,
    TRK_API_VERSION: s.apiVersion,
    TRK_RES_URL: 'http://127.0.0.1:9',
  };
  const ctx = createContext({ io, env, global: opts.global ?? {}, signal: controller.signal });
  return {
    ...ctx,
    // Spread drops the prompter getter: tests answer no.
    prompter: refusingPrompter,
    io,
    ...(opts.client ? { api: async () => opts.client as ApiClient } : {}),
    ...(opts.pacer ? { pacer: async () => opts.pacer as Pacer } : {}),
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
export async function bulkSandbox(
  opts: SandboxOptions & { version?: ApiVersion; timeoutMs?: number } = {},
): Promise<BulkSandbox> {
  const sandbox = await startSandbox({ rateLimit: 3, strictPaths: true, time: clock(), ...opts });
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

/** An emulator per test, closed after each: `const sandbox = sandboxPerTest();`, then `await sandbox(opts)`. */
export function sandboxPerTest(): (opts?: Parameters<typeof bulkSandbox>[0]) => Promise<BulkSandbox> {
  let current: BulkSandbox | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async (opts = {}) => (current = await bulkSandbox(opts));
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

/** An input held in memory, read like a file named `display`. */
export function textSource(text: string | Buffer, display = 'in.csv'): ItemSource {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  return {
    kind: 'file',
    display,
    name: `/virtual/${display}`,
    size: bytes.length,
    open: () => Readable.from([bytes]),
    head: async () => bytes.subarray(0, 4096),
    locate: (n) => `${display} line ${n}`,
    assertUnchanged: () => {},
    isSameFile: () => false,
    cleanup: async () => {},
  };
}

export type RunOptions = Omit<ItemRunOptions, 'flags'> & {
  file?: string;
  numbers?: string[];
  dryRun?: boolean;
  rejectsFile?: string;
  restart?: boolean;
  again?: boolean;
  skipInvalid?: boolean;
  columns?: string[];
};

/** The engine as a command runs it, on the context's client, without progress and with short test pauses. */
export function runEngine(ctx: Context, opts: RunOptions) {
  const { file, numbers, dryRun, rejectsFile, restart, again, skipInvalid, columns, ...rest } = opts;
  return runItems(ctx, {
    progress: 'none',
    verifyDelayMs: 0,
    retryBaseMs: 50,
    ...rest,
    flags: { numbers: numbers ?? [], file, dryRun, rejects: rejectsFile, restart, again, skipInvalid, columns },
  });
}

/**
 * A client like the context's (paced by its budget, stopped by its Ctrl-C) that sends the first `writes` requests
 * that change something and holds later ones until the context is interrupted; reads go as usual. In real time a
 * run's answers come long before its next window opens, so a run interrupted after some answers has not sent what
 * later windows would; on the tests' clock every window opens at once, and this holds back what real time would.
 */
export async function clientSendingWrites(
  ctx: TestContext,
  sandbox: RunningSandbox,
  writes: number,
  opts: { onHeld?: () => void } = {},
) {
  const budget = await ctx.pacer();
  let sent = 0;
  const gate: Pacer = {
    acquire(signal, acquireOpts) {
      if (acquireOpts?.readOnly || ++sent <= writes) return budget.acquire(signal, acquireOpts);
      // Told of each write held, so that a test can interrupt the run then (a run whose admitted writes settled
      // fewer chunks than the test waits for, a request sent again on a busy machine, is never left waiting).
      opts.onHeld?.();
      return new Promise((_, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
    backoff: (ms, reason) => budget.backoff(ms, reason),
  };
  return createApiClient({
    baseUrl: sandbox.url,
    apiKey: sandbox.key,
    version: 'v2',
    pacer: stoppablePacer(gate, ctx.signal),
  });
}
