import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { createHttpTransport } from '../../src/api/transport-http.js';
import { createUndiciTransport } from '../../src/api/transport-undici.js';
import {
  createTransport,
  proxyMayApply,
  proxySettings,
  type Transport,
  type TransportRequest,
} from '../../src/api/transport.js';

let server: Server;
let base: string;
/** Requests in progress on the server: the transport must overlap them to see more than one. */
let open = 0;
let mostOpen = 0;
/** Answers of /slow waiting to be sent: they go once three wait together, as overlapping requests do. */
const slow = new Set<() => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    open += 1;
    mostOpen = Math.max(mostOpen, open);
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const done = () => {
        open -= 1;
      };
      if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('x'.repeat(5000), done);
      } else if (req.url === '/endless') {
        // No length announced: the limit is met while reading.
        res.writeHead(200);
        const timer = setInterval(() => res.write('y'.repeat(1000)), 1);
        res.on('close', () => {
          clearInterval(timer);
          done();
        });
      } else if (req.url === '/slow') {
        const answer = () => res.end(JSON.stringify({ echo: body }), done);
        slow.add(answer);
        res.on('close', () => {
          // Given up by its client (aborted): no longer in progress.
          if (slow.delete(answer)) done();
        });
        if (slow.size >= 3) {
          for (const a of slow) a();
          slow.clear();
        }
      } else {
        res.writeHead(201, { 'x-test': 'yes' });
        res.end(`\ufeff${JSON.stringify({ echo: body })}`, done);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request = (path: string, extra: Partial<TransportRequest> = {}): TransportRequest => ({
  url: `${base}${path}`,
  headers: { 'content-type': 'application/json' },
  body: '{"a":1}',
  signal: AbortSignal.timeout(5000),
  maxAnswerBytes: 1000,
  ...extra,
});

describe.each([
  ['node:http', () => createHttpTransport()],
  ['undici', () => createUndiciTransport(undefined)],
] as const)('%s transport', (_name, make: () => Transport) => {
  it('posts the body and returns status, headers and the text without a BOM; onSent once written', async () => {
    const t = make();
    let sent = 0;
    const a = await t.send(request('/echo', { onSent: () => (sent += 1) }));
    await t.close();
    expect(a.status).toBe(201);
    expect(a.headers['x-test']).toBe('yes');
    expect(a.text).toBe('{"echo":"{\\"a\\":1}"}');
    expect(sent).toBe(1);
  });

  it('an answer longer than the limit, announced or counted, is cut off: text undefined', async () => {
    const t = make();
    expect((await t.send(request('/big'))).text).toBeUndefined();
    expect((await t.send(request('/endless'))).text).toBeUndefined();
    await t.close();
  });

  it('a refused connection fails with its code; an abort with the signal reason', async () => {
    const t = make();
    const refused = await t.send(request('/x', { url: 'http://127.0.0.1:9/x' })).catch((e: unknown) => e);
    expect((refused as { code?: string }).code).toBe('ECONNREFUSED');
    const controller = new AbortController();
    const pending = t.send(request('/slow', { signal: controller.signal }));
    controller.abort(new Error('stop here'));
    await expect(pending).rejects.toThrow('stop here');
    await t.close();
  });

  it('a signal aborted before the start: rejected with its reason, nothing left to crash the process', async () => {
    const t = make();
    const unhandled: unknown[] = [];
    const onError = (err: unknown) => unhandled.push(err);
    process.on('uncaughtException', onError);
    try {
      const controller = new AbortController();
      controller.abort(new Error('stopped before'));
      await expect(t.send(request('/slow', { signal: controller.signal }))).rejects.toThrow('stopped before');
      // A destroyed request reports its socket hang-up on the next turns of the loop.
      await clock().sleep(50);
    } finally {
      process.off('uncaughtException', onError);
      await t.close();
    }
    expect(unhandled).toEqual([]);
  });
});

describe('choosing the transport', () => {
  it('overlapping requests are all answered (the second and later go through undici)', async () => {
    const t = createTransport(base, {});
    mostOpen = 0;
    const answers = await Promise.all([1, 2, 3].map((n) => t.send(request('/slow', { body: String(n) }))));
    await t.close();
    expect(answers.map((a) => a.text)).toEqual(['{"echo":"1"}', '{"echo":"2"}', '{"echo":"3"}']);
    expect(mostOpen).toBe(3);
  });

  it('a proxy applies to its scheme, HTTPS falling back on the HTTP proxy; NO_PROXY=* turns them off', () => {
    expect(proxyMayApply('https://api.test', proxySettings({}))).toBe(false);
    expect(proxyMayApply('https://api.test', proxySettings({ HTTP_PROXY: 'http://proxy:3128' }))).toBe(true);
    expect(proxyMayApply('http://api.test', proxySettings({ https_proxy: 'http://proxy:3128' }))).toBe(false);
    expect(proxyMayApply('https://api.test', proxySettings({ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '*' }))).toBe(
      false,
    );
    expect(proxySettings({ NO_PROXY: 'corp.test' }).noProxy).toBe('corp.test,localhost,127.0.0.1,[::1]');
  });
});
