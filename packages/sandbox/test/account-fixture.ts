// A fast account for tests: fake clock, fake webhook receiver, and shorthands for requests.

import type { Operation } from '@trk/service/vocabulary.js';
import { Account, type AccountSettings, type AccountState, type WebhookDelivery } from '../src/account/account.js';
import type { ServedVersion } from '../src/versions.js';
import { sampleNumber } from '../src/world/index.js';

export const START = Date.parse('2026-03-02T10:00:00Z');
export const SEC = 1000;
export const HOUR = 3600 * SEC;
export const DAY = 24 * HOUR;

export function settings(overrides: Partial<AccountSettings> = {}): AccountSettings {
  return {
    key: 'test-key',
    webhookUrl: null,
    quotaTotal: 1_000_000,
    maxTrackDaily: 0,
    ipAllowList: [],
    disabled: false,
    realtimeAllowed: true,
    ...overrides,
  };
}

// Loose view of envelopes: tests assert on the fields they read.
export type Json = any;

export interface TestAccount {
  account: Account;
  now(): number;
  advance(ms: number): Promise<void>;
  /** Advance without ticking. */
  setTime(ms: number): void;
  sent: WebhookDelivery[];
  /** Status the fake webhook answers (default 200). */
  webhookStatus: (d: WebhookDelivery) => number;
  call(version: ServedVersion, op: Operation, body: unknown): Json;
  v2(op: Operation, body: unknown): Json;
  v21(op: Operation, body: unknown): Json;
  v1(op: Operation, body: unknown): Json;
}

export function makeAccount(
  opts: { settings?: Partial<AccountSettings>; state?: AccountState; start?: number; numericMetrics?: boolean } = {},
): TestAccount {
  let now = opts.start ?? START;
  const t: TestAccount = {
    account: undefined as unknown as Account,
    now: () => now,
    advance: async (ms) => {
      now += ms;
      await t.account.tick();
    },
    setTime: (ms) => {
      now = ms;
    },
    sent: [],
    webhookStatus: () => 200,
    call: (version, op, body) => t.account.handle(version, op, body),
    v2: (op, body) => t.account.handle('v2', op, body),
    v21: (op, body) => t.account.handle('v2.1', op, body),
    v1: (op, body) => t.account.handle('v1', op, body),
  };
  t.account = new Account(
    {
      settings: settings(opts.settings),
      now: () => now,
      deliver: async (d) => {
        t.sent.push(d);
        return t.webhookStatus(d);
      },
      ...(opts.numericMetrics === undefined ? {} : { numericMetrics: opts.numericMetrics }),
    },
    opts.state,
  );
  return t;
}

/** Sample numbers the world detects confidently: China Post S10 numbers. */
export function chinaPost(i: number): string {
  return sampleNumber(3011, i);
}

/** Advance in steps (each with a tick) so that runs happen at their own times. */
export async function advanceBy(t: TestAccount, total: number, step = HOUR): Promise<void> {
  for (let done = 0; done < total; done += step) await t.advance(Math.min(step, total - done));
}
