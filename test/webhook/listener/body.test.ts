import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBody, type BodyLimits, type BodyOutcome } from '../../../src/webhook/listener/body.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Resolves once `check()` holds: what it waits for is a socket's, a few turns of the event loop away. */
async function turnsUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

/**
 * Sends `head` then `chunks` one every `everyMs` over a raw socket; resolves with what readBody made of it, and
 * when. The pace and the grace are readBody's timers, driven here: time passes only between the chunks, each read
 * before the next, so that what the body's timers see does not hang on how busy the machine is.
 */
async function read(
  limits: BodyLimits,
  head: string,
  chunks: string[],
  everyMs: number,
): Promise<{ outcome: BodyOutcome; ms: number }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  try {
    let started: number | undefined;
    let received = 0;
    let result: { outcome: BodyOutcome; ms: number } | undefined;
    const server = createServer((req: IncomingMessage) => {
      const t0 = performance.now();
      started = t0;
      req.on('data', (chunk: Buffer) => (received += chunk.length));
      void readBody(req, limits).then((outcome) => (result = { outcome, ms: performance.now() - t0 }));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const sock = connect((server.address() as AddressInfo).port, '127.0.0.1');
    sock.on('error', () => {});
    try {
      let sent = Buffer.byteLength(head.slice(head.indexOf('\r\n\r\n') + 4));
      sock.write(head);
      const taken = () => result !== undefined || (started !== undefined && received >= sent);
      await turnsUntil(taken);
      for (const chunk of chunks) {
        if (result) break;
        await vi.advanceTimersByTimeAsync(everyMs);
        if (result) break;
        sock.write(chunk);
        sent += Buffer.byteLength(chunk);
        await turnsUntil(taken);
      }
      for (let waited = 0; !result; waited += 10) {
        if (waited > 60_000) throw new Error('readBody never settled');
        await vi.advanceTimersByTimeAsync(10);
      }
      return result;
    } finally {
      sock.destroy();
    }
  } finally {
    vi.useRealTimers();
  }
}

const head = (length: number) => `POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`;
const limits = { maxBytes: 1000, minBytesPerSecond: 100, graceMs: 300 };

describe('readBody', () => {
  it('reads a body sent at once', async () => {
    const { outcome } = await read(limits, `${head(5)}hello`, [], 10);
    expect(Buffer.isBuffer(outcome) && outcome.toString()).toBe('hello');
  });

  it('reads a body that comes slowly within the grace', async () => {
    const { outcome } = await read(limits, head(4), ['ab', 'cd'], 100);
    expect(Buffer.isBuffer(outcome) && outcome.toString()).toBe('abcd');
  });

  it('cuts off a body that trickles below the pace once the grace is over', async () => {
    const { outcome, ms } = await read(
      limits,
      head(500),
      Array.from({ length: 50 }, () => 'x'),
      50,
    );
    expect(outcome).toBe('too-slow');
    // 20 bytes a second against 100: behind at the grace's end.
    expect(ms).toBe(limits.graceMs);
  });

  it('keeps reading a body that keeps the pace, and cuts it once it falls behind', async () => {
    // 60 bytes at once cover 600 ms of the pace; then nothing comes.
    const { outcome, ms } = await read(limits, `${head(500)}${'y'.repeat(60)}`, [], 10);
    expect(outcome).toBe('too-slow');
    // Checked at the grace, then once the 60 bytes are due by the pace: 600 ms.
    expect(ms).toBeGreaterThanOrEqual(600);
    expect(ms).toBeLessThan(700);
  });

  it('refuses a body past the size limit', async () => {
    const { outcome } = await read({ ...limits, maxBytes: 10 }, `${head(20)}${'z'.repeat(20)}`, [], 10);
    expect(outcome).toBe('too-large');
  });
});
