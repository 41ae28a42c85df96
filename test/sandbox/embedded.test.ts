import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMBEDDED_SPEED, startEmbeddedSandbox } from '../../src/sandbox/embedded.js';
import { call } from './http.js';



let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'trk-embedded-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('startEmbeddedSandbox', () => {
  it('serves on a loopback port, keeps state in <stateDir>/sandbox.json, rate limit on', async () => {
    const sb = await startEmbeddedSandbox(dir);
    try {
      expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sb.key).toBe('sandbox-key');
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(sb.url, '/track/v2/getquota', { key: sb.key })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const reg = await call(sb.url, '/track/v2/register', {
        key: sb.key,
        body: JSON.stringify([{ number: 'RR400000001CN', carrier: 3011 }]),
      });
      expect([200, 429]).toContain(reg.status);
    } finally {
      await sb.close();
    }
    const saved = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8'));
    expect(saved.version).toBe(1);
    expect(saved.clock.speed).toBe(EMBEDDED_SPEED);
  });

  it('moves simulated time on between two runs, by the real time between them times the speed', async () => {
    const first = await startEmbeddedSandbox(dir);
    await first.close();
    const t1 = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8')).clock.time as number;
    await new Promise((r) => setTimeout(r, 50));
    const second = await startEmbeddedSandbox(dir);
    await second.close();
    const t2 = JSON.parse(await readFile(path.join(dir, 'sandbox.json'), 'utf8')).clock.time as number;
    // At least 50 ms down × 60 = 3 simulated seconds.
    expect(t2 - t1).toBeGreaterThanOrEqual(50 * EMBEDDED_SPEED);
    expect(t2 - t1).toBeLessThan(86_400_000);
  });
});
