import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody, type BodyLimits, type BodyOutcome } from '../../../src/webhook/listener/body.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Sends `head` then `chunks` one every `everyMs` over a raw socket; resolves with what readBody made of it. */
async function read(
  limits: BodyLimits,
  head: string,
  chunks: string[],
  everyMs: number,
): Promise<{ outcome: BodyOutcome; ms: number }> {
  let started = 0;
  const outcome = new Promise<BodyOutcome>((resolve) => {
    const server = createServer((req: IncomingMessage) => {
      started = performance.now();
      void readBody(req, limits).then(resolve);
    });
    servers.push(server);
    server.listen(0, '127.0.0.1', () => {
      const sock = connect((server.address() as AddressInfo).port, '127.0.0.1');
      sock.on('error', () => {});
      sock.write(head);
      let i = 0;
      const timer = setInterval(() => {
        if (i < chunks.length && !sock.destroyed) sock.write(chunks[i++]!);
        else clearInterval(timer);
      }, everyMs);
      sock.on('close', () => clearInterval(timer));
    });
  });
  const result = await outcome;
  return { outcome: result, ms: performance.now() - started };
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
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1000);
  });

  it('keeps reading a body that keeps the pace, and cuts it once it falls behind', async () => {
    // 60 bytes at once cover 600 ms of the pace; then nothing comes.
    const { outcome, ms } = await read(limits, `${head(500)}${'y'.repeat(60)}`, [], 10);
    expect(outcome).toBe('too-slow');
    expect(ms).toBeGreaterThanOrEqual(590);
  });

  it('refuses a body past the size limit', async () => {
    const { outcome } = await read({ ...limits, maxBytes: 10 }, `${head(20)}${'z'.repeat(20)}`, [], 10);
    expect(outcome).toBe('too-large');
  });
});
