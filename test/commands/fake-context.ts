// A Context for command tests: captured IO, settings given directly, and a fake ApiClient that records every
// call and answers from a handler. No network, no files.

import type { ApiClient, CallOptions } from '../../src/api/client.js';
import type { ApiVersion, Operation } from '../../src/service/vocabulary.js';
import type { Envelope } from '../../src/service/types.js';
import type { Settings } from '../../src/config/settings.js';
import type { Context, GlobalOptions, Prompter } from '../../src/context.js';
import { noApiKeyError } from '../../src/errors.js';
import { createTestIO, type TestIO } from '../../src/io.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fakeContextOf, fakeSettings } from '../fake-context.js';

export { fakeSettings } from '../fake-context.js';

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
  /** Replace the settings the context resolves. */
  settings?: Settings;
}

export interface Fake {
  ctx: Context;
  io: TestIO;
  calls: RecordedCall[];
  prompts: string[];
  /** Bodies of the calls to `op`, in order (item commands also read the quota before charging). */
  sent(op: Operation): unknown[];
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
  return { code: 0, data: { accepted: items.map((i) => ({ number: i.number, carrier: i.carrier ?? 3011 })), rejected: [] } };
};

export function createFake(opts: FakeOptions = {}): Fake {
  const version = opts.version ?? 'v2';
  const io = createTestIO({
    tty: opts.tty ?? false,
    ...(opts.stdin === undefined ? {} : { stdin: Readable.from([Buffer.from(opts.stdin)]) }),
  });
  const calls: RecordedCall[] = [];
  const prompts: string[] = [];
  const confirms = [...(opts.confirms ?? [])];
  const inputs = [...(opts.inputs ?? [])];
  const handler = opts.handler ?? acceptAll;
  const settings = opts.settings ?? fakeSettings(version, 'apiKey' in opts ? opts.apiKey : 'test-key-0123456789abcdef');
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
      // As the real context: a missing key is found when the client is asked for.
      if (!settings.apiKey) throw noApiKeyError();
      return client;
    },
    prompter,
    now: () => opts.now ?? Date.parse('2025-06-01T12:00:00Z'),
    signal: opts.signal ?? new AbortController().signal,
  });
  return { ctx, io, calls, prompts, sent: (op) => calls.filter((c) => c.op === op).map((c) => c.body) };
}

/** Rejects the given numbers with a code, accepts the rest. */
export function rejecting(numbers: readonly string[], code = -18019901, message = 'already registered'): Handler {
  return (_op, body) => {
    const items = Array.isArray(body) ? (body as Record<string, unknown>[]) : [];
    return {
      code: 0,
      data: {
        accepted: items.filter((i) => !numbers.includes(String(i.number))).map((i) => ({ number: i.number, carrier: i.carrier ?? 3011 })),
        rejected: items
          .filter((i) => numbers.includes(String(i.number)))
          .map((i) => ({ number: String(i.number), error: { code, message } })),
      },
    };
  };
}
