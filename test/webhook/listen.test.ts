import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { createTestIO, type TestIO } from '../test-io.js';
import {
  forwardHeaders,
  startListener,
  type Listener,
  type ListenerOptions,
  type ReceivedEvent,
} from '../../src/webhook/listen.js';
import { rawMember } from '../../src/webhook/raw-json.js';
import { headerFrom, headersText, pairedFile, saveNotification } from '../../src/webhook/saved.js';
import { fixtureBytes } from '../fixture-files.js';

const KEY = 'listen-test-key';
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const updated = (number: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'TRACKING_UPDATED',
    data: {
      number,
      carrier: 3011,
      param: null,
      tag: null,
      track_info: {
        latest_status: { status: 'InTransit', sub_status: 'InTransit_Departure', sub_status_descr: null },
        latest_event: {
          time_iso: '2025-02-27T08:15:00+08:00',
          time_utc: '2025-02-27T00:15:00Z',
          description: 'Departed from sorting centre\x1b[31m',
          location: 'Shenzhen',
        },
      },
      ...extra,
    },
  });

const stopped = (number: string) =>
  JSON.stringify({ event: 'TRACKING_STOPPED', data: { number, carrier: 2151, param: null, tag: '' } });

/** The captured v1 push, signed with our key, every other byte unchanged. */
function v1Body(): string {
  const text = fixtureBytes('webhooks/v1-tracking-updated.json').toString('utf8');
  const data = rawMember(text, 'data')!;
  return text.replace(/"sign":"[0-9a-f]+"/, `"sign":"${sha(`TRACKING_UPDATED/${data}/${KEY}`)}"`);
}

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}, method = 'POST') {
  const res = await request(url, { method, body, headers: { 'content-type': 'application/json', ...headers } });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

const signed = (body: string | Buffer, key = KEY) => ({
  sign: sha(Buffer.concat([Buffer.from(body), Buffer.from(`/${key}`)])),
});

/** The listener keeps counters only; tests keep the events they are shown (onEvent). */
type TestListener = Omit<Listener, 'waitFor'> & {
  events: ReceivedEvent[];
  waitFor(count: number): Promise<ReceivedEvent[]>;
};

const open: (TestListener | Server)[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    if ('url' in s) await s.close();
    else await new Promise((r) => s.close(r));
  }
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function listen(opts: Partial<ListenerOptions> = {}): Promise<{ listener: TestListener; io: TestIO }> {
  const io = createTestIO();
  const events: ReceivedEvent[] = [];
  const real = await startListener({
    io,
    key: KEY,
    // Forwards that fail are kept here, not in the system's temporary folder.
    queueRoot: path.join(await tempDir(), 'queue'),
    carrierName: (k) => (k === 3011 ? 'China Post' : k === 21051 ? 'USPS' : undefined),
    now: () => Date.parse('2025-03-01T12:00:00.250Z'),
    ...opts,
    onEvent: (ev) => {
      events.push(ev);
      opts.onEvent?.(ev);
    },
  });
  const listener: TestListener = {
    url: real.url,
    port: real.port,
    counts: real.counts,
    close: () => real.close(),
    summary: () => real.summary(),
    events,
    waitFor: async (count) => {
      await real.waitFor(count);
      return [...events];
    },
  };
  open.push(listener);
  return { listener, io };
}

async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'trk-listen-'));
  dirs.push(d);
  return d;
}

describe('startListener', () => {
  it('listens on 127.0.0.1 at /hook by default', async () => {
    const { listener } = await listen();
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}/hook`);
  });

  it('answers 200 to a genuine v2 notification and prints one line for it', async () => {
    const { listener, io } = await listen();
    const body = updated('RR123456789CN');
    const res = await post(listener.url, body, signed(body));
    expect(res.status).toBe(200);
    const [ev] = await listener.waitFor(1);
    expect(ev).toMatchObject({ verified: true, accepted: true, version: 'v2', status: 200 });
    expect(ev!.raw.equals(Buffer.from(body))).toBe(true);
    const line = io.stdoutText();
    expect(line.split('\n')).toHaveLength(2);
    expect(line).toContain('2025-03-01T12:00:00Z');
    expect(line).toContain('TRACKING_UPDATED');
    expect(line).toContain('RR123456789CN');
    expect(line).toContain('3011 China Post');
    expect(line).toContain('InTransit_Departure');
    expect(line).toContain('Shenzhen: Departed from sorting centre');
    expect(line).not.toContain('\x1b'); // text from the network is cleaned
    expect(io.stderrText()).toBe('');
  });

  it('verifies v1 notifications by the sign in the body (the captured push)', async () => {
    const { listener, io } = await listen();
    const res = await post(listener.url, v1Body());
    expect(res.status).toBe(200);
    const [ev] = await listener.waitFor(1);
    expect(ev).toMatchObject({ verified: true, version: 'v1' });
    expect(io.stdoutText()).toContain(
      '9214490221582737950192  21051 USPS  InTransit  2021-07-17 14:35  ANN ARBOR, MI 48104: Shipping Label Created',
    );
  });

  it('answers 401 to a bad or missing signature, logs it on stderr and prints nothing on stdout', async () => {
    const { listener, io } = await listen();
    const body = updated('RR000000001CN');
    expect((await post(listener.url, body, signed(body, 'wrong-key'))).status).toBe(401);
    expect((await post(listener.url, body)).status).toBe(401);
    expect((await post(listener.url, body.replace('000000001', '000000002'), signed(body))).status).toBe(401);
    const v1 = v1Body().replace('"e":10', '"e":40');
    expect((await post(listener.url, v1)).status).toBe(401);
    const events = await listener.waitFor(4);
    expect(events.map((e) => e.verified)).toEqual([false, false, false, false]);
    expect(io.stdoutText()).toBe('');
    const err = io.stderrText().trim().split('\n');
    expect(err).toHaveLength(4);
    expect(err[0]).toMatch(/401 bad signature \(sign header\): TRACKING_UPDATED RR000000001CN from 127\.0\.0\.1/);
    expect(err[1]).toMatch(/401 no signature/);
    expect(err[3]).toMatch(/401 bad signature \(v1/);
  });

  it('answers 404 to other paths and 405 to other methods', async () => {
    const { listener, io } = await listen({ path: 'incoming/' });
    expect(listener.url.endsWith('/incoming')).toBe(true);
    const base = listener.url.replace(/\/incoming$/, '');
    const body = stopped('AA123456789BR');
    expect((await post(`${base}/hook`, body, signed(body))).status).toBe(404);
    expect((await post(listener.url, '', {}, 'GET')).status).toBe(405);
    expect((await post(`${listener.url}/?x=1`, body, signed(body))).status).toBe(200);
    await listener.waitFor(1);
    expect(listener.events).toHaveLength(1);
    expect(io.stdoutText()).toContain('TRACKING_STOPPED  AA123456789BR  2151');
  });

  it('prints one JSON line per event with --json', async () => {
    const { listener, io } = await listen({ json: true });
    const a = updated('RR123456789CN');
    const b = stopped('AA123456789BR');
    await post(listener.url, a, signed(a));
    await post(listener.url, b, signed(b));
    await post(listener.url, v1Body());
    await listener.waitFor(3);
    const lines = io
      .stdoutText()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      {
        event: 'TRACKING_UPDATED',
        number: 'RR123456789CN',
        carrier: 3011,
        status: 'InTransit',
        sub_status: 'InTransit_Departure',
        latest_event: {
          time: '2025-02-27T08:15:00+08:00',
          location: 'Shenzhen',
          description: 'Departed from sorting centre\x1b[31m',
        },
        received_at: '2025-03-01T12:00:00.250Z',
        verified: true,
      },
      {
        event: 'TRACKING_STOPPED',
        number: 'AA123456789BR',
        carrier: 2151,
        status: null,
        sub_status: null,
        latest_event: null,
        received_at: '2025-03-01T12:00:00.250Z',
        verified: true,
      },
      expect.objectContaining({
        event: 'TRACKING_UPDATED',
        number: '9214490221582737950192',
        carrier: 21051,
        status: 'InTransit',
        verified: true,
      }),
    ]);
  });

  it('saves each accepted body byte for byte with --save, and nothing refused', async () => {
    const dir = path.join(await tempDir(), 'bodies');
    const { listener } = await listen({ saveDir: dir });
    const a = Buffer.from(`${JSON.stringify(JSON.parse(updated('RR123456789CN')), null, 2)}\r\n`);
    const b = Buffer.from(v1Body());
    await post(listener.url, a, signed(a));
    await post(listener.url, a, signed(a)); // same moment, same number: a second file, not an overwrite
    await post(listener.url, b);
    await post(listener.url, a, signed(a, 'bad'));
    const events = await listener.waitFor(4);
    const all = (await readdir(dir)).sort();
    // Each body with its headers beside it.
    expect(all).toEqual([
      '20250301T120000.250Z-TRACKING_UPDATED-9214490221582737950192.headers',
      '20250301T120000.250Z-TRACKING_UPDATED-9214490221582737950192.json',
      '20250301T120000.250Z-TRACKING_UPDATED-RR123456789CN-2.headers',
      '20250301T120000.250Z-TRACKING_UPDATED-RR123456789CN-2.json',
      '20250301T120000.250Z-TRACKING_UPDATED-RR123456789CN.headers',
      '20250301T120000.250Z-TRACKING_UPDATED-RR123456789CN.json',
    ]);
    const files = all.filter((f) => f.endsWith('.json'));
    expect((await readFile(path.join(dir, files[2]!))).equals(a)).toBe(true);
    expect((await readFile(path.join(dir, files[1]!))).equals(a)).toBe(true);
    expect((await readFile(path.join(dir, files[0]!))).equals(b)).toBe(true);
    const headers = await readFile(path.join(dir, all[4]!), 'utf8');
    expect(headers.split('\n')[0]).toMatch(/^POST \/hook HTTP\/1\.1$/);
    expect(headerFrom(headers, 'sign')).toBe(signed(a).sign);
    expect(headerFrom(headers, 'content-length')).toBe(String(a.length));
    expect(events.filter((e) => e.savedTo !== undefined)).toHaveLength(3);
    expect(events.find((e) => !e.verified)!.savedTo).toBeUndefined();
  });

  it(
    '--print: each accepted body whole on stdout, one JSON a line; the event lines on stderr; refused ones ' +
      'nowhere',
    async () => {
      const { listener, io } = await listen({ print: true });
      const oneLine = updated('RR123456789CN');
      const pretty = Buffer.from(`${JSON.stringify(JSON.parse(updated('RR123456785CN')), null, 2)}\n`);
      await post(listener.url, oneLine, signed(oneLine));
      await post(listener.url, pretty, signed(pretty));
      await post(listener.url, oneLine, signed(oneLine, 'bad'));
      await listener.waitFor(3);
      const lines = io.stdoutText().split('\n').filter(Boolean);
      // As received when it was one line; compacted (strings and numbers untouched) when it was not.
      expect(lines).toEqual([oneLine, JSON.stringify(JSON.parse(pretty.toString()))]);
      expect(io.stderrText()).toMatch(/TRACKING_UPDATED {2}RR123456789CN/);
      expect(io.stderrText()).toMatch(/TRACKING_UPDATED {2}RR123456785CN/);
      expect(io.stderrText()).toMatch(/401 bad signature/);
    },
  );

  it('forwards body and headers unchanged with --forward-to and reports the status on stderr', async () => {
    const got: { body: Buffer; headers: IncomingHttpHeaders; raw: string[]; method?: string; url?: string }[] = [];
    const target = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({
          body: Buffer.concat(chunks),
          headers: req.headers,
          raw: req.rawHeaders,
          method: req.method,
          url: req.url,
        });
        res.writeHead(got.length === 1 ? 202 : 500).end();
      });
    });
    open.push(target);
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const forwardTo = `http://127.0.0.1:${(target.address() as AddressInfo).port}/app/webhook?src=trk`;
    const { listener, io } = await listen({ forwardTo });

    const body = Buffer.from(updated('RR123456789CN', { note: 'ünïcødé' }));
    const headers = { ...signed(body), 'User-Agent': 'service/1.0', 'X-Request-Id': 'abc-123' };
    expect((await post(listener.url, body, headers)).status).toBe(200);
    expect((await post(listener.url, v1Body())).status).toBe(200);
    const events = await listener.waitFor(2);

    expect(got).toHaveLength(2);
    expect(got[0]!.method).toBe('POST');
    expect(got[0]!.url).toBe('/app/webhook?src=trk');
    expect(got[0]!.body.equals(body)).toBe(true);
    expect(got[0]!.headers.sign).toBe(headers.sign);
    expect(got[0]!.headers['user-agent']).toBe('service/1.0');
    expect(got[0]!.headers['x-request-id']).toBe('abc-123');
    expect(got[0]!.headers['content-type']).toBe('application/json');
    expect(got[0]!.headers['content-length']).toBe(String(body.length));
    expect(got[0]!.raw).toContain('X-Request-Id'); // case kept
    expect(got[1]!.body.toString()).toBe(v1Body());
    expect(events.map((e) => e.forward)).toEqual([{ status: 202 }, { status: 500 }]);
    const err = io.stderrText();
    expect(err).toMatch(
      /TRACKING_UPDATED RR123456789CN forwarded to http:\/\/127\.0\.0\.1:\d+\/app\/webhook\?src=trk: 202/,
    );
    // A 500 is a forward that failed: kept, and tried again later (test/webhook/forward-queue.test.ts).
    expect(err).toMatch(/TRACKING_UPDATED 9214490221582737950192 not forwarded to .*: 500; again in 1 s/);
  });

  it('answers the sender before the forward completes', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let arrived = false;
    const target = createServer((req, res) => {
      arrived = true;
      req.resume();
      void held.then(() => res.writeHead(200).end());
    });
    open.push(target);
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const { listener } = await listen({ forwardTo: `http://127.0.0.1:${(target.address() as AddressInfo).port}/` });
    const body = stopped('AA123456789BR');
    expect((await post(listener.url, body, signed(body))).status).toBe(200);
    expect(listener.events).toHaveLength(0); // still forwarding
    release();
    const [ev] = await listener.waitFor(1);
    expect(arrived).toBe(true);
    expect(ev!.forward).toEqual({ status: 200 });
  });

  it('reports a forward that fails without changing its answer to the sender', async () => {
    // An app that drops every connection, kept listening: a closed port could be taken by another test's server.
    const dead = createServer((req) => req.socket.destroy());
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    try {
      const { listener, io } = await listen({ forwardTo: `http://127.0.0.1:${port}/` });
      const body = stopped('AA123456789BR');
      expect((await post(listener.url, body, signed(body))).status).toBe(200);
      const [ev] = await listener.waitFor(1);
      expect(ev!.forward?.error).toBeTruthy();
      expect(io.stderrText()).toMatch(/TRACKING_STOPPED AA123456789BR not forwarded to/);
    } finally {
      await new Promise((r) => dead.close(r));
    }
  });

  it('drops hop-by-hop headers and those named in Connection', () => {
    const raw = [
      'Host',
      'x',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      '1',
      'Keep-Alive',
      't=5',
      'Transfer-Encoding',
      'chunked',
      'sign',
      'ab',
      'Content-Length',
      '3',
      'X-A',
      '1',
      'x-a',
      '2',
    ];
    expect(forwardHeaders(raw)).toEqual(['sign', 'ab', 'X-A', '1', 'x-a', '2']);
  });

  it('lets the answer be overridden, e.g. to make the sender retry', async () => {
    let n = 0;
    const { listener, io } = await listen({ respond: () => (++n === 1 ? 500 : undefined) });
    const body = stopped('AA123456789BR');
    expect((await post(listener.url, body, signed(body))).status).toBe(500);
    expect((await post(listener.url, body, signed(body))).status).toBe(200);
    const events = await listener.waitFor(2);
    expect(events.map((e) => e.status)).toEqual([500, 200]);
    expect(io.stdoutText()).toContain('(answered 500)');
  });

  it('with verification off, takes every notification in and says which were verified', async () => {
    const { listener, io } = await listen({ verify: false, json: true });
    const body = stopped('AA123456789BR');
    expect((await post(listener.url, body)).status).toBe(200);
    expect((await post(listener.url, body, signed(body))).status).toBe(200);
    await listener.waitFor(2);
    expect(
      io
        .stdoutText()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).verified),
    ).toEqual([false, true]);
  });

  it('refuses a body over the limit, announced or not, without keeping it; counts every refusal', async () => {
    const { listener, io } = await listen({ maxBodyBytes: 1024 });
    const big = Buffer.alloc(64 * 1024, 0x20);
    // Announced by content-length: refused before a byte is read.
    expect((await post(listener.url, big, signed(big))).status).toBe(413);
    // Streamed without a length: refused once it passes the limit.
    const res = await request(listener.url, {
      method: 'POST',
      body: Readable.from(Array.from({ length: 16 }, () => big)),
      headers: signed(big),
    }).catch((e: unknown) => e as Error);
    // The listener may answer and close before the sender is done: a reset is as good as the 413.
    if (!(res instanceof Error)) {
      expect(res.statusCode).toBe(413);
      await res.body.dump();
    }
    const small = stopped('AA123456789BR');
    expect((await post(listener.url, small, signed(small))).status).toBe(200);
    await listener.waitFor(3);
    expect(listener.counts).toEqual({ handled: 3, accepted: 1, refused: 2 });
    // Only what was taken in reached onEvent.
    expect(listener.events.map((e) => e.status)).toEqual([200]);
    expect(io.stderrText()).toMatch(/413 refused a body over 1024 bytes from 127\.0\.0\.1/);
  });

  it('reads a few bodies at once; more wait unread, and past the waiting room are refused with 503', async () => {
    const { listener } = await listen({ maxConcurrentSmallBodies: 1, maxWaiting: 1 });
    // Three senders open their requests and send half a body each, holding the first turn.
    const { connect } = await import('node:net');
    const u = new URL(listener.url);
    const sockets = [1, 2, 3].map(() => connect(Number(u.port), u.hostname));
    const answers = sockets.map(
      (sock) =>
        new Promise<string>((resolve) => {
          let text = '';
          sock.on('data', (d: Buffer) => (text += d.toString()));
          sock.on('close', () => resolve(text));
          sock.on('error', () => resolve(text));
        }),
    );
    for (const sock of sockets) {
      sock.write(
        `POST ${u.pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ` +
          `100\r\n\r\n{"event":`,
      );
      // Turns enough for the listener to take this one in before the next.
      await clock().sleep(50);
    }
    // The third found the one reader busy and the one waiting place taken.
    const third = await answers[2]!;
    expect(third).toMatch(/^HTTP\/1\.1 503/);
    expect(third).toMatch(/retry-after: 5/i);
    for (const sock of sockets.slice(0, 2)) sock.destroy();
    await listener.waitFor(3);
    expect(listener.counts.refused).toBe(3);
  });

  it('cuts off a request whose body does not arrive in time', async () => {
    const { listener, io } = await listen({ requestTimeoutMs: 300 });
    const { connect } = await import('node:net');
    const u = new URL(listener.url);
    const sock = connect(Number(u.port), u.hostname);
    const closed = new Promise<string>((resolve) => {
      let text = '';
      sock.on('data', (d: Buffer) => (text += d.toString()));
      sock.on('close', () => resolve(text));
      sock.on('error', () => resolve(text));
    });
    sock.write(`POST ${u.pathname} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{`);
    // Cut off by the listener's limit of 300 ms (Node's own is minutes: the test's time limit would end it first).
    const answer = await closed;
    expect(answer === '' || /^HTTP\/1\.1 408/.test(answer)).toBe(true);
    await listener.waitFor(1);
    expect(listener.counts).toEqual({ handled: 1, accepted: 0, refused: 1 });
    expect(io.stderrText()).toMatch(/cut off before its body ended/);
  });

  it('a flood of refusals is summed up, not echoed line by line', async () => {
    const { listener, io } = await listen();
    const body = stopped('AA123456789BR');
    for (let i = 0; i < 30; i++) expect((await post(listener.url, body, signed(body, 'wrong'))).status).toBe(401);
    await listener.waitFor(30);
    await listener.close();
    const lines = io.stderrText().trim().split('\n');
    expect(lines.filter((l) => l.includes('401 bad signature'))).toHaveLength(20);
    expect(lines.at(-1)).toBe('10 more refused notifications not shown');
    expect(listener.counts).toEqual({ handled: 30, accepted: 0, refused: 30 });
  });

  it('refuses to start without a key when verifying', async () => {
    await expect(startListener({ io: createTestIO(), key: undefined })).rejects.toThrow(/no API key/);
  });

  it('reports a port in use', async () => {
    const { listener } = await listen();
    await expect(startListener({ io: createTestIO(), key: KEY, port: listener.port })).rejects.toThrow(
      /already in use/,
    );
  });

  it('stops listening on close', async () => {
    const { listener } = await listen();
    await listener.close();
    await listener.close();
    await expect(post(listener.url, '{}')).rejects.toThrow();
  });
});

describe('saved notifications', () => {
  it('headers as received, one a line, read back by name in any letter case', () => {
    const text = headersText('POST', '/hook?x=1', '1.1', [
      'Host',
      '127.0.0.1:4242',
      'Sign',
      'abc',
      'X-Multi',
      'a',
      'x-multi',
      'b',
      'X-Odd',
      'one\r\ntwo',
    ]);
    expect(text).toBe(
      'POST /hook?x=1 HTTP/1.1\nHost: 127.0.0.1:4242\nSign: abc\nX-Multi: a\nx-multi: b\nX-Odd: one two\n',
    );
    expect(headerFrom(text, 'sign')).toBe('abc');
    expect(headerFrom(text, 'x-multi')).toBe('a, b');
    expect(headerFrom(text, 'missing')).toBeUndefined();
    // CRLF files (edited on another system) too.
    expect(headerFrom('POST / HTTP/1.1\r\nsign: def \r\n', 'SIGN')).toBe('def');
  });

  it('pairs body and headers files by name', () => {
    expect(pairedFile('hooks/a.json')).toBe('hooks/a.headers');
    expect(pairedFile('hooks/a.headers')).toBe('hooks/a.json');
    expect(pairedFile('hooks/a.txt')).toBeUndefined();
  });

  it('never writes over a file that is there: the pair moves to the next free name', async () => {
    const dir = await tempDir();
    expect(await saveNotification(dir, 'x', Buffer.from('1'), 'h1\n')).toBe(path.join(dir, 'x.json'));
    expect(await saveNotification(dir, 'x', Buffer.from('2'), 'h2\n')).toBe(path.join(dir, 'x-2.json'));
    // A headers file left without its body: kept, and the new pair takes the next name.
    await rm(path.join(dir, 'x-2.json'));
    expect(await saveNotification(dir, 'x', Buffer.from('3'), 'h3\n')).toBe(path.join(dir, 'x-3.json'));
    expect((await readdir(dir)).sort()).toEqual(['x-2.headers', 'x-3.headers', 'x-3.json', 'x.headers', 'x.json']);
    expect(await readFile(path.join(dir, 'x-2.headers'), 'utf8')).toBe('h2\n');
    expect(await readFile(path.join(dir, 'x.json'), 'utf8')).toBe('1');
  });

  it('--save onto a file is refused in words before listening', async () => {
    const file = path.join(await tempDir(), 'a-file');
    await (await import('node:fs/promises')).writeFile(file, '');
    const io = createTestIO();
    await expect(startListener({ io, key: KEY, saveDir: file })).rejects.toThrow(
      /cannot save into .*a-file: a file is in the way/,
    );
    await expect(startListener({ io, key: KEY, saveDir: path.join(file, 'sub') })).rejects.toMatchObject({
      exitCode: 2,
    });
  });
});
