// The parts of the emulator's HTTP server, each on its own, without a server: state restore, the tick loop, the
// request counters and log, and the API pipeline's steps on stand-in requests. server.test.ts and its neighbours
// hold the whole over real HTTP.

import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { type Answer, ApiPipeline, authRefusal, parseApiBody } from '../src/http/api-pipeline.js';
import { FaultInjector } from '../src/http/faults.js';
import { RateLimiter } from '../src/http/rate-limit.js';
import { RequestRecorder, type SandboxRequestLog } from '../src/http/request-log.js';
import { clockFrom, startSettings } from '../src/http/restore.js';
import { RequestCounters } from '../src/http/stats.js';
import { Ticker } from '../src/http/ticker.js';
import { defaultAccountSettings } from '../src/settings.js';
import type { SandboxStateFile } from '../src/state-file.js';
import { makeAccount } from './account-fixture.js';

const T0 = Date.UTC(2026, 5, 1, 8, 0, 0);

describe('state restore', () => {
  const saved = (settings: Record<string, unknown>): SandboxStateFile => ({
    version: 1,
    clock: { time: T0, savedAt: Date.now(), speed: 1 },
    settings,
    account: {},
  });

  it('settings: options given now > settings saved > defaults', () => {
    const fresh = startSettings(undefined, {});
    expect(fresh).toEqual(defaultAccountSettings());
    const kept = startSettings(saved({ quotaTotal: 500, webhookUrl: 'http://127.0.0.1:9/hook' }), { quotaTotal: 70 });
    expect(kept).toMatchObject({ quotaTotal: 70, webhookUrl: 'http://127.0.0.1:9/hook', key: 'sandbox-key' });
  });

  it('a bad option is refused naming it', () => {
    expect(() => startSettings(undefined, { quotaTotal: -1 })).toThrow(/quotaTotal/);
  });

  it("the clock starts at --start, or carries on from the saved clock (speed is each start's own)", () => {
    expect(Math.abs(clockFrom(undefined, { start: T0 }).now() - T0)).toBeLessThan(1000);
    const resumed = clockFrom(saved({}), { speed: 3600, start: 0 });
    expect(Math.abs(resumed.now() - T0)).toBeLessThan(1000);
    expect(resumed.speed).toBe(3600);
  });
});

describe('the tick loop', () => {
  /** A target whose ticks wait for the test to let them finish. */
  function slowTarget() {
    const order: string[] = [];
    const gates: (() => void)[] = [];
    let visible = 0;
    return {
      order,
      gates,
      bump: () => visible++,
      target: {
        tick: () =>
          new Promise<void>((resolve) => {
            order.push(`tick ${order.length + 1}`);
            gates.push(resolve);
          }),
        stats: () => ({ visible }),
      },
    };
  }

  it('runs ticks one at a time, in order, and says when one changed something visible', async () => {
    const s = slowTarget();
    const changed = vi.fn();
    const ticker = new Ticker(s.target, changed, () => {});
    const first = ticker.tick();
    const second = ticker.tick();
    await vi.waitFor(() => expect(s.order).toEqual(['tick 1']));
    s.bump();
    s.gates[0]!();
    await first;
    expect(changed).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(s.order).toEqual(['tick 1', 'tick 2']));
    s.gates[1]!();
    await second;
    expect(changed).toHaveBeenCalledTimes(1); // the second changed nothing
  });

  it('the timer skips while a tick is queued, and a failed tick is reported without stopping the loop', async () => {
    vi.useFakeTimers();
    try {
      const errors: unknown[] = [];
      let calls = 0;
      let release: (() => void) | undefined;
      const ticker = new Ticker(
        {
          tick: () => {
            calls++;
            if (calls === 1) return Promise.reject(new Error('boom'));
            return new Promise<void>((resolve) => (release = resolve));
          },
          stats: () => ({}),
        },
        undefined,
        (err) => errors.push(err),
      );
      ticker.start(100);
      await vi.advanceTimersByTimeAsync(100);
      expect(errors).toEqual([new Error('boom')]);
      await vi.advanceTimersByTimeAsync(100); // second tick starts and hangs
      await vi.advanceTimersByTimeAsync(500); // the timer does not queue more behind it
      expect(calls).toBe(2);
      release!();
      await ticker.idle();
      ticker.stop();
      await vi.advanceTimersByTimeAsync(500);
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('request counters', () => {
  it('count answers by status, operations, limits and injected faults; snapshots are copies', () => {
    const c = new RequestCounters();
    c.received();
    c.answered(200);
    c.answered(200);
    c.handled('v2.2', 'register');
    c.rateLimited();
    c.injected('drops');
    c.injected('burst429');
    const snap = c.snapshot();
    expect(snap).toEqual({
      total: 1,
      byStatus: { 200: 2 },
      byOperation: { 'v2.2/register': 1 },
      dropped: 1,
      rateLimited: 1,
      injected: { burst429: 1, failures: 0, drops: 1 },
    });
    snap.byStatus[200] = 99;
    expect(c.snapshot().byStatus[200]).toBe(2);
    c.reset();
    expect(c.snapshot().total).toBe(0);
  });
});

/** A stand-in request: a stream with the fields the pipeline reads. */
function fakeRequest(method: string, headers: Record<string, string>, body: string): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage & PassThrough;
  const socket = { remoteAddress: '127.0.0.1', destroyed: false, destroy: () => void (socket.destroyed = true) };
  Object.assign(req, { method, headers, socket, complete: true });
  req.end(body);
  return req;
}

/** A stand-in response that keeps what was sent and closes like a real one. */
type Sent = { status: number; body: any; headers: Record<string, string> };

function fakeResponse(): ServerResponse & { sent?: Sent } {
  const res = new EventEmitter() as ServerResponse & { sent?: Sent };
  let headers: Record<string, string> = {};
  Object.assign(res, {
    statusCode: 200,
    writableFinished: false,
    writeHead(status: number, h: Record<string, string>) {
      res.statusCode = status;
      headers = h;
      return res;
    },
    end(text?: string) {
      res.sent = { status: res.statusCode, body: text === undefined ? undefined : JSON.parse(text), headers };
      (res as { writableFinished: boolean }).writableFinished = true;
      res.emit('close');
      return res;
    },
  });
  return res;
}

describe('request log', () => {
  it('opens an entry on arrival and logs it, with its faults and outcome, when the response closes', () => {
    const logged: SandboxRequestLog[] = [];
    const recorder = new RequestRecorder(
      () => T0,
      (e) => logged.push(e),
    );
    const res = fakeResponse();
    recorder.begin(fakeRequest('POST', {}, ''), res, '/track/v2/register');
    recorder.fault(res, 'latency 5 ms');
    recorder.outcome(res, { code: 0, data: { accepted: [{}], rejected: [{ error: { code: -18019901 } }] } });
    expect(recorder.entries()).toEqual([]);
    res.end('{}');
    expect(logged).toHaveLength(1);
    expect(recorder.entries()[0]).toMatchObject({
      seq: 1,
      time: new Date(T0).toISOString(),
      path: '/track/v2/register',
      status: 200,
      accepted: 1,
      rejected: 1,
      rejectedCodes: { '-18019901': 1 },
      faults: ['latency 5 ms'],
    });
  });
});

describe('the API pipeline, step by step', () => {
  it('authentication: wrong key, then the whitelist, then a disabled account', () => {
    const s = { ...defaultAccountSettings(), key: 'k' };
    type Refusal = { data: { errors: { code: number }[] } } | undefined;
    const code = (a: Answer | undefined) => (a?.body as Refusal)?.data.errors[0]?.code;
    expect(code(authRefusal(s, undefined, '127.0.0.1'))).toBe(-18010002);
    expect(code(authRefusal(s, 'x', '127.0.0.1'))).toBe(-18010002);
    expect(authRefusal(s, 'k', '127.0.0.1')).toBeUndefined();
    expect(code(authRefusal({ ...s, ipAllowList: ['10.0.0.0/8'] }, 'k', '127.0.0.1'))).toBe(-18010001);
    expect(authRefusal({ ...s, ipAllowList: ['10.0.0.0/8'] }, 'k', '10.1.2.3')).toBeUndefined();
    expect(code(authRefusal({ ...s, disabled: true }, 'k', '127.0.0.1'))).toBe(-18010004);
    expect(authRefusal(s, 'x', '127.0.0.1')?.status).toBe(401);
  });

  it('body: JSON only, with or without parameters; no body goes on as none', () => {
    expect(parseApiBody('application/json', Buffer.from('[1]'))).toEqual({ value: [1] });
    expect(parseApiBody('Application/JSON; charset=utf-8', Buffer.from('{}'))).toEqual({ value: {} });
    expect(parseApiBody('application/json', Buffer.from('  '))).toEqual({ value: undefined });
    expect(parseApiBody('text/plain', Buffer.from('[]'))).toBeUndefined();
    expect(parseApiBody(undefined, Buffer.from('[]'))).toBeUndefined();
    expect(parseApiBody('application/json', Buffer.from('[1,'))).toBeUndefined();
  });

  /** A pipeline over `account` (a fresh one by default), its parts other than these as the server makes them. */
  function apiPipeline(
    parts: {
      account?: ReturnType<typeof makeAccount>['account'];
      limiter?: RateLimiter;
      faults?: ConstructorParameters<typeof FaultInjector>[0];
    } = {},
  ) {
    const counters = new RequestCounters();
    const changed = vi.fn();
    const api = new ApiPipeline({
      account: parts.account ?? makeAccount({ settings: { key: 'k' } }).account,
      injector: new FaultInjector(parts.faults ?? {}, { seed: 1 }),
      limiter: parts.limiter ?? new RateLimiter(1),
      counters,
      recorder: new RequestRecorder(() => T0),
      strictPaths: true,
      changed,
      onError: (err) => {
        throw err;
      },
    });
    return { api, counters, changed };
  }

  function pipeline(faults: ConstructorParameters<typeof FaultInjector>[0] = {}) {
    const { api, counters, changed } = apiPipeline({ faults });
    const send = async (path: string, key: string, body = '[]', contentType = 'application/json') => {
      const res = fakeResponse();
      const req = fakeRequest('POST', { svctoken: key, 'content-type': contentType }, body);
      await api.handle(req, res, path);
      return { res, req, sent: res.sent };
    };
    return { send, counters, changed };
  }

  it('answers in the documented order: 404, 401, 429, then the account', async () => {
    const p = pipeline();
    expect((await p.send('/track/v2/nothing', 'x')).sent?.status).toBe(404);
    expect((await p.send('/track/v2/getquota', 'x')).sent?.status).toBe(401);
    const ok = (await p.send('/track/v2/getquota', 'k')).sent;
    expect(ok?.status).toBe(200);
    expect(ok?.body.data.quota_total).toBe(1_000_000);
    const limited = (await p.send('/track/v2/getquota', 'k')).sent;
    expect(limited?.status).toBe(429);
    expect(limited?.headers['Retry-After']).toBe('1');
    expect(p.counters.snapshot()).toMatchObject({ total: 4, rateLimited: 1, byOperation: { 'v2/getquota': 1 } });
    expect(p.changed).toHaveBeenCalledTimes(1);
  });

  it('counts the requests that arrived together before it works out an answer for any of them', async () => {
    const t = makeAccount({ settings: { key: 'k' } });
    const limiter = new RateLimiter(3);
    const order: string[] = [];
    const take = limiter.take.bind(limiter);
    vi.spyOn(limiter, 'take').mockImplementation((key, at) => {
      order.push('counted');
      return take(key, at);
    });
    const handle = t.account.handle.bind(t.account);
    vi.spyOn(t.account, 'handle').mockImplementation((...args) => {
      order.push('answered');
      return handle(...args);
    });
    const { api } = apiPipeline({ account: t.account, limiter });
    const headers = { svctoken: 'k', 'content-type': 'application/json' };
    const request = () => api.handle(fakeRequest('POST', headers, '[]'), fakeResponse(), '/track/v2/getquota');
    await Promise.all([request(), request()]);
    // Working out the first answer before counting the second counted the second late (by that work's time).
    expect(order).toEqual(['counted', 'counted', 'answered', 'answered']);
  });

  it('counts a request when its headers came, not when its body was read', async () => {
    let now = 10_000;
    const { api } = apiPipeline({ limiter: new RateLimiter(1, () => now) });
    const headers = { svctoken: 'k', 'content-type': 'application/json' };
    const slow = new PassThrough() as unknown as IncomingMessage & PassThrough;
    Object.assign(slow, { method: 'POST', headers, socket: { remoteAddress: '127.0.0.1' }, complete: true });
    const first = fakeResponse();
    const answered = api.handle(slow, first, '/track/v2/getquota');
    now += 600; // the body comes in while the service is busy with others
    slow.end('[]');
    await answered;
    expect(first.sent?.status).toBe(200);
    now += 500; // 1.1 s after the first request reached the service, 0.5 s after its body
    const second = fakeResponse();
    await api.handle(fakeRequest('POST', headers, '[]'), second, '/track/v2/getquota');
    expect(second.sent?.status).toBe(200);
  });

  it('a body that is not JSON is answered 200 -18010013 without reaching the account', async () => {
    const p = pipeline();
    const sent = (await p.send('/track/v2/register', 'k', '[{', 'application/json')).sent;
    expect(sent).toMatchObject({ status: 200, body: { code: -18010013 } });
    expect(p.counters.snapshot().byOperation).toEqual({});
  });

  it('an injected drop: the account does the work, the socket is cut, nothing is sent', async () => {
    const p = pipeline({ dropRate: 1 });
    const { req, sent } = await p.send('/track/v2/getquota', 'k');
    expect(sent).toBeUndefined();
    expect((req.socket as unknown as { destroyed: boolean }).destroyed).toBe(true);
    expect(p.counters.snapshot()).toMatchObject({ dropped: 1, byOperation: { 'v2/getquota': 1 } });
  });

  it('an injected failure: 500 or 503, and the account never sees the request', async () => {
    const p = pipeline({ failureRate: 1 });
    const { sent } = await p.send('/track/v2/getquota', 'k');
    expect([500, 503]).toContain(sent?.status);
    expect(sent?.body.data.errors[0].code).toBe(-18010003);
    expect(p.counters.snapshot()).toMatchObject({ injected: { failures: 1 }, byOperation: {} });
  });
});
