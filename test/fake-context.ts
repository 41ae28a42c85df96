// The one fake Context of the unit tests: captured IO, settings given directly, a fake ApiClient that records
// every call and answers from a handler, a clock the test moves, Ctrl-C it presses, a prompter answering from a
// list, status lines on the captured stderr unless --quiet, no debug lines, a pacer that never waits and nothing
// to dispose. No network, no files but a state folder of the test's own. Command tests parse through the command
// tree (test/commands/run-program.ts) and run with it.

import type { Settings } from '../src/config/settings.js';
import type { Context, GlobalOptions, Prompter } from '../src/context/context.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ApiClient, CallOptions } from '../src/api/client.js';
import { noApiKeyError } from '../src/core/errors.js';
import { createTestIO, type TestIO } from './test-io.js';
import type { Envelope } from '@trk/service/types.js';
import type { ApiVersion, Operation } from '@trk/service/vocabulary.js';

export function fakeSettings(version: ApiVersion, apiKey: string | undefined): Settings {
  return {
    profile: 'default',
    baseUrl: 'http://127.0.0.1:9',
    apiVersion: version,
    apiKey,
    resUrl: 'http://127.0.0.1:9',
    budgetUrl: undefined,
    db: undefined,
    sandbox: false,
    output: undefined,
    savedProfiles: [],
    smtpUrl: undefined,
    smtpFrom: undefined,
    trackingUrl: undefined,
    notifyPace: undefined,
    sources: {
      profile: 'default',
      baseUrl: 'default',
      apiVersion: 'default',
      apiKey: 'env',
      resUrl: 'default',
      output: 'default',
      budgetUrl: 'default',
      db: 'default',
      smtpUrl: 'default',
      smtpFrom: 'default',
      trackingUrl: 'default',
      notifyPace: 'default',
    },
  };
}

/** Refuses every confirmation and answers every question with nothing. */
export const refusingPrompter: Prompter = {
  confirm: async () => false,
  input: async () => '',
  password: async () => '',
  select: async (_message, choices, defaultValue) => defaultValue ?? choices[0]?.value ?? '',
};

/** A Context of the given parts and the shared rest. */
export function fakeContextOf(
  parts: Pick<Context, 'io' | 'env' | 'global' | 'settings' | 'api' | 'now' | 'signal'> & { prompter?: Prompter },
): Context {
  return {
    prompter: refusingPrompter,
    ...parts,
    info: (line) => {
      if (!parts.global.quiet) parts.io.err(line);
    },
    debug: () => {},
    warn: (line) => parts.io.err(line),
    // Starts every request at once: these contexts talk to fakes, not to a rate-limited service.
    pacer: async () => ({ acquire: async () => {}, backoff: () => {} }),
    dispose: async () => {},
  };
}

export interface RecordedCall {
  op: Operation;
  body: unknown;
  opts: CallOptions | undefined;
}

export type Handler = (op: Operation, body: unknown) => Envelope<unknown> | Promise<Envelope<unknown>>;

export interface FakeOptions {
  version?: ApiVersion;
  global?: GlobalOptions;
  handler?: Handler;
  stdin?: string;
  tty?: boolean;
  /** Answers of prompter.confirm, in order (default: refuse). */
  confirms?: boolean[];
  inputs?: string[];
  apiKey?: string | undefined;
  now?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Settings over the default ones (all of them: replaced). */
  settings?: Partial<Settings>;
  /** Commands that must not reach the service: asking for the client fails. */
  noApi?: boolean;
  /** The test's own IO (its stdin, its terminal). */
  io?: TestIO;
  /** The machine's clock instead of a fixed one (a running emulator keeps real time). */
  realClock?: boolean;
}

export interface Fake {
  ctx: Context;
  io: TestIO;
  calls: RecordedCall[];
  prompts: string[];
  /** Bodies of the calls to `op`, in order (item commands also read the quota before charging). */
  sent(op: Operation): unknown[];
  /** Move the clock. */
  setNow(ms: number): void;
  /** Press Ctrl-C (when no signal was given). */
  interrupt(): void;
}

/** Every item accepted as sent (with a carrier when absent), for operations taking arrays. */
export const acceptAll: Handler = (op, body) => {
  if (op === 'getquota') {
    return {
      code: 0,
      data: {
        quota_total: 100,
        quota_used: 10,
        quota_remain: 90,
        today_used: 1,
        max_track_daily: 0,
        free_email_quota: 0,
        free_email_quotaused: 0,
      },
    };
  }
  const items = Array.isArray(body) ? (body as Record<string, unknown>[]) : [];
  return {
    code: 0,
    data: { accepted: items.map((i) => ({ number: i.number, carrier: i.carrier ?? 3011 })), rejected: [] },
  };
};

export function createFake(opts: FakeOptions = {}): Fake {
  const version = opts.version ?? 'v2';
  const io =
    opts.io ??
    createTestIO({
      tty: opts.tty ?? false,
      ...(opts.stdin === undefined ? {} : { stdin: Readable.from([Buffer.from(opts.stdin)]) }),
    });
  const calls: RecordedCall[] = [];
  const prompts: string[] = [];
  const confirms = [...(opts.confirms ?? [])];
  const inputs = [...(opts.inputs ?? [])];
  const handler = opts.handler ?? acceptAll;
  const settings: Settings = {
    ...fakeSettings(version, 'apiKey' in opts ? opts.apiKey : 'test-key-0123456789abcdef'),
    ...opts.settings,
  };
  const abort = new AbortController();
  let now = opts.now ?? Date.parse('2025-06-01T12:00:00Z');
  const client: ApiClient = {
    version,
    async call<A>(op: Operation, body: unknown, callOpts?: CallOptions): Promise<Envelope<A>> {
      calls.push({ op, body: structuredClone(body), opts: callOpts });
      return (await handler(op, body)) as Envelope<A>;
    },
    async close() {},
  };
  const prompter: Prompter = {
    async confirm(message) {
      prompts.push(message);
      return confirms.shift() ?? false;
    },
    async input(message, defaultValue) {
      prompts.push(message);
      return inputs.shift() ?? defaultValue ?? '';
    },
    async password(message) {
      prompts.push(message);
      return inputs.shift() ?? '';
    },
    async select(message, choices, defaultValue) {
      prompts.push(message);
      return inputs.shift() ?? defaultValue ?? choices[0]?.value ?? '';
    },
  };
  const ctx: Context = fakeContextOf({
    io,
    // Item runs keep journals and records of finished runs: in a folder of this test's own.
    env: opts.env ?? { TRK_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'trk-cmd-state-')) },
    global: opts.global ?? {},
    settings: async () => settings,
    api: async () => {
      if (opts.noApi) throw new Error('no API in these tests');
      // As the real context: a missing key is found when the client is asked for.
      if (!settings.apiKey) throw noApiKeyError();
      return client;
    },
    prompter,
    now: opts.realClock ? () => Date.now() : () => now,
    signal: opts.signal ?? abort.signal,
  });
  return {
    ctx,
    io,
    calls,
    prompts,
    sent: (op) => calls.filter((c) => c.op === op).map((c) => c.body),
    setNow: (ms) => {
      now = ms;
    },
    interrupt: () => abort.abort(),
  };
}

/** Rejects the given numbers with a code, accepts the rest. */
export function rejecting(numbers: readonly string[], code = -18019901, message = 'already registered'): Handler {
  return (_op, body) => {
    const items = Array.isArray(body) ? (body as Record<string, unknown>[]) : [];
    return {
      code: 0,
      data: {
        accepted: items
          .filter((i) => !numbers.includes(String(i.number)))
          .map((i) => ({ number: i.number, carrier: i.carrier ?? 3011 })),
        rejected: items
          .filter((i) => numbers.includes(String(i.number)))
          .map((i) => ({ number: String(i.number), error: { code, message } })),
      },
    };
  };
}

/** The fake as one object, for commands that reach no service (carriers, webhooks): context, IO, clock, Ctrl-C. */
export interface FakeContext extends Context {
  readonly io: TestIO;
  setNow(ms: number): void;
  interrupt(): void;
}

export function fakeContext(opts: Pick<FakeOptions, 'settings' | 'env' | 'global' | 'now' | 'tty'> = {}): FakeContext {
  const fake = createFake({
    ...opts,
    settings: { apiKey: 'test-key', ...opts.settings },
    noApi: true,
    now: opts.now ?? Date.parse('2025-03-01T12:00:00Z'),
    // Never the user's own cache: a folder that does not exist unless a test passes its own.
    env: opts.env ?? { TRK_CACHE_DIR: path.join(tmpdir(), `trk-no-cache-${process.pid}-${Math.random()}`) },
  });
  return { ...fake.ctx, io: fake.io, setNow: fake.setNow, interrupt: fake.interrupt };
}
