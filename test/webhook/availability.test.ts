// The listener stays available to the service while others hold on to it (issue: 100 senders trickling their
// bodies kept genuine notifications at 503 for 30 s; with 3,000 idle connections a genuine one was reset).
// Smaller than bench/webhook-flood.mjs, at the listener's default limits: the attackers come from other loopback
// addresses (127.0.0.2 and up), the genuine sender from 127.0.0.1, as the service's address differs from theirs.
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { Client } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestIO } from '../test-io.js';
import { startListener, type Listener, type ListenerOptions } from '../../src/webhook/listen.js';

const KEY = 'availability-test-key';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const sockets: Socket[] = [];
const listeners: Listener[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const l of listeners.splice(0)) await l.close();
});

async function listen(opts: Partial<ListenerOptions> = {}): Promise<{ listener: Listener; port: number }> {
  const listener = await startListener({ io: createTestIO(), key: KEY, ...opts });
  listeners.push(listener);
  return { listener, port: listener.port };
}

/** A connection from `from`, open once connected (or closed, if the listener would not have it). */
function open(port: number, from: string): Promise<Socket> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.push(s);
    s.on('error', () => {});
    s.once('connect', () => resolve(s));
    s.once('close', () => resolve(s));
  });
}

/** The loopback address of attacker `i`, `perAddress` of them to an address, from 127.0.0.2 on. */
const attacker = (i: number, perAddress: number) => `127.0.0.${2 + Math.floor(i / perAddress)}`;

/** A genuine notification from 127.0.0.1 on a new connection: its status, or the error that ended it. */
async function genuine(port: number): Promise<{ status: number | string }> {
  const body = Buffer.from(
    JSON.stringify({ event: 'TRACKING_STOPPED', data: { number: 'RR123456789CN', carrier: 3011 } }),
  );
  const client = new Client(`http://127.0.0.1:${port}`, { localAddress: '127.0.0.1', headersTimeout: 10_000 });
  try {
    const sign = sha(Buffer.concat([body, Buffer.from(`/${KEY}`)]));
    const res = await client.request({ path: '/hook', method: 'POST', body, headers: { sign } });
    await res.body.dump();
    return { status: res.statusCode };
  } catch (e) {
    return { status: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  } finally {
    await client.destroy();
  }
}

/** Real time: the listener's limits (a body's pace, the headers timeout) are timers racing real sockets. */
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `check()` holds: closes reach this side within moments (longer on a busy machine). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await pause(50);
}

/** The sockets of `list` still open on this side. */
const openOf = (list: readonly Socket[]) => list.filter((s) => !s.destroyed && !s.readableEnded).length;

describe('listener availability', () => {
  it('answers a genuine notification at once while 100 senders trickle their bodies', async () => {
    const { listener, port } = await listen();
    // Half announce a small body and half a large one; each sends a byte every 200 ms.
    const tricklers = await Promise.all(Array.from({ length: 100 }, (_, i) => open(port, attacker(i, 10))));
    const timer = setInterval(() => {
      for (const s of tricklers) if (!s.destroyed) s.write('x');
    }, 200);
    try {
      for (const [i, s] of tricklers.entries()) {
        s.write(`POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: ${i % 2 ? 3_000_000 : 2000}\r\n\r\n{`);
      }
      await pause(500);
      const answer = await genuine(port);
      expect(answer.status).toBe(200);
      // At once: before the grace after which the tricklers are cut off and free their turns (3 s).
      expect(openOf(tricklers)).toBe(100);
      expect(listener.counts.accepted).toBe(1);
    } finally {
      clearInterval(timer);
    }
  });

  it('answers a genuine notification while 1,100 idle connections are held, holding at most its limit', async () => {
    const { listener, port } = await listen();
    // 50 an address: under the limit of one address, so that it is the listener's own limit that is reached.
    for (let i = 0; i < 1100; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => open(port, attacker(i + j, 50))));
    }
    await pause(200);
    const answer = await genuine(port);
    expect(answer.status).toBe(200);
    // At once: room was made by closing the idlest, not by waiting for the headers timeout to close them all.
    expect(openOf(sockets)).toBeGreaterThan(1000);
    expect(listener.counts.accepted).toBe(1);
    await until(() => openOf(sockets) <= 1024);
    expect(openOf(sockets)).toBeLessThanOrEqual(1024);
  });

  it('holds at most 64 connections from one address, and keeps room for others', async () => {
    const { port } = await listen();
    const held = await Promise.all(Array.from({ length: 300 }, () => open(port, '127.0.0.2')));
    await until(() => openOf(held) <= 64);
    expect(openOf(held)).toBe(64);
    expect((await genuine(port)).status).toBe(200);
  });

  it('cuts off a body trickled below the pace after the grace (408), and sums up the connections closed', async () => {
    const { listener, port } = await listen({ bodyGraceMs: 300, headersTimeoutMs: 300 });
    const trickler = await open(port, '127.0.0.2');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      trickler.on('data', (d: Buffer) => (text += d.toString()));
      trickler.on('close', () => resolve(text));
    });
    trickler.write('POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n{');
    const timer = setInterval(() => trickler.destroyed || trickler.write('x'), 100);
    try {
      expect(await answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(timer);
    }
    await listener.waitFor(1);
    expect(listener.counts).toEqual({ handled: 1, accepted: 0, refused: 1 });
    // One that sends nothing is closed once the headers timeout has passed.
    const idle = await open(port, '127.0.0.3');
    await new Promise((r) => idle.once('close', r));
    await listener.close();
    expect(listener.summary().head).toBe(
      'stopped: 1 notification, 1 refused; 1 idle connection closed to keep room for others',
    );
  });
});
