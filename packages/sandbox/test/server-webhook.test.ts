// Webhooks leave the sandbox over real HTTP (to a receiver on 127.0.0.1) when simulated time moves, signed
// with the key; a receiver that fails makes a failed push, not a crash.

import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../src/http/server.js';
import { sampleNumber } from '../src/world/index.js';
import { call, control } from './http.js';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let answerStatus = 200;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answerStatus).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

const START = Date.UTC(2026, 5, 1, 8, 0, 0);
const DAY = 86_400_000;

describe('webhook delivery', () => {
  let s: RunningSandbox;
  beforeAll(async () => {
    s = await startSandbox({
      speed: 0,
      start: START,
      rateLimit: 0,
      strictPaths: true,
      webhookUrl: receiverUrl,
      key: 'hook-key',
    });
  });
  afterAll(async () => {
    await s.close();
  });

  it('pushes TRACKING_UPDATED, signed with the key, once simulated time passes the first result', async () => {
    const number = sampleNumber(3011, 1);
    const reg = await call(s.url, '/track/v2/register', {
      key: 'hook-key',
      body: JSON.stringify([{ number, carrier: 3011 }]),
    });
    expect(reg.json.data.accepted).toHaveLength(1);
    expect(received).toHaveLength(0);

    const a = await control(s.url, 'advance', { seconds: 2 * 86_400 });
    expect(a.status).toBe(200);
    const mine = received.filter((r) => r.body.includes(number));
    expect(mine.length).toBeGreaterThanOrEqual(1);
    const first = mine[0]!;
    expect(JSON.parse(first.body).event).toBe('TRACKING_UPDATED');
    expect(first.headers['content-type']).toMatch(/application\/json/);
    const sign = createHash('sha256').update(`${first.body}/hook-key`).digest('hex');
    expect(first.headers.sign).toBe(sign);
  });

  it('records a failing receiver as a failed push and carries on', async () => {
    answerStatus = 500;
    const number = sampleNumber(3011, 2);
    await call(s.url, '/track/v2/register', { key: 'hook-key', body: JSON.stringify([{ number, carrier: 3011 }]) });
    const before = received.length;
    await s.advance(DAY);
    expect(received.length).toBeGreaterThan(before);
    const list = await call(s.url, '/track/v2/gettracklist', { key: 'hook-key', body: JSON.stringify({ number }) });
    const rec = list.json.data.accepted[0];
    expect(rec.push_status).toBe('Failure');
    expect(rec.push_status_code).toBe(500);
    answerStatus = 200;
  });

  it('counts an unreachable receiver as status 0', async () => {
    // Port 1, which no test can listen on: connection refused.
    const deadUrl = 'http://127.0.0.1:1/hook';
    s.setSettings({ webhookUrl: deadUrl });
    const number = sampleNumber(3011, 3);
    await call(s.url, '/track/v2/register', { key: 'hook-key', body: JSON.stringify([{ number, carrier: 3011 }]) });
    await s.advance(DAY);
    const list = await call(s.url, '/track/v2/gettracklist', { key: 'hook-key', body: JSON.stringify({ number }) });
    expect(list.json.data.accepted[0].push_status).toBe('Failure');
    expect(list.json.data.accepted[0].push_status_code).toBe(0);
    s.setSettings({ webhookUrl: receiverUrl });
  });
});
