// --forward-to when the app fails: the notification waits in a bounded queue on disk and is forwarded again with
// backoff; what is still not forwarded at the stop is counted and kept for `trk webhook replay`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { clock } from '../../src/core/clock.js';
import { createTestIO, type TestIO } from '../test-io.js';
import { startListener, type Listener, type ListenerOptions, type Sink } from '../../src/webhook/listen.js';
import { headerFrom } from '../../src/webhook/saved.js';
import { afterTest, app, deadUrl, signed, stopped, tempDir } from './app.js';

const KEY = 'queue-test-key';
const sign = (body: Buffer) => signed(body, KEY);

async function listen(opts: Partial<ListenerOptions>): Promise<{ listener: Listener; io: TestIO }> {
  const io = createTestIO();
  const listener = await startListener({
    io,
    key: KEY,
    ...opts,
    queue: { firstDelayMs: 30, maxDelayMs: 200, ...opts.queue },
  });
  afterTest(() => listener.close());
  return { listener, io };
}

async function post(url: string, body: Buffer): Promise<number> {
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...sign(body) },
  });
  await res.body.dump();
  return res.statusCode;
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    // Real time: polls for what sockets and files bring.
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('forward queue', () => {
  it('forwards again with backoff when the app answers 500, until it takes the notification', async () => {
    const target = await app([500, 503]);
    const queueRoot = await tempDir();
    const { listener, io } = await listen({ forwardTo: target.url, queueRoot });
    const body = stopped('AA123456789BR');
    expect(await post(listener.url, body)).toBe(200);
    await until('the third delivery taken', () => /on attempt 3: 200/.test(io.stderrText()));
    expect(target.got).toHaveLength(3);
    // The same bytes and the same signature every time.
    for (const g of target.got) {
      expect(g.body.equals(body)).toBe(true);
      expect(g.headers.sign).toBe(sign(body).sign);
    }
    await listener.close();
    expect(io.stderrText()).toMatch(/not forwarded to .*: 500; again in/);
    expect(io.stderrText()).toMatch(/TRACKING_STOPPED AA123456789BR forwarded to .* on attempt 3: 200/);
    expect(listener.summary().head).toBe('stopped: 1 notification, 0 refused; 1 forwarded (1 after retries), 0 failed');
    expect(listener.summary().notes).toEqual([]);
    // Nothing is left waiting: the queue's folder is gone.
    expect(await readdir(queueRoot)).toEqual([]);
  });

  it('keeps what the app never took, counts it as failed, and says how to replay it', async () => {
    const queueRoot = await tempDir();
    const forwardTo = await deadUrl();
    const { listener, io } = await listen({ forwardTo, queueRoot });
    expect(await post(listener.url, stopped('AA000000001BR'))).toBe(200);
    expect(await post(listener.url, stopped('AA000000002BR'))).toBe(200);
    await listener.waitFor(2);
    await until('a retry', () => (io.stderrText().match(/not forwarded/g) ?? []).length >= 3);
    await listener.close();
    const [dir] = await readdir(queueRoot);
    const kept = path.join(queueRoot, dir!);
    const files = (await readdir(kept)).sort();
    expect(files).toHaveLength(4);
    expect(files.filter((f) => f.endsWith('.json')).map((f) => f.replace(/^.*-TRACKING_STOPPED-/, ''))).toEqual([
      'AA000000001BR.json',
      'AA000000002BR.json',
    ]);
    expect(headerFrom(await readFile(path.join(kept, files[0]!), 'utf8'), 'sign')).toBe(
      sign(stopped('AA000000001BR')).sign,
    );
    const { head, notes } = listener.summary();
    expect(head).toBe('stopped: 2 notifications, 0 refused; 0 forwarded, 2 failed');
    expect(notes).toEqual([
      `2 notifications not forwarded are kept in ${kept}: trk webhook replay ${kept} --forward-to ${forwardTo}`,
    ]);
  });

  it('at its bound, answers 200 all the same, forwards once without keeping, and counts what is lost', async () => {
    const queueRoot = await tempDir();
    const forwardTo = await deadUrl();
    const { listener, io } = await listen({ forwardTo, queueRoot, queue: { maxCount: 1 } });
    expect(await post(listener.url, stopped('AA000000001BR'))).toBe(200);
    expect(await post(listener.url, stopped('AA000000002BR'))).toBe(200);
    await listener.waitFor(2);
    await listener.close();
    expect(io.stderrText()).toMatch(
      /the forward queue is full \(1 notification or 256 MiB\): AA000000002BR is forwarded once, not kept/,
    );
    expect(listener.summary().head).toBe('stopped: 2 notifications, 0 refused; 0 forwarded, 2 failed');
    expect(listener.summary().notes).toEqual([
      expect.stringMatching(/^1 notification not forwarded is kept in /),
      '1 notification not forwarded was lost to the app: the forward queue was full (1 notification or 256 MiB); ' +
        'trk push NUMBER has the service send it again',
    ]);
  });

  it('a notification stopped in flight stays queued', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const hanging = createServer((req, res) => {
      req.resume();
      void held.then(() => res.writeHead(200).end());
    });
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
    afterTest(() => new Promise((r) => hanging.close(r)));
    afterTest(async () => release());
    const queueRoot = await tempDir();
    const { listener } = await listen({
      forwardTo: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`,
      queueRoot,
    });
    expect(await post(listener.url, stopped('AA000000003BR'))).toBe(200);
    await listener.close();
    expect(listener.summary().head).toMatch(/0 forwarded, 1 failed$/);
    const [dir] = await readdir(queueRoot);
    expect(await readdir(path.join(queueRoot, dir!))).toHaveLength(2);
  });
});

describe('sinks', () => {
  it('the answer waits for a sink to write, and is 503 when a write fails', async () => {
    let release: () => void = () => {};
    const written: string[] = [];
    const slow: Sink = {
      write: async (ev) => {
        if (ev.summary.number === 'FAIL') throw new Error('database is down');
        await new Promise<void>((r) => (release = r));
        written.push(ev.summary.number!);
      },
    };
    const { listener, io } = await listen({ sinks: [slow] });
    let answered = false;
    const answer = post(listener.url, stopped('AA000000004BR')).then((s) => {
      answered = true;
      return s;
    });
    await until('the write', () => written.length === 0 && release !== undefined);
    // Turns enough for an answer sent meanwhile to come back.
    await clock().sleep(100);
    expect(answered).toBe(false);
    release();
    expect(await answer).toBe(200);
    expect(written).toEqual(['AA000000004BR']);

    expect(await post(listener.url, stopped('FAIL'))).toBe(503);
    await listener.waitFor(2);
    expect(listener.counts).toEqual({ handled: 2, accepted: 1, refused: 1 });
    expect(io.stderrText()).toMatch(
      /503 could not keep TRACKING_STOPPED FAIL: database is down; the service will send it again/,
    );
    // Nothing after the failed sink took it: not printed.
    expect(io.stdoutText()).not.toContain('FAIL');
  });
});
