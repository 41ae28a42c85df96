// The rate budget of a key shared by several hosts, in Redis (TRK_BUDGET_URL or the budget-url setting): what
// the budget file (file-pacer.ts) is to the processes of one machine. The same admission rule (no more than
// `perSecond` starts in any window of a second plus the margin), the same hold after a 429 (at most
// MAX_HOLD_MS), and starts moved to when their request is written (Admission.sent), each as one atomic script
// over a sorted set of starts and a hash of the hold. Times are the Redis server's (TIME), the one clock every
// host shares; a host whose clock is off still paces right.
//
// Keys: `trk:budget:<digest>:starts` and `:hold`, the digest the budget file's (of the address and the key,
// never the key itself); both expire on their own when no one uses them. When Redis cannot be reached or
// answers an error, admissions fail with a RedisBudgetError: reads go on at this process's own pace
// (withLocalFallback), writes stop, as with a budget file that cannot be used.

import { setTimeout as delay } from 'node:timers/promises';
import { hostname } from 'node:os';
import {
  holdAnnouncer,
  MAX_HOLD_MS,
  Margin,
  type AcquireOptions,
  type Admission,
  type HoldListener,
  type Pacer,
  type WaitReason,
} from './pacer.js';
import { RespClient, type RespValue } from './resp.js';
import { BudgetError, SHARED_MARGIN_MS } from './budget.js';

// KEYS: starts, hold. ARGV: perSecond, windowMs, member. Returns {0, now} when the start is taken, else
// {wait ms, hold ms left (0: none), hold reason}.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local hold = tonumber(redis.call('HGET', KEYS[2], 'until') or '0')
local untilAt = 0
if hold > now then untilAt = hold end
local n = redis.call('ZCARD', KEYS[1])
if n >= per then
  local nth = redis.call('ZRANGE', KEYS[1], n - per, n - per, 'WITHSCORES')
  local open = tonumber(nth[2]) + window
  if open > untilAt then untilAt = open end
end
if untilAt > now then
  local left = 0
  if hold > now then left = hold - now end
  return {untilAt - now, left, redis.call('HGET', KEYS[2], 'reason') or 'rate-limited'}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window * 2)
return {0, now}
`;

// KEYS: starts. ARGV: member. The start moves to now, never earlier than it was.
const SENT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZADD', KEYS[1], 'XX', 'GT', now, ARGV[1])
`;

// KEYS: hold. ARGV: ms, reason. A longer hold than the one set wins.
const HOLD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilAt = now + tonumber(ARGV[1])
if untilAt > tonumber(redis.call('HGET', KEYS[1], 'until') or '0') then
  redis.call('HSET', KEYS[1], 'until', untilAt, 'reason', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) + 1000)
end
return 1
`;

/** Redis cannot be used for the budget: exit 1, naming the server (never its password). */
export class RedisBudgetError extends BudgetError {
  constructor(url: string, err: unknown) {
    super(`cannot use the rate budget in Redis at ${redisHost(url)}: ${err instanceof Error ? err.message : String(err)}`, {
      hint: 'check TRK_BUDGET_URL (or the budget-url setting) and that Redis is running',
      cause: err,
    });
  }
}

/** `host:port` of a Redis address, without user or password. */
export function redisHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  } catch {
    return 'an address that is not a URL';
  }
}

export interface RedisPacerOptions {
  url: string;
  /** Names the budget: the digest of the address and the key (budgetFile's). */
  budget: string;
  perSecond: number;
  marginMs?: number;
  onHold?: HoldListener;
  /** Time limit of one Redis answer; default 2000 ms. */
  timeoutMs?: number;
}

const HOLD_REASONS: readonly WaitReason[] = ['rate-limited', 'unavailable', 'network'];
let members = 0;

export interface RedisPacer extends Pacer {
  acquire(signal?: AbortSignal, opts?: AcquireOptions): Promise<Admission>;
  /** Closes the connection to Redis. */
  close(): void;
}

export function createRedisPacer(opts: RedisPacerOptions): RedisPacer {
  const redis = new RespClient(opts.url, opts.timeoutMs);
  const starts = `trk:budget:${opts.budget}:starts`;
  const holdKey = `trk:budget:${opts.budget}:hold`;
  const margin = new Margin(opts.marginMs ?? SHARED_MARGIN_MS);
  /** A hold this process set, applied here even before Redis has it. */
  let localHold = 0;
  const announce = holdAnnouncer(opts.onHold);
  const call = async (args: (string | number)[]): Promise<RespValue> => {
    try {
      return await redis.command(args);
    } catch (err) {
      throw new RedisBudgetError(opts.url, err);
    }
  };

  return {
    async acquire(signal?: AbortSignal, _opts?: AcquireOptions): Promise<Admission> {
      // Unique across hosts, processes and requests: the start's name in the sorted set.
      const member = `${hostname()}:${process.pid}:${++members}:${Math.random().toString(36).slice(2, 8)}`;
      for (;;) {
        signal?.throwIfAborted();
        const held = localHold - performance.now();
        if (held > 0) {
          await delay(Math.ceil(held), undefined, signal ? { signal } : {});
          continue;
        }
        const answer = (await call(['EVAL', TAKE, 2, starts, holdKey, opts.perSecond, 1000 + margin.ms, member])) as number[];
        const [wait = 0, holdLeft = 0, reason] = answer as [number, number, string?];
        if (wait === 0) {
          return {
            sent: () => void call(['EVAL', SENT, 1, starts, member]).catch(() => {}),
          };
        }
        if (holdLeft > 0) {
          const why = HOLD_REASONS.find((r) => r === reason) ?? 'rate-limited';
          const t = performance.now();
          announce(t + holdLeft, t, why);
        }
        await delay(Math.max(1, Math.min(wait, 1000)), undefined, signal ? { signal } : {});
      }
    },
    backoff(ms: number, reason: WaitReason = 'rate-limited'): void {
      margin.held(reason, performance.now());
      if (!(ms > 0)) return;
      const capped = Math.min(ms, MAX_HOLD_MS);
      localHold = Math.max(localHold, performance.now() + capped);
      // For every host to see; if Redis cannot be told, the hold still applies here.
      void call(['EVAL', HOLD, 1, holdKey, Math.ceil(capped), reason]).catch(() => {});
    },
    close: () => redis.close(),
  };
}
