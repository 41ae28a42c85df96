// The rate budget of a key shared by several hosts, in Redis (TRK_BUDGET_URL or the budget-url setting): what
// the budget file (file-pacer.ts) is to the processes of one machine. The same admission rule (no more than
// `perSecond` starts in any window of a second plus the margin), the same hold after a 429 (at most
// MAX_HOLD_MS), and starts moved to when their request is written (Admission.sent), each as one atomic script
// (redis-scripts.ts). Times are the Redis server's, the one clock every host shares; a host whose clock is off
// still paces right.
//
// Keys: `trk:budget:<digest>:starts` and `:hold`, the digest the budget file's (of the address and the key,
// never the key itself); both expire on their own when no one uses them. When Redis cannot be reached or
// answers an error, admissions fail with a RedisBudgetError: reads go on at this process's own pace
// (withLocalFallback), writes stop, as with a budget file that cannot be used.
//
// The client is node-redis's own (@redis/client), loaded with this module, only when Redis is named. One
// connection, made on first use, without reconnection or an offline queue: a failure fails what waits, and the
// next call connects again. Every answer has a time limit; while one is awaited the connection keeps the process
// alive, idle it does not (a command that ends without closing the budget still exits).

import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from '@redis/client';
import { clock } from '../core/clock.js';
import { BudgetError, SHARED_MARGIN_MS } from './budget.js';
import {
  holdAnnouncer,
  Margin,
  MAX_HOLD_MS,
  type AcquireOptions,
  type Admission,
  type HoldListener,
  type Pacer,
  type WaitReason,
} from './pacer.js';
import { SCRIPTS } from './redis-scripts.js';

/** Redis cannot be used for the budget: exit 1, naming the server (never its password). */
export class RedisBudgetError extends BudgetError {
  constructor(url: string, err: unknown) {
    super(`cannot use the rate budget in Redis at ${redisHost(url)}: ${withoutPassword(url, errorText(err))}`, {
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

function errorText(err: unknown): string {
  // A refused connection to a host with several addresses is an AggregateError with no message of its own.
  if (err instanceof AggregateError && !err.message) return err.errors.map(errorText).join('; ');
  return err instanceof Error ? err.message : String(err);
}

/** `text` with the address's password (should a message ever quote it) masked. */
function withoutPassword(url: string, text: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // not a URL: no password to mask
  }
  return password ? text.split(password).join('***') : text;
}

export interface RedisPacerOptions {
  url: string;
  /** Names the budget: the digest of the address and the key (budgetName's). */
  budget: string;
  perSecond: number;
  marginMs?: number;
  onHold?: HoldListener;
  /** Time limit of connecting and of one Redis answer; default 2000 ms. */
  timeoutMs?: number;
}

type Client = ReturnType<typeof connectClient>;

function connectClient(url: string, timeoutMs: number) {
  return createClient({
    url,
    socket: { connectTimeout: timeoutMs, reconnectStrategy: false },
    disableOfflineQueue: true,
    scripts: SCRIPTS,
  });
}

const HOLD_REASONS: readonly WaitReason[] = ['rate-limited', 'unavailable', 'network'];
let members = 0;

/** Unique across hosts, processes and requests: a start's name in the sorted set. */
function memberName(): string {
  return `${hostname()}:${process.pid}:${++members}:${Math.random().toString(36).slice(2, 8)}`;
}

export class RedisPacer implements Pacer {
  readonly #url: string;
  readonly #timeoutMs: number;
  readonly #starts: string;
  readonly #holdKey: string;
  readonly #perSecond: number;
  readonly #margin: Margin;
  readonly #announce: ReturnType<typeof holdAnnouncer>;
  /** A hold this process set (monotonic ms), applied here even before Redis has it. */
  #localHold = 0;
  #connection: Promise<Client> | undefined;
  /** The client of `#connection`, once made. */
  #client: Client | undefined;
  /** Commands awaiting their answer: while there are some, the connection keeps the process alive. */
  #waiting = 0;

  constructor(opts: RedisPacerOptions) {
    this.#url = opts.url;
    this.#timeoutMs = opts.timeoutMs ?? 2000;
    this.#starts = `trk:budget:${opts.budget}:starts`;
    this.#holdKey = `trk:budget:${opts.budget}:hold`;
    this.#perSecond = opts.perSecond;
    this.#margin = new Margin(opts.marginMs ?? SHARED_MARGIN_MS);
    this.#announce = holdAnnouncer(opts.onHold);
  }

  async acquire(signal?: AbortSignal, _opts?: AcquireOptions): Promise<Admission> {
    const member = memberName();
    // Waits for the budget on Redis's clock (TIME), which every host shares and no test of this one can skip.
    const sleep = (ms: number) => delay(Math.max(1, Math.ceil(ms)), undefined, signal ? { signal } : {});
    for (;;) {
      signal?.throwIfAborted();
      const held = this.#localHold - clock().monotonic();
      if (held > 0) {
        await sleep(held);
        continue;
      }
      const { wait, holdLeft, reason } = await this.#take(member);
      if (wait === 0) return { sent: () => void this.#run((c) => c.sent(this.#starts, member)).catch(() => {}) };
      if (holdLeft > 0) this.#announceHold(holdLeft, reason);
      await sleep(Math.min(wait, 1000));
    }
  }

  backoff(ms: number, reason: WaitReason = 'rate-limited'): void {
    this.#margin.held(reason, clock().monotonic());
    if (!(ms > 0)) return;
    const capped = Math.min(ms, MAX_HOLD_MS);
    this.#localHold = Math.max(this.#localHold, clock().monotonic() + capped);
    // For every host to see; if Redis cannot be told, the hold still applies here.
    void this.#run((c) => c.hold(this.#holdKey, Math.ceil(capped), reason)).catch(() => {});
  }

  /** Closes the connection to Redis once the answers awaited have come. */
  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    this.#client = undefined;
    const client = await connection?.catch(() => undefined);
    if (client?.isOpen) await client.close().catch(() => client.destroy());
  }

  /** Takes a start named `member` if the budget allows one now (wait 0), else says how long to wait, and why. */
  async #take(member: string): Promise<{ wait: number; holdLeft: number; reason: string | undefined }> {
    const windowMs = 1000 + this.#margin.at(clock().monotonic());
    const answer = await this.#run((c) => c.take(this.#starts, this.#holdKey, this.#perSecond, windowMs, member));
    const [wait, holdLeft, reason] = answer as unknown[];
    return {
      wait: typeof wait === 'number' ? wait : 0,
      holdLeft: typeof holdLeft === 'number' ? holdLeft : 0,
      reason: typeof reason === 'string' ? reason : undefined,
    };
  }

  #announceHold(leftMs: number, reason: string | undefined): void {
    const why = HOLD_REASONS.find((r) => r === reason) ?? 'rate-limited';
    const t = clock().monotonic();
    this.#announce(t + leftMs, t, why);
  }

  /** One command on the connection; any failure of Redis becomes a RedisBudgetError. */
  async #run<T>(command: (client: Client) => Promise<T>): Promise<T> {
    let client: Client | undefined;
    this.#waiting++;
    try {
      client = await this.#connected();
      client.ref();
      return await this.#answer(client, command(client));
    } catch (err) {
      throw new RedisBudgetError(this.#url, err);
    } finally {
      if (--this.#waiting === 0 && client?.isOpen) client.unref();
    }
  }

  /**
   * `pending`'s answer, or a failure after the time limit. The client's own command timeout only covers the wait
   * to be written: a server that stops answering (paused, swapped out, a network gone quiet) would hold the
   * admission for ever. The connection is dropped then, and the next call makes a new one.
   */
  async #answer<T>(client: Client, pending: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`no answer from Redis within ${this.#timeoutMs} ms`));
        this.#drop(client);
      }, this.#timeoutMs);
    });
    try {
      return await Promise.race([pending, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  #drop(client: Client): void {
    if (this.#client === client) {
      this.#client = undefined;
      this.#connection = undefined;
    }
    client.destroy();
  }

  #connected(): Promise<Client> {
    // Closed by Redis or by a failure: made again.
    if (this.#connection && this.#client?.isOpen) return this.#connection;
    const client = connectClient(this.#url, this.#timeoutMs);
    this.#client = client;
    const connection = client.connect().then(() => client);
    // Failures reach the commands waiting (and then the next call connects again), not an unhandled 'error'.
    client.on('error', () => {});
    this.#connection = connection;
    return connection;
  }
}
