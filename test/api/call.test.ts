// One call's attempts, with a scripted transport and pacer: no network, no clock but the real one at small scale.
import { describe, expect, it } from 'vitest';
import { Call, type CallSettings } from '../../src/api/call.js';
import type { RequestLog } from '../../src/api/client.js';
import { NetworkError, RequestAbortedError, ServerError, TimeoutError } from '../../src/api/errors.js';
import { resentAfterAmbiguousFailure } from '../../src/api/retry.js';
import type { TransportAnswer, TransportRequest } from '../../src/api/transport.js';
import type { Pacer, WaitReason } from '../../src/pacing/pacer.js';
import { BudgetFileError } from '../../src/pacing/budget-file.js';

const OK = { code: 0, data: { accepted: [{ number: 'RR123456789CN', carrier: 3011 }], rejected: [] } };
const answer = (status: number, body: unknown = OK, headers = {}): TransportAnswer => ({
  status,
  headers,
  text: JSON.stringify(body),
});
type Step = TransportAnswer | Error | ((req: TransportRequest) => Promise<TransportAnswer>);

/** A call whose transport answers each attempt with the next step; what it did is recorded. */
function setUp(steps: Step[], overrides: Partial<CallSettings> = {}) {
  const sent: TransportRequest[] = [];
  const logs: RequestLog[] = [];
  const waits: [WaitReason, number][] = [];
  const holds: [number, WaitReason | undefined][] = [];
  const admissions = { acquired: 0, sent: 0 };
  const pacer: Pacer = {
    acquire: async (signal) => {
      signal?.throwIfAborted();
      admissions.acquired++;
      return { sent: () => void admissions.sent++ };
    },
    backoff: (ms, reason) => void holds.push([ms, reason]),
  };
  const settings: CallSettings = {
    version: 'v2.1',
    host: '127.0.0.1:1',
    headers: { svctoken: 'k' },
    transport: {
      send: async (req) => {
        sent.push(req);
        req.onSent?.();
        const step = steps.shift();
        if (step === undefined) throw new Error('no more answers scripted');
        if (step instanceof Error) throw step;
        return typeof step === 'function' ? step(req) : step;
      },
      close: async () => {},
    },
    pacer,
    policy: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    timeoutMs: 1000,
    deadlineMs: 3000,
    maxAnswerBytes: 1 << 20,
    onRequest: (log) => logs.push(log),
    onWait: (reason, ms) => waits.push([reason, ms]),
    ...overrides,
  };
  const call = (op: 'register' | 'stoptrack', opts: { signal?: AbortSignal; retry?: boolean } = {}) => {
    const url = `http://127.0.0.1:1/track/v2.1/${op}`;
    const body = [{ number: 'RR123456789CN' }];
    return new Call(settings, { op, url, body, signal: opts.signal, retry: opts.retry ?? true });
  };
  return { call, sent, logs, waits, holds, admissions };
}

const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

describe('Call', () => {
  it('sends the body once, counting the start from when it was written, and logs the attempt', async () => {
    const t = setUp([answer(200)]);
    await expect(t.call('register').run()).resolves.toEqual(OK);
    expect(t.sent.map((r) => JSON.parse(r.body))).toEqual([[{ number: 'RR123456789CN' }]]);
    expect(t.admissions).toEqual({ acquired: 1, sent: 1 });
    expect(t.logs).toEqual([{ operation: 'register', status: 200, ms: expect.any(Number), items: 1, attempt: 1 }]);
  });

  it("waits before retrying a 503, saying so; after a 429 the wait is the pacer's hold, not its own", async () => {
    const t = setUp([answer(503, 'down'), answer(429, '', { 'retry-after': '0.05' }), answer(200)]);
    await expect(t.call('register').run()).resolves.toEqual(OK);
    expect(t.waits).toEqual([['unavailable', expect.any(Number)]]);
    expect(t.holds).toEqual([[50, 'rate-limited']]);
    expect(t.logs.map((l) => [l.status, l.attempt, l.note])).toEqual([
      [503, 1, 'ServerError (not-sent)'],
      [429, 2, 'RateLimitError (not-sent)'],
      [200, 3, undefined],
    ]);
  });

  it('a free write is sent again after an ambiguous failure: its answer marked, later failures ambiguous', async () => {
    const t = setUp([reset(), answer(200)]);
    const envelope = await t.call('stoptrack').run();
    expect(resentAfterAmbiguousFailure(envelope)).toBe(true);
    expect(t.logs.at(-1)?.note).toBe('re-sent after an ambiguous failure');
    const u = setUp([reset(), answer(500, 'oops'), answer(500, 'oops')]);
    const err = await u
      .call('stoptrack')
      .run()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).delivery).toBe('unknown');
    expect((err as ServerError).attempts).toBe(3);
  });

  it('never sends a charging write again after an ambiguous failure', async () => {
    const t = setUp([reset(), answer(200)]);
    const err = await t
      .call('register')
      .run()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(t.sent).toHaveLength(1);
  });

  it('one attempt only without retries', async () => {
    const t = setUp([answer(503, 'down'), answer(200)]);
    await expect(t.call('register', { retry: false }).run()).rejects.toBeInstanceOf(ServerError);
    expect(t.sent).toHaveLength(1);
  });

  it('an attempt that outlives the time limit is a TimeoutError; no retry would fit in the deadline', async () => {
    const hang = (req: TransportRequest) =>
      new Promise<TransportAnswer>((_, reject) => {
        req.signal.addEventListener('abort', () => reject(req.signal.reason));
      });
    const policy = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 100 };
    // The deadline ends with the attempt's time limit: whatever the jittered wait (0 to 100 ms), no retry fits.
    const t = setUp([hang], { timeoutMs: 50, deadlineMs: 50, policy });
    const err = await t
      .call('stoptrack')
      .run()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(t.sent).toHaveLength(1);
  });

  it('gives up when the next wait would end after the deadline, saying why', async () => {
    // The service asks for 10 s; the policy allows a wait of 5 s, more than the 3 s deadline leaves.
    const t = setUp([answer(503, 'down', { 'retry-after': '10' }), answer(200)], {
      policy: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5000 },
    });
    const err = await t
      .call('register')
      .run()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).gaveUp).toBe('the next attempt would come after the 3 s the --timeout deadline allows');
    expect(t.sent).toHaveLength(1);
    expect(t.waits).toEqual([]);
  });

  it("Ctrl-C while waiting for a turn: nothing was sent; a pacer's own failure is thrown as it is", async () => {
    const stop = new AbortController();
    stop.abort(new Error('interrupted'));
    const t = setUp([answer(200)]);
    const err = await t
      .call('register', { signal: stop.signal })
      .run()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestAbortedError);
    expect((err as RequestAbortedError).delivery).toBe('not-sent');
    const broken = new BudgetFileError('/state/budget', Object.assign(new Error('x'), { code: 'EROFS' }));
    const u = setUp([answer(200)], { pacer: { acquire: () => Promise.reject(broken), backoff: () => {} } });
    await expect(u.call('register').run()).rejects.toBe(broken);
  });
});
