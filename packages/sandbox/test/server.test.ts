// The transport over real HTTP on 127.0.0.1: routing, authentication, content type, malformed bodies, the
// rate limit and every injected fault. Bodies are the account's business; these tests only use getquota
// and register to see whether a request reached the account.

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_VERSIONS } from '@trk/service/vocabulary.js';
import { OPERATIONS, operationPath } from '@trk/service/operations/index.js';
import { type RunningSandbox, SANDBOX_KEY } from '../src/http/server.js';
import { call, register, sandboxStarter } from './http.js';
import { fixtureJson } from '../../../test/fixture-files.js';

const START = Date.UTC(2026, 5, 1, 8, 0, 0);

const sandbox = sandboxStarter(START);

const quota = async (s: RunningSandbox) => {
  const a = await call(s.url, '/track/v2/getquota', { key: s.key });
  expect(a.status).toBe(200);
  return a.json.data.quota_used as number;
};

describe('listening', () => {
  it('serves on 127.0.0.1 at a free port with the documented default key', async () => {
    const s = await sandbox();
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
    expect(s.port).toBeGreaterThan(0);
    expect(s.key).toBe(SANDBOX_KEY);
    expect(SANDBOX_KEY).toBe('sandbox-key');
  });

  it('answers JSON with a length, on a connection that stays open', async () => {
    const s = await sandbox();
    const a = await call(s.url, '/track/v2/getquota', { key: s.key });
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.text));
    expect(a.headers.connection).not.toBe('close');
  });
});

describe('request log', () => {
  it('reports each API request with its status, a lost answer as dropped, control requests not', async () => {
    const logs: { method: string; path: string; status: number | string }[] = [];
    const s = await sandbox({ onRequest: ({ method, path: p, status }) => logs.push({ method, path: p, status }) });
    await call(s.url, '/track/v2/getquota', { key: s.key });
    await call(s.url, '/track/v2/nothing', { key: s.key });
    await call(s.url, '/__sandbox/state', { method: 'GET' });
    s.setFaults({ dropRate: 1 });
    await expect(call(s.url, '/track/v2/getquota', { key: s.key })).rejects.toThrow();
    await vi.waitFor(() => expect(logs).toHaveLength(3));
    expect(logs).toEqual([
      { method: 'POST', path: '/track/v2/getquota', status: 200 },
      { method: 'POST', path: '/track/v2/nothing', status: 404 },
      { method: 'POST', path: '/track/v2/getquota', status: 'dropped' },
    ]);
  });
});

describe('routing', () => {
  let s: RunningSandbox;
  beforeAll(async () => {
    s = await sandbox();
  });

  it('serves every operation of every version at its own path', async () => {
    for (const version of API_VERSIONS) {
      for (const op of OPERATIONS) {
        const p = operationPath(version, op);
        if (p === undefined) continue;
        const body = op === 'gettracklist' ? '{}' : '[]';
        const a = await call(s.url, `/track/${version}/${p}`, { key: s.key, body });
        expect(a.status, `${version}/${p}`).toBe(200);
      }
    }
  });

  it.each([
    '/track/v1/retrack', // v1 spells it Retrack
    '/track/v1/deletetrack', // v1 spells it deleteTrack
    '/track/v2/Retrack',
    '/track/v2/deleteTrack',
    '/track/v2.1/Retrack',
    '/track/v1/getquota', // v1 has none
    '/track/v1/getRealTimeTrackInfo',
    '/track/v2/getrealtimetrackinfo',
    '/track/v2/Register',
    '/track/v2/register/',
    '/track/v3/register',
    '/track/register',
    '/',
  ])('answers 404 to %s, key or not', async (p) => {
    const a = await call(s.url, p, { key: s.key });
    expect(a.status).toBe(404);
    expect(a.json.code).toBe(404);
    expect((await call(s.url, p)).status).toBe(404);
  });

  it('serves the v1 casing', async () => {
    for (const p of ['/track/v1/Retrack', '/track/v1/deleteTrack']) {
      expect((await call(s.url, p, { key: s.key })).status).toBe(200);
    }
  });

  it('answers 404 to other methods and ignores a query string', async () => {
    expect((await call(s.url, '/track/v2/getquota', { key: s.key, method: 'GET' })).status).toBe(404);
    expect((await call(s.url, '/track/v2/getquota?x=1', { key: s.key })).status).toBe(200);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const big = `[${'"x",'.repeat(270_000)}"x"]`;
    expect(Buffer.byteLength(big)).toBeGreaterThan(1024 * 1024);
    const a = await call(s.url, '/track/v2/register', { key: s.key, body: big });
    expect(a.status).toBe(413);
    expect(a.json.data.errors[0].code).toBe(-18010013);
    // The body was read to the end, so the connection serves the next request.
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
  });
});

describe('authentication', () => {
  it('answers a missing or wrong key exactly as the live service does (fixture)', async () => {
    const s = await sandbox();
    const fixture = fixtureJson('real-v1/error_response.json');
    for (const key of [undefined, 'wrong-key', SANDBOX_KEY.toUpperCase(), '']) {
      for (const version of API_VERSIONS) {
        const a = await call(s.url, `/track/${version}/register`, { key, body: '[]' });
        expect(a.status).toBe(401);
        expect(a.json).toEqual(fixture);
      }
    }
  });

  it('accepts the key it was started with, and a key changed in the settings at once', async () => {
    const s = await sandbox({ key: 'my-own-key' });
    expect(s.key).toBe('my-own-key');
    expect((await call(s.url, '/track/v2/getquota', { key: SANDBOX_KEY })).status).toBe(401);
    expect((await call(s.url, '/track/v2/getquota', { key: 'my-own-key' })).status).toBe(200);
    s.setSettings({ key: 'next-key' });
    expect((await call(s.url, '/track/v2/getquota', { key: 'my-own-key' })).status).toBe(401);
    expect((await call(s.url, '/track/v2/getquota', { key: 'next-key' })).status).toBe(200);
  });

  it('refuses a caller outside the whitelist with -18010001', async () => {
    const s = await sandbox({ ipAllowList: ['10.0.0.0/8', '192.168.1.7'] });
    const a = await call(s.url, '/track/v2/getquota', { key: s.key });
    expect(a.status).toBe(401);
    expect(a.json).toEqual({ code: 401, data: { errors: [{ code: -18010001, message: expect.any(String) }] } });
    s.setSettings({ ipAllowList: ['10.0.0.0/8', '127.0.0.0/8'] });
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    // A wrong key is still a wrong key, whatever the address.
    s.setSettings({ ipAllowList: ['10.0.0.1'] });
    expect((await call(s.url, '/track/v2/getquota', { key: 'nope' })).json.data.errors[0].code).toBe(-18010002);
  });

  it('refuses a disabled account with -18010004', async () => {
    const s = await sandbox({ disabled: true });
    const a = await call(s.url, '/track/v1/register', { key: s.key });
    expect(a.status).toBe(401);
    expect(a.json.data.errors[0].code).toBe(-18010004);
    s.setSettings({ disabled: false });
    expect((await call(s.url, '/track/v1/register', { key: s.key })).status).toBe(200);
  });
});

describe('request bodies', () => {
  let s: RunningSandbox;
  beforeAll(async () => {
    s = await sandbox();
  });

  it.each([null, 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonp'])(
    'answers Content-Type %s with -18010013 and does not process the request',
    async (contentType) => {
      const before = await quota(s);
      const a = await call(s.url, '/track/v2/register', {
        key: s.key,
        contentType,
        body: JSON.stringify([{ number: 'RR123456789CN', carrier: 3011 }]),
      });
      expect(a.status).toBe(200);
      expect(a.json.code).not.toBe(0);
      expect(a.json.data.errors).toEqual([{ code: -18010013, message: expect.any(String) }]);
      expect(a.json.data.accepted).toBeUndefined();
      expect(await quota(s)).toBe(before);
    },
  );

  it('hands an empty body to the account as no body: getquota takes it, register refuses it', async () => {
    expect((await call(s.url, '/track/v2/getquota', { key: s.key, body: '' })).json.code).toBe(0);
    const a = await call(s.url, '/track/v2/register', { key: s.key, body: '' });
    expect(a.status).toBe(200);
    expect(a.json.data.errors[0].code).toBe(-18010013);
  });

  it('accepts application/json with parameters and in any case', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON']) {
      const a = await call(s.url, '/track/v2/getquota', { key: s.key, contentType });
      expect(a.json.code).toBe(0);
    }
  });

  it.each(['[{"number": "RR1234567', 'not json', '\uFEFF[]', '{"a":1}x'])(
    'answers body %j with -18010013',
    async (body) => {
      const a = await call(s.url, '/track/v2/register', { key: s.key, body });
      expect(a.status).toBe(200);
      expect(a.json.data.errors[0].code).toBe(-18010013);
    },
  );
});

describe('rate limit', () => {
  /** The emulator's real time, standing still until a test moves it: requests arrive when the test says. */
  const stoppedTime = () => {
    const time = { ms: 0, now: () => START + time.ms, monotonic: () => time.ms };
    return time;
  };

  it('answers the 4th request in a second 429 with Retry-After and a JSON body', async () => {
    const s = await sandbox({ rateLimit: 3, time: stoppedTime() });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await call(s.url, '/track/v2/getquota', { key: s.key }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    const refused = answers[3]!;
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json).toEqual({
      code: 429,
      data: { errors: [{ code: 429, message: expect.stringMatching(/3 per second/) }] },
    });
    const state = s.state();
    expect(state.requests.byStatus).toEqual({ 200: 3, 429: 1 });
    expect(state.requests.rateLimited).toBe(1);
    // Refused requests never reached the account.
    expect(state.requests.byOperation).toEqual({ 'v2/getquota': 3 });
  });

  it('lets requests through when spaced over the window', async () => {
    const time = stoppedTime();
    const s = await sandbox({ rateLimit: 3, time });
    for (let i = 0; i < 3; i++) expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    time.ms += 1050;
    for (let i = 0; i < 3; i++) expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    // ...and only then: the window counts again from there.
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(429);
  });

  it('does not count unauthenticated requests against the key', async () => {
    const s = await sandbox({ rateLimit: 2, time: stoppedTime() });
    for (let i = 0; i < 5; i++) expect((await call(s.url, '/track/v2/getquota', { key: 'x' })).status).toBe(401);
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(429);
  });
});

describe('faults', () => {
  let s: RunningSandbox;
  beforeAll(async () => {
    s = await sandbox({ seed: 7 });
  });
  afterEach(() => {
    s.setFaults({
      latencyMs: 0,
      jitterMs: 0,
      failureRate: 0,
      dropRate: 0,
      burst429: 0,
      burst429EveryMs: 0,
      retryAfter: true,
      pageOverlap: 0,
    });
  });

  it('adds latency before answering', async () => {
    s.setFaults({ latencyMs: 150, jitterMs: 20 });
    // Real time: injected latency stands for the network, waited in the machine's time.
    const started = Date.now();
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('answers 500 and 503 with -18010003 without processing the request', async () => {
    s.setFaults({ failureRate: 1 });
    const before = s.state().requests;
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const a = await register(s, `FAIL${i}0000`);
      statuses.add(a.status);
      expect(a.json).toEqual({ code: a.status, data: { errors: [{ code: -18010003, message: expect.any(String) }] } });
    }
    expect(statuses).toEqual(new Set([500, 503]));
    const after = s.state().requests;
    expect(after.injected.failures - before.injected.failures).toBe(12);
    expect(after.byOperation['v2/register'] ?? 0).toBe(before.byOperation['v2/register'] ?? 0);
  });

  it('loses the answer of a processed request: the client sees the connection drop', async () => {
    s.setFaults({ dropRate: 1 });
    await expect(register(s, 'RR900000001CN')).rejects.toThrow();
    s.setFaults({ dropRate: 0 });
    // The account did the work: the same number is now already registered.
    const again = await register(s, 'RR900000001CN');
    expect(again.json.data.accepted).toEqual([]);
    expect(again.json.data.rejected[0].error.code).toBe(-18019901);
    expect(s.state().requests.dropped).toBe(1);
    expect(s.state().requests.byOperation['v2/register']).toBeGreaterThanOrEqual(2);
  });

  it('answers 429 to the next N requests, with or without Retry-After', async () => {
    s.setFaults({ burst429: 2 });
    const a = await call(s.url, '/track/v2/getquota', { key: s.key });
    expect(a.status).toBe(429);
    expect(a.headers['retry-after']).toBe('1');
    s.setFaults({ retryAfter: false });
    const b = await call(s.url, '/track/v2/getquota', { key: s.key });
    expect(b.status).toBe(429);
    expect(b.headers['retry-after']).toBeUndefined();
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    expect(s.state().faults.burst429).toBe(0);
  });

  it('runs periodic 429 bursts', async () => {
    s.setFaults({ burst429EveryMs: 60_000, burst429ForMs: 30_000 });
    const a = await call(s.url, '/track/v2/getquota', { key: s.key });
    expect(a.status).toBe(429);
    expect(Number(a.headers['retry-after'])).toBeGreaterThanOrEqual(29);
    s.setFaults({ burst429EveryMs: 0 });
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
  });

  it('repeats records of the page before at the start of a list page, and logs it', async () => {
    for (let i = 0; i < 41; i++) expect((await register(s, `RR9100${String(i).padStart(5, '0')}CN`)).status).toBe(200);
    s.setFaults({ pageOverlap: 2 });
    const page = async (n: number) =>
      (await call(s.url, '/track/v2/gettracklist', { key: s.key, body: JSON.stringify({ page_no: n }) })).json;
    const [first, second] = [await page(1), await page(2)];
    expect(second.data.accepted.slice(0, 2)).toEqual(first.data.accepted.slice(38));
    const log = await call(s.url, '/__sandbox/requests', { method: 'GET' });
    expect(log.json.requests.at(-1)).toMatchObject({ operation: 'gettracklist', faults: ['page overlap 2'] });
  });

  it('refuses unknown or impossible faults', () => {
    expect(() => s.setFaults({ dropRate: 2 })).toThrow(/dropRate/);
    expect(() => s.setFaults({ nope: 1 } as never)).toThrow(/unknown fault/);
  });
});
