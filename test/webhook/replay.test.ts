// trk webhook replay: notifications kept by the listener (the forward queue, a --save folder) sent to the app
// again with the headers it expects; and trk webhook listen naming what earlier runs left in the queue.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { runWebhookListen } from '../../src/commands/webhook/listen.js';
import { runWebhookReplay } from '../../src/commands/webhook/replay.js';
import { UsageError } from '../../src/errors.js';
import { createTestIO } from '../../src/io.js';
import { forwardHeaders, startListener } from '../../src/webhook/listen.js';
import { fakeContext } from '../carriers/fake-context.js';

const KEY = 'replay-test-key';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const stopped = (number: string) =>
  Buffer.from(JSON.stringify({ event: 'TRACKING_STOPPED', data: { number, carrier: 2151 } }));

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'trk-replay-'));
  closers.push(() => rm(d, { recursive: true, force: true }));
  return d;
}

interface Got {
  body: Buffer;
  headers: IncomingHttpHeaders;
  raw: string[];
}

/** The app: answers with the next of `statuses` (then 200) and keeps what it got. */
async function app(statuses: number[] = []): Promise<{ url: string; got: Got[]; close: () => Promise<unknown> }> {
  const got: Got[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks), headers: req.headers, raw: req.rawHeaders });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () => new Promise((r) => server.close(r));
  closers.push(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/app`, got, close };
}

/** What a listener whose app was down left in its queue under `state`: the folder, and the bodies sent. */
async function leftInQueue(
  state: string,
  numbers: string[],
): Promise<{ dir: string; bodies: Buffer[]; sentHeaders: string[][] }> {
  const down = await app();
  await down.close();
  const listener = await startListener({
    io: createTestIO(),
    key: KEY,
    forwardTo: down.url,
    queueRoot: path.join(state, 'webhook-queue'),
    queue: { maxAttempts: 1 },
  });
  const bodies = numbers.map(stopped);
  const sentHeaders: string[][] = [];
  for (const body of bodies) {
    const headers = {
      'Content-Type': 'application/json',
      sign: sha(Buffer.concat([body, Buffer.from(`/${KEY}`)])),
      'X-Request-Id': `id-${sentHeaders.length}`,
    };
    sentHeaders.push(Object.entries(headers).flat());
    const res = await request(listener.url, { method: 'POST', body, headers });
    await res.body.dump();
  }
  await listener.waitFor(bodies.length);
  await listener.close();
  const [name] = await readdir(path.join(state, 'webhook-queue'));
  return { dir: path.join(state, 'webhook-queue', name!), bodies, sentHeaders };
}

describe('trk webhook replay', () => {
  it('sends what the forward queue kept, as the listener forwards it, and empties the queue', async () => {
    const state = await tempDir();
    const { dir, bodies } = await leftInQueue(state, ['AA000000001BR', 'AA000000002BR']);
    const target = await app();
    const ctx = fakeContext({ env: { TRK_STATE_DIR: state } });
    expect(await runWebhookReplay({ paths: [dir], forwardTo: target.url }, ctx)).toBe(0);
    expect(target.got.map((g) => g.body)).toEqual(bodies);
    // The signature and the other end-to-end headers as received, in their case and order.
    expect(target.got[0]!.headers.sign).toBe(sha(Buffer.concat([bodies[0]!, Buffer.from(`/${KEY}`)])));
    expect(forwardHeaders(target.got[1]!.raw).filter((_, i, a) => i % 2 === 0 && a[i] !== 'content-length')).toEqual(
      expect.arrayContaining(['Content-Type', 'sign', 'X-Request-Id']),
    );
    expect(target.got[1]!.headers['x-request-id']).toBe('id-1');
    expect(ctx.io.stderrText()).toMatch(/TRACKING_STOPPED AA000000001BR forwarded to .*: 200/);
    expect(ctx.io.stderrText()).toMatch(/replayed 2 notifications: 2 forwarded/);
    expect(ctx.io.stdoutText()).toBe('');
    // Taken by the app: gone from the queue, and the emptied folder with them.
    expect(await readdir(path.join(state, 'webhook-queue'))).toEqual([]);
  });

  it('never changes a --save folder; the results as data when asked for', async () => {
    const state = await tempDir();
    const hooks = path.join(await tempDir(), 'hooks');
    const listener = await startListener({ io: createTestIO(), key: KEY, saveDir: hooks });
    closers.push(() => listener.close());
    for (const n of ['AA000000001BR', 'AA000000002BR']) {
      const body = stopped(n);
      const res = await request(listener.url, {
        method: 'POST',
        body,
        headers: { sign: sha(Buffer.concat([body, Buffer.from(`/${KEY}`)])) },
      });
      await res.body.dump();
    }
    await listener.waitFor(2);
    const before = (await readdir(hooks)).sort();
    const target = await app([500]);
    const ctx = fakeContext({ env: { TRK_STATE_DIR: state }, global: { output: 'json' } });
    expect(await runWebhookReplay({ paths: [hooks], forwardTo: target.url }, ctx)).toBe(1);
    expect((await readdir(hooks)).sort()).toEqual(before);
    const rows = JSON.parse(ctx.io.stdoutText()) as Record<string, unknown>[];
    expect(rows.map((r) => [r.number, r.status, r.forwarded])).toEqual([
      ['AA000000001BR', 500, false],
      ['AA000000002BR', 200, true],
    ]);
    expect(ctx.io.stderrText()).toMatch(/replayed 2 notifications: 1 forwarded, 1 failed$/m);
  });

  it('keeps what the app did not take, and stops when the app cannot be reached', async () => {
    const state = await tempDir();
    const { dir } = await leftInQueue(state, ['AA000000001BR', 'AA000000002BR', 'AA000000003BR']);
    const down = await app();
    await down.close();
    const ctx = fakeContext({ env: { TRK_STATE_DIR: state } });
    expect(await runWebhookReplay({ paths: [dir], forwardTo: down.url }, ctx)).toBe(1);
    expect(ctx.io.stderrText().match(/not forwarded to/g)).toHaveLength(1);
    expect(ctx.io.stderrText()).toMatch(
      /replayed 3 notifications: 0 forwarded, 1 failed, 2 not sent \(the app could not be reached: stopped\)/,
    );
    expect(await readdir(dir)).toHaveLength(6);
  });

  it('refuses bad input before sending anything', async () => {
    const dir = await tempDir();
    const ctx = fakeContext({ env: { TRK_STATE_DIR: dir } });
    await expect(runWebhookReplay({ paths: [dir] }, ctx)).rejects.toThrow(/--forward-to is required/);
    await expect(runWebhookReplay({ paths: [dir], forwardTo: 'ftp://x' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(
      runWebhookReplay({ paths: [path.join(dir, 'missing')], forwardTo: 'http://127.0.0.1:9/' }, ctx),
    ).rejects.toThrow(/cannot read .*missing: no such file or folder/);
    await expect(runWebhookReplay({ paths: [dir], forwardTo: 'http://127.0.0.1:9/' }, ctx)).rejects.toThrow(
      /no saved notifications in/,
    );
    await writeFile(path.join(dir, 'notes.txt'), 'x');
    await expect(
      runWebhookReplay({ paths: [path.join(dir, 'notes.txt')], forwardTo: 'http://127.0.0.1:9/' }, ctx),
    ).rejects.toThrow(/is not a saved notification/);
  });
});

describe('trk webhook listen --forward-to', () => {
  it('names what earlier runs left in the queue, and keeps what it could not forward in the state folder', async () => {
    const state = await tempDir();
    const { dir } = await leftInQueue(state, ['AA000000001BR']);
    const down = await app();
    await down.close();
    const ctx = fakeContext({ settings: { apiKey: KEY }, env: { TRK_STATE_DIR: state } });
    const done = runWebhookListen({ port: 0, forwardTo: down.url }, ctx);
    let url: string | undefined;
    while (!url) {
      await new Promise((r) => setTimeout(r, 10));
      url = /Listening on (\S+)/.exec(ctx.io.stderrText())?.[1];
    }
    const replay = `trk webhook replay ${dir} --forward-to ${down.url}`;
    const earlier = `1 notification not forwarded by an earlier run: ${replay}`;
    while (!ctx.io.stderrText().includes(earlier)) await new Promise((r) => setTimeout(r, 10));
    const body = stopped('AA000000009BR');
    const res = await request(url, {
      method: 'POST',
      body,
      headers: { sign: sha(Buffer.concat([body, Buffer.from(`/${KEY}`)])) },
    });
    await res.body.dump();
    while (!/not forwarded to .*AA000000009BR|AA000000009BR not forwarded/.test(ctx.io.stderrText()))
      await new Promise((r) => setTimeout(r, 10));
    ctx.interrupt();
    expect(await done).toBe(0);
    expect(ctx.io.stderrText()).toMatch(/stopped: 1 notification, 0 refused; 0 forwarded, 1 failed/);
    const kept = (await readdir(path.join(state, 'webhook-queue')))
      .map((n) => path.join(state, 'webhook-queue', n))
      .filter((d) => d !== dir);
    expect(kept).toHaveLength(1);
    expect(ctx.io.stderrText()).toContain(
      `1 notification not forwarded is kept in ${kept[0]}: trk webhook replay ${kept[0]} --forward-to ${down.url}`,
    );
  });
});
