// Watching what a script did: the request log over HTTP on 127.0.0.1 (GET /__sandbox/requests, a bounded ring
// of recent requests), its entries per outcome and injected fault, and the line `trk sandbox start --log` prints.

import { describe, expect, it } from 'vitest';
import { formatRequestLine, RequestLog, type SandboxRequestLog } from '../src/http/request-log.js';
import { call, control, sandboxStarter } from './http.js';

const START = Date.UTC(2026, 5, 1, 8, 0, 0);
const sandbox = sandboxStarter(START);

async function requests(url: string): Promise<SandboxRequestLog[]> {
  const a = await control(url, 'requests');
  expect(a.status).toBe(200);
  return a.json.requests;
}

describe('GET /__sandbox/requests', () => {
  it('lists each request with simulated time, version, operation, items and outcome, oldest first', async () => {
    const s = await sandbox();
    await call(s.url, '/track/v2/register', {
      key: s.key,
      body: JSON.stringify([{ number: 'RR100000001CN' }, { number: '12' }]),
    });
    await call(s.url, '/track/v2/register', { key: s.key, body: JSON.stringify([{ number: 'RR100000001CN' }]) });
    await call(s.url, '/track/v2.2/gettracklist', { key: s.key, body: '{}' });
    await call(s.url, '/track/v2/getquota', { key: 'wrong' });
    await call(s.url, '/track/v2/nothing', { key: s.key });
    await call(s.url, '/track/v2/register', {
      key: s.key,
      body: JSON.stringify(Array.from({ length: 41 }, () => ({ number: 'RR100000001CN' }))),
    });
    await call(s.url, '/asset/carrier/info/country.all.json', { method: 'GET' });
    await control(s.url, 'state'); // the observer is not logged
    const log = await requests(s.url);
    expect(log.map((e) => [e.version, e.operation, e.items, e.status, e.code, e.accepted, e.rejected])).toEqual([
      ['v2', 'register', 2, 200, 0, 1, 1],
      ['v2', 'register', 1, 200, 0, 0, 1],
      ['v2.2', 'gettracklist', 1, 200, 0, 1, null],
      ['v2', 'getquota', 0, 401, -18010002, null, null],
      [null, null, 0, 404, 404, null, null],
      ['v2', 'register', 41, 200, -18010014, null, null],
      [null, null, 0, 200, null, null, null],
    ]);
    expect(log[0]!.rejectedCodes).toEqual({ '-18010012': 1 });
    expect(log[1]!.rejectedCodes).toEqual({ '-18019901': 1 });
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const e of log) expect(e.time).toBe(new Date(START).toISOString());
    expect(log[4]!.path).toBe('/track/v2/nothing');
  });

  it('marks the injected faults', async () => {
    const s = await sandbox({ seed: 1 });
    s.setFaults({ burst429: 1 });
    await call(s.url, '/track/v2/getquota', { key: s.key });
    s.setFaults({ failureRate: 1 });
    await call(s.url, '/track/v2/getquota', { key: s.key });
    s.setFaults({ failureRate: 0, dropRate: 1 });
    await call(s.url, '/track/v2/register', { key: s.key, body: JSON.stringify([{ number: 'RR100000002CN' }]) }).catch(
      () => undefined,
    );
    s.setFaults({ dropRate: 0, latencyMs: 30 });
    await call(s.url, '/track/v2/getquota', { key: s.key });
    const log = await requests(s.url);
    expect(log.map((e) => [e.status, e.faults])).toEqual([
      [429, ['burst 429']],
      [expect.any(Number), [expect.stringMatching(/^failure 50[03]$/)]],
      ['dropped', ['drop']],
      [200, ['latency 30 ms']],
    ]);
    // A dropped answer was still processed: the log says what the client never saw.
    expect(log[2]).toMatchObject({ operation: 'register', code: 0, accepted: 1 });
  });

  it('keeps the latest 500, and forgets them on reset', async () => {
    const s = await sandbox();
    for (let i = 0; i < 505; i++) await call(s.url, '/track/v2/getquota', { key: s.key });
    const log = await requests(s.url);
    expect(log).toHaveLength(500);
    expect(log[0]!.seq).toBe(6);
    expect(log.at(-1)!.seq).toBe(505);
    await control(s.url, 'reset', {});
    expect(await requests(s.url)).toEqual([]);
  });

  it('hands each entry to onRequest as it is logged', async () => {
    const seen: SandboxRequestLog[] = [];
    const s = await sandbox({ onRequest: (e) => seen.push(e) });
    await call(s.url, '/track/v2/getquota', { key: s.key });
    await control(s.url, 'state');
    expect(seen.map((e) => [e.operation, e.status])).toEqual([['getquota', 200]]);
  });
});

describe('the --log line', () => {
  const entry = (over: Partial<SandboxRequestLog>): SandboxRequestLog => ({
    seq: 1,
    time: '2026-06-01T08:00:05.000Z',
    method: 'POST',
    path: '/track/v2/register',
    version: 'v2',
    operation: 'register',
    items: 3,
    status: 200,
    code: 0,
    accepted: 2,
    rejected: 1,
    rejectedCodes: { '-18019901': 1 },
    faults: [],
    ms: 4,
    ...over,
  });

  it.each([
    [entry({}), '2026-06-01T08:00:05Z v2 register 3 items → 200 ok: 2 accepted, 1 rejected (-18019901) 4 ms'],
    [
      entry({ rejected: 3, accepted: 0, rejectedCodes: { '-18019901': 2, '-18010012': 1 } }),
      '2026-06-01T08:00:05Z v2 register 3 items → 200 ok: 0 accepted, 3 rejected (-18019901 ×2, -18010012) 4 ms',
    ],
    [
      entry({ items: 41, code: -18010014, accepted: null, rejected: null, rejectedCodes: {} }),
      '2026-06-01T08:00:05Z v2 register 41 items → 200 -18010014 4 ms',
    ],
    [
      entry({
        operation: 'getquota',
        items: 0,
        status: 401,
        code: -18010002,
        accepted: null,
        rejected: null,
        rejectedCodes: {},
      }),
      '2026-06-01T08:00:05Z v2 getquota 0 items → 401 -18010002 4 ms',
    ],
    [
      entry({
        operation: 'getquota',
        items: 1,
        status: 429,
        code: 429,
        accepted: null,
        rejected: null,
        rejectedCodes: {},
        faults: ['burst 429'],
      }),
      '2026-06-01T08:00:05Z v2 getquota 1 item → 429 [injected: burst 429] 4 ms',
    ],
    [
      entry({ status: 'dropped', faults: ['drop', 'latency 20 ms'] }),
      '2026-06-01T08:00:05Z v2 register 3 items → answer dropped [injected: drop, latency 20 ms] 4 ms',
    ],
    [
      entry({
        version: null,
        operation: null,
        path: '/track/v2/nothing',
        status: 404,
        code: 404,
        accepted: null,
        rejected: null,
        rejectedCodes: {},
      }),
      '2026-06-01T08:00:05Z POST /track/v2/nothing → 404 4 ms',
    ],
  ])('line %#', (e, line) => {
    expect(formatRequestLine(e)).toBe(line);
  });

  it('the ring drops the oldest beyond its size', () => {
    const ring = new RequestLog(2);
    for (let i = 0; i < 3; i++) ring.add(entry({ seq: ring.nextSeq() }));
    expect(ring.entries().map((e) => e.seq)).toEqual([2, 3]);
  });
});
