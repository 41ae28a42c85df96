// The client over real HTTP, against a small node:http server on 127.0.0.1 whose answers each test scripts.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiClient,
  resentAfterAmbiguousFailure,
  type ApiClient,
  type ApiClientOptions,
  type RequestLog,
} from '../../src/api/client.js';
import {
  AnswerTooLargeError,
  AuthenticationError,
  EndpointNotFoundError,
  EnvelopeError,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  ServiceError,
  TimeoutError,
} from '../../src/api/errors.js';
import { createPacer, type Pacer } from '../../src/pacing/pacer.js';
import { UsageError } from '../../src/core/errors.js';
import { fixtureBytes, fixtureJson } from '../fixture-files.js';
import { clock } from '../../src/core/clock.js';
import { testClock } from '../skipping-clock.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkgVersion = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

const KEY = 'SECRETKEY0123456789abcdefSECRETKEY';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string, n: number) => void;

let server: http.Server;
let baseUrl: string;
let handler: Handler;
let seen: Seen[] = [];
const clients: ApiClient[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body, seen.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  server.closeAllConnections();
  seen = [];
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

const OK = { code: 0, data: { accepted: [{ number: 'RR123456789CN', carrier: 3011 }], rejected: [] } };

function client(overrides: Partial<ApiClientOptions> = {}): ApiClient {
  const c = createApiClient({
    baseUrl,
    apiKey: KEY,
    version: 'v2',
    pacer: createPacer({ perSecond: 1000, marginMs: 0 }),
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    env: {},
    ...overrides,
  });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    const e = err as ServiceError;
    // The key never shows, whatever went wrong.
    expect(e.toLine()).not.toContain(KEY);
    expect(e.message).not.toContain(KEY);
    expect(String(e.hint)).not.toContain(KEY);
    expect(String(e.cause ?? '')).not.toContain(KEY);
    return e;
  }
  throw new Error('expected a failure');
}

describe('requests', () => {
  it('POSTs JSON to /track/<version>/<path> with svctoken and user-agent, and returns the envelope', async () => {
    handler = (_req, res) => json(res, 200, OK);
    const body = [{ number: 'RR123456789CN', carrier: 3011 }];
    const env = await client().call('register', body);
    expect(env).toEqual(OK);
    expect(seen).toHaveLength(1);
    const req = seen[0] as Seen;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/track/v2/register');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.svctoken).toBe(KEY);
    expect(req.headers['user-agent']).toBe(`trk/${pkgVersion}`);
    expect(JSON.parse(req.body)).toEqual(body);
  });

  it('uses the v1 casing of paths and trims a trailing slash of the base URL', async () => {
    handler = (_req, res) => json(res, 200, { code: 0, data: { accepted: [], rejected: [] } });
    const c = client({ version: 'v1', baseUrl: `${baseUrl}/` });
    await c.call('retrack', [{ number: 'RR123456789CN' }]);
    await c.call('deletetrack', [{ number: 'RR123456789CN', carrier: 3011 }]);
    expect(seen.map((s) => s.url)).toEqual(['/track/v1/Retrack', '/track/v1/deleteTrack']);
    const v21 = client({ version: 'v2.1' });
    await v21.call('gettracklist', {});
    expect(seen[2]?.url).toBe('/track/v2.1/gettracklist');
  });

  it('refuses an operation the version lacks, without sending', async () => {
    handler = (_req, res) => json(res, 200, OK);
    const c = client({ version: 'v1' });
    await expect(c.call('getquota', [])).rejects.toThrow(UsageError);
    await expect(c.call('getquota', [])).rejects.toThrow('the v1 API has no quota operation');
    expect(seen).toHaveLength(0);
  });

  it('acquires the pacer before every attempt', async () => {
    let acquired = 0;
    const backoffs: number[] = [];
    const pacer: Pacer = {
      acquire: async () => {
        acquired++;
      },
      backoff: (ms) => backoffs.push(ms),
    };
    handler = (_req, res, _b, n) => (n < 3 ? json(res, 429, {}, { 'retry-after': '0' }) : json(res, 200, OK));
    await client({ pacer }).call('register', [{ number: 'RR123456789CN' }]);
    expect(acquired).toBe(3);
    expect(backoffs).toHaveLength(2);
  });

  it('logs every attempt without the key', async () => {
    const logs: RequestLog[] = [];
    const waits: [string, number][] = [];
    handler = (_req, res, _b, n) => (n === 1 ? json(res, 503, {}) : json(res, 200, OK));
    await client({ onRequest: (l) => logs.push(l), onWait: (r, ms) => waits.push([r, ms]) }).call('stoptrack', [
      { number: 'A1234567' },
      { number: 'B1234567' },
    ]);
    expect(logs.map((l) => [l.operation, l.status, l.items, l.attempt])).toEqual([
      ['stoptrack', 503, 2, 1],
      ['stoptrack', 200, 2, 2],
    ]);
    expect(typeof logs[0]?.ms).toBe('number');
    expect(JSON.stringify(logs)).not.toContain(KEY);
    expect(waits.map((w) => w[0])).toEqual(['unavailable']);
  });
});

describe('HTTP status → error class', () => {
  it('401 with the recorded body → AuthenticationError, exit 4, code from data.errors, no retry', async () => {
    const recorded = fixtureJson<unknown>('real-v1/error_response.json');
    handler = (_req, res) => json(res, 401, recorded);
    const e = await failure(client().call('gettracklist', {}));
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.exitCode).toBe(4);
    expect(e.httpStatus).toBe(401);
    expect(e.serviceCode).toBe(-18010002);
    expect(e.delivery).toBe('not-sent');
    expect(e.toLine()).toBe('invalid API key (-18010002): run "trk auth login" or set TRK_API_KEY');
    expect(seen).toHaveLength(1);
  });

  it('401 without a body still says what to do', async () => {
    handler = (_req, res) => {
      res.writeHead(401);
      res.end();
    };
    const e = await failure(client().call('getquota', []));
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.exitCode).toBe(4);
    expect(e.toLine()).toBe('authentication failed (HTTP 401): run "trk auth login" or set TRK_API_KEY');
  });

  it('404 → EndpointNotFoundError suggesting the base URL and version', async () => {
    handler = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    };
    const e = await failure(client({ version: 'v2.1' }).call('gettrackinfo', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(EndpointNotFoundError);
    expect(e.exitCode).toBe(1);
    expect(e.toLine()).toContain('/track/v2.1/gettrackinfo');
    expect(e.toLine()).toContain('base URL');
    expect(e.toLine()).toContain('v2.1');
    expect(seen).toHaveLength(1);
  });

  it('429 with Retry-After → holds the pacer for that long (announced once, by the pacer), then succeeds', async () => {
    const waits: [string, number][] = [];
    const holds: [string, number][] = [];
    const pacer = createPacer({ perSecond: 1000, marginMs: 0, onHold: (ms, reason) => holds.push([reason, ms]) });
    handler = (_req, res, _b, n) => (n === 1 ? json(res, 429, {}, { 'retry-after': '1' }) : json(res, 200, OK));
    const t0 = clock().monotonic();
    const env = await client({ pacer, onWait: (r, ms) => waits.push([r, ms]) }).call('register', [
      { number: 'RR123456789CN' },
    ]);
    expect(env.code).toBe(0);
    expect(seen).toHaveLength(2);
    expect(clock().monotonic() - t0).toBeGreaterThanOrEqual(1000);
    expect(holds).toHaveLength(1);
    expect(holds[0]![0]).toBe('rate-limited');
    expect(waits).toEqual([]);
  });

  it(
    'a Retry-After of a day holds for a minute at most; a one-shot call gives up at once when that passes its ' +
      'deadline',
    async () => {
      const backoffs: number[] = [];
      const pacer: Pacer = { acquire: async () => {}, backoff: (ms) => backoffs.push(ms) };
      handler = (_req, res) => json(res, 429, {}, { 'retry-after': '86400' });
      const skipped = testClock().skippedMs;
      const e = await failure(client({ pacer, timeoutMs: 1000 }).call('getquota', []));
      // Nothing was waited for.
      expect(testClock().skippedMs).toBe(skipped);
      expect(e).toBeInstanceOf(RateLimitError);
      expect(backoffs).toEqual([60_000]);
      expect(seen).toHaveLength(1);
      expect(e.toLine()).toContain('--timeout deadline');
    },
  );

  it('429 every time → RateLimitError after maxAttempts, even for register', async () => {
    handler = (_req, res) => json(res, 429, {}, { 'retry-after': '0' });
    const e = await failure(client().call('register', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e.exitCode).toBe(1);
    expect(e.delivery).toBe('not-sent');
    expect(e.attempts).toBe(3);
    expect(e.toLine()).toContain('after 3 attempts');
    expect(seen).toHaveLength(3);
  });

  it('500 → ServerError: never re-sent for register, re-sent for gettracklist', async () => {
    handler = (_req, res) => json(res, 500, {});
    const e = await failure(client().call('register', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.delivery).toBe('unknown');
    expect(e.exitCode).toBe(1);
    expect(seen).toHaveLength(1);
    seen = [];
    const e2 = await failure(client().call('gettracklist', {}));
    expect(e2).toBeInstanceOf(ServerError);
    expect(seen).toHaveLength(3);
  });

  it('503 → re-sent for every operation', async () => {
    handler = (_req, res, _b, n) => (n < 3 ? json(res, 503, {}) : json(res, 200, OK));
    const env = await client().call('register', [{ number: 'RR123456789CN' }]);
    expect(env.code).toBe(0);
    expect(seen).toHaveLength(3);
  });

  it('retry: false makes one attempt only', async () => {
    handler = (_req, res) => json(res, 503, {});
    const e = await failure(client().call('gettracklist', {}, { retry: false }));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.delivery).toBe('not-sent');
    expect(seen).toHaveLength(1);
  });
});

describe('envelope', () => {
  it('rejected items are data, not errors', async () => {
    const mixed = fixtureBytes('doc-v2/register_mixed.json').toString('utf8');
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(mixed);
    };
    const env = await client().call('register', [{ number: 'x' }]);
    expect(env).toEqual(JSON.parse(mixed));
  });

  it('code != 0 with data.errors → EnvelopeError with the code of data.errors[0]', async () => {
    handler = (_req, res) =>
      json(res, 200, { code: -18010013, data: { errors: [{ code: -18010014, message: 'Too many numbers.' }] } });
    const e = await failure(client().call('stoptrack', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(EnvelopeError);
    expect(e.serviceCode).toBe(-18010014);
    expect(e.delivery).toBe('processed');
    expect(e.exitCode).toBe(1);
    expect(e.toLine()).toBe('too many numbers in request (-18010014): send at most 40 items per request');
    expect(seen).toHaveLength(1);
  });

  it('code 0 but data.errors → EnvelopeError; a code without errors → that code', async () => {
    handler = (_req, res, _b, n) =>
      n === 1
        ? json(res, 200, {
            code: 0,
            data: { errors: [{ code: -18010010, message: 'The data `number` is required.' }] },
          })
        : json(res, 200, { code: -18019908, data: null });
    const e = await failure(client().call('push', [{}]));
    expect(e).toBeInstanceOf(EnvelopeError);
    expect(e.serviceCode).toBe(-18010010);
    expect(e.message).toBe('required data missing (-18010010: The data `number` is required.)');
    const e2 = await failure(client().call('push', [{}]));
    expect(e2.serviceCode).toBe(-18019908);
    expect(e2.toLine()).toBe('quota exhausted (-18019908): buy more quota in the console');
  });

  it('an authentication code in a 200 envelope → AuthenticationError, exit 4', async () => {
    handler = (_req, res) =>
      json(res, 200, { code: -18010001, data: { errors: [{ code: -18010001, message: 'IP' }] } });
    const e = await failure(client().call('gettracklist', {}));
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.exitCode).toBe(4);
    expect(e.message).toBe('IP address not in the whitelist (-18010001)');
    expect(seen).toHaveLength(1);
  });

  it(
    'a body that is not JSON → InvalidResponseError, delivery unknown; a read is asked again, ' + 'register is not',
    async () => {
      handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html>captive portal</html>');
      };
      const e = await failure(client().call('gettracklist', {}));
      expect(e).toBeInstanceOf(InvalidResponseError);
      expect(e.delivery).toBe('unknown');
      expect(e.message).toContain('not JSON');
      expect(e.message).toContain('text/html');
      expect(seen).toHaveLength(3);
      seen = [];
      const w = await failure(client().call('register', [{ number: 'RR123456789CN' }]));
      expect(w).toBeInstanceOf(InvalidResponseError);
      expect(w.toLine()).toContain('may have been processed');
      expect(seen).toHaveLength(1);
    },
  );

  it('a truncated answer to a read is asked for again', async () => {
    const text = JSON.stringify(OK);
    handler = (_req, res, _b, n) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(n === 1 ? text.slice(0, 20) : text);
    };
    const env = await client().call('gettrackinfo', [{ number: 'RR123456789CN' }]);
    expect(env).toEqual(OK);
    expect(seen).toHaveLength(2);
  });

  it('JSON that is not an envelope → InvalidResponseError', async () => {
    handler = (_req, res) => json(res, 200, [1, 2]);
    const e = await failure(client().call('gettracklist', {}));
    expect(e).toBeInstanceOf(InvalidResponseError);
  });
});

describe('connection failures', () => {
  it('timeout → TimeoutError, delivery unknown; register sent once, gettrackinfo again', async () => {
    handler = () => {
      /* never answers */
    };
    const e = await failure(client({ timeoutMs: 150 }).call('register', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.delivery).toBe('unknown');
    expect(e.exitCode).toBe(1);
    expect(e.message).toContain('150 ms');
    expect(seen).toHaveLength(1);
    seen = [];
    const e2 = await failure(
      client({ timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 1 } }).call('gettrackinfo', []),
    );
    expect(e2).toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(2);
  });

  it('connection dropped after the request → delivery unknown; register is not re-sent', async () => {
    handler = (req) => req.socket.destroy();
    const e = await failure(client().call('register', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.delivery).toBe('unknown');
    expect(e.exitCode).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it('connection dropped after the request → gettracklist is re-sent', async () => {
    handler = (req, res, _b, n) =>
      n === 1 ? req.socket.destroy() : json(res, 200, { code: 0, data: { accepted: [] } });
    const env = await client().call('gettracklist', { page_no: 1 });
    expect(env.code).toBe(0);
    expect(seen).toHaveLength(2);
    expect(resentAfterAmbiguousFailure(env)).toBe(true);
  });

  it('a non-charging write is re-sent after a dropped connection, and the answer is marked', async () => {
    handler = (req, res, _b, n) => (n === 1 ? req.socket.destroy() : json(res, 200, OK));
    const env = await client().call('stoptrack', [{ number: 'RR123456789CN' }]);
    expect(seen).toHaveLength(2);
    expect(resentAfterAmbiguousFailure(env)).toBe(true);
    handler = (_req, res) => json(res, 200, OK);
    const plain = await client().call('stoptrack', [{ number: 'RR123456789CN' }]);
    expect(resentAfterAmbiguousFailure(plain)).toBe(false);
  });

  it('connection refused → NetworkError not-sent, retried even for register', async () => {
    // Port 1: no test can listen there (a port closed after listening could be taken by another test's server).
    const port = 1;
    const logs: RequestLog[] = [];
    const e = await failure(
      client({ baseUrl: `http://127.0.0.1:${port}`, onRequest: (l) => logs.push(l) }).call('register', [
        { number: 'RR123456789CN' },
      ]),
    );
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.delivery).toBe('not-sent');
    expect((e as NetworkError).reason).toBe('ECONNREFUSED');
    expect(e.toLine()).toContain(`cannot reach 127.0.0.1:${port}`);
    expect(logs.map((l) => l.status)).toEqual(['error', 'error', 'error']);
  });

  it('an ambiguous attempt keeps the final error ambiguous', async () => {
    handler = (req, res, _b, n) => (n === 1 ? req.socket.destroy() : json(res, 503, {}));
    const e = await failure(client().call('deletetrack', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(ServerError);
    expect(e.delivery).toBe('unknown');
    expect(seen).toHaveLength(3);
  });

  it('abort by the caller → RequestAbortedError, exit 130', async () => {
    const controller = new AbortController();
    // Aborted once the request has reached the service, which never answers.
    handler = () => controller.abort();
    const pending = client().call('gettracklist', {}, { signal: controller.signal });
    const e = await failure(pending);
    expect(e).toBeInstanceOf(RequestAbortedError);
    expect(e.exitCode).toBe(130);
    expect(e.delivery).toBe('unknown');
  });

  it('refuses a key that cannot travel in a header, without echoing it', () => {
    expect(() => createApiClient({ baseUrl, apiKey: 'abc def\n', version: 'v2' })).toThrow(/cannot be sent/);
    try {
      createApiClient({ baseUrl, apiKey: 'abc def\n', version: 'v2' });
    } catch (err) {
      expect((err as Error).message).not.toContain('abc def');
    }
  });

  it('goes through HTTP_PROXY (tunnel refused → not-sent), but never for loopback', async () => {
    const connects: string[] = [];
    const onConnect = (req: http.IncomingMessage, socket: import('node:stream').Duplex) => {
      connects.push(req.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    };
    server.on('connect', onConnect);
    try {
      const proxied = client({
        baseUrl: 'http://service.invalid',
        env: { HTTP_PROXY: baseUrl },
        retry: { maxAttempts: 1 },
      });
      const e = await failure(proxied.call('gettracklist', {}));
      expect(e).toBeInstanceOf(NetworkError);
      expect(e.delivery).toBe('not-sent');
      expect(connects).toEqual(['service.invalid:80']);
      // The same proxy setting leaves 127.0.0.1 alone.
      handler = (_req, res) => json(res, 200, OK);
      const direct = client({ env: { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' } });
      expect((await direct.call('gettracklist', {})).code).toBe(0);
    } finally {
      server.off('connect', onConnect);
    }
  });
});

describe('answers of the wrong shape or size, and the deadline', () => {
  it(
    'an envelope of the wrong shape → InvalidResponseError naming the field; a read is asked again, a charging ' +
      'write is not',
    async () => {
      const bad = [
        { code: 0, data: { accepted: 'x', rejected: [] } },
        { code: 0, data: { accepted: 5, rejected: [] } },
        { code: 0, data: { accepted: [], rejected: [null] } },
      ];
      for (const body of bad) {
        seen = [];
        handler = (_req, res) => json(res, 200, body);
        const e = await failure(client().call('register', [{ number: 'RR123456789CN' }]));
        expect(e).toBeInstanceOf(InvalidResponseError);
        expect(e.delivery).toBe('unknown');
        expect(e.message).toMatch(/data\.(accepted|rejected)/);
        expect(seen).toHaveLength(1);
      }
      seen = [];
      handler = (_req, res, _b, n) =>
        json(res, 200, n === 1 ? { code: 0, data: null } : fixtureJson('doc-v2/getquota.json'));
      const env = await client().call('getquota', []);
      expect(env.data?.quota_remain).toBe(1098);
      expect(seen).toHaveLength(2);
    },
  );

  it('an announced body over the limit is not read: AnswerTooLargeError, delivery unknown, not retried', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50_000) });
      res.write('{"code":0,');
      // The rest never comes: trk must not wait for it.
    };
    const e = await failure(client({ maxAnswerBytes: 10_000 }).call('gettracklist', {}));
    expect(e).toBeInstanceOf(AnswerTooLargeError);
    expect(e.delivery).toBe('unknown');
    expect(e.message).toContain('larger than 10 KB');
    expect(seen).toHaveLength(1);
  });

  it('an endless body is cut at the limit, not read to the end', async () => {
    let written = 0;
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.write('{"code":0,"data":');
      pump();
    };
    const e = await failure(client({ maxAnswerBytes: 256 * 1024 }).call('stoptrack', [{ number: 'RR123456789CN' }]));
    expect(e).toBeInstanceOf(AnswerTooLargeError);
    expect(e.toLine()).toContain('may have been processed');
    // Socket buffers let the server get ahead a little, never all the way.
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('a hung service: each attempt times out, and the call gives up at its deadline naming --timeout', async () => {
    handler = () => {
      /* never answers */
    };
    const skipped = testClock().skippedMs;
    const e = await failure(
      client({ timeoutMs: 200, deadlineMs: 500, retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 5 } }).call(
        'gettracklist',
        {},
      ),
    );
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.toLine()).toContain('--timeout');
    // The waits between attempts were the policy's few milliseconds, not more.
    expect(testClock().skippedMs - skipped).toBeLessThan(50);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.length).toBeLessThanOrEqual(3);
  });

  it("a pacer's own failure is reported as it is, not as an interruption", async () => {
    const broken: Pacer = {
      acquire: async () => {
        throw new UsageError('the budget file is broken');
      },
      backoff: () => {},
    };
    const err = await client({ pacer: broken })
      .call('gettracklist', {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err).not.toBeInstanceOf(RequestAbortedError);
    expect(seen).toHaveLength(0);
  });
});
