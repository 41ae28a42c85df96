// The /__sandbox/ control endpoints, the simulated clock as the server runs it, and persistence across a
// restart, over real HTTP on 127.0.0.1.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testClock as clock } from '../../../test/skipping-clock.js';
import { type RunningSandbox, startSandbox } from '../src/http/server.js';
import { call, control, register, sandboxStarter } from './http.js';

const START = Date.UTC(2026, 5, 1, 8, 0, 0);
const DAY = 86_400_000;

const sandbox = sandboxStarter(START);

const quotaUsed = async (s: RunningSandbox) =>
  (await call(s.url, '/track/v2/getquota', { key: s.key })).json.data.quota_used as number;

describe('GET /__sandbox/state', () => {
  it('shows clock, settings without the key, faults, request counts and the account', async () => {
    const s = await sandbox({ webhookUrl: 'http://127.0.0.1:9/hook', quotaTotal: 500, latencyMs: 5 });
    await call(s.url, '/track/v2/getquota', { key: s.key });
    await call(s.url, '/track/v2/getquota', { key: 'wrong' });
    const a = await control(s.url, 'state');
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({
      time: '2026-06-01T08:00:00.000Z',
      timeMs: START,
      speed: 0,
      rateLimit: 0,
      url: s.url,
      stateFile: null,
      settings: { webhookUrl: 'http://127.0.0.1:9/hook', quotaTotal: 500, maxTrackDaily: 0, disabled: false },
      faults: { latencyMs: 5, failureRate: 0 },
      requests: { total: 2, byStatus: { 200: 1, 401: 1 }, byOperation: { 'v2/getquota': 1 }, dropped: 0 },
    });
    expect(a.json.settings.key).toBeUndefined();
    expect(a.text).not.toContain(s.key);
    expect(typeof a.json.account).toBe('object');
    // Control requests are not counted as API requests.
    expect((await control(s.url, 'state')).json.requests.total).toBe(2);
  });

  it('answers 404 to unknown control paths and 400 to a body that is not JSON', async () => {
    const s = await sandbox();
    expect((await control(s.url, 'nothing', {})).status).toBe(404);
    expect((await call(s.url, '/__sandbox/faults', { body: '{' })).status).toBe(400);
  });
});

describe('POST /__sandbox/advance', () => {
  it('moves simulated time by seconds, ms or to a time, and never back', async () => {
    const s = await sandbox();
    let a = await control(s.url, 'advance', { seconds: 3600 });
    expect(a.status).toBe(200);
    expect(a.json.timeMs).toBe(START + 3_600_000);
    a = await control(s.url, 'advance', { ms: 500 });
    expect(a.json.timeMs).toBe(START + 3_600_500);
    a = await control(s.url, 'advance', { until: '2026-06-10T00:00:00Z' });
    expect(a.json.time).toBe('2026-06-10T00:00:00.000Z');
    expect(s.clock.now()).toBe(Date.UTC(2026, 5, 10));

    for (const body of [{ until: '2026-06-01T00:00:00Z' }, { seconds: -1 }, { until: 'tomorrow' }, {}]) {
      const bad = await control(s.url, 'advance', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(typeof bad.json.error).toBe('string');
    }
    expect(s.clock.now()).toBe(Date.UTC(2026, 5, 10));
  });

  it('lets the account process what fell due before answering', async () => {
    const s = await sandbox();
    const tick = vi.spyOn(s.account, 'tick');
    const a = await control(s.url, 'advance', { seconds: 60 });
    expect(a.status).toBe(200);
    expect(tick).toHaveBeenCalled();
  });
});

describe('POST /__sandbox/faults and /settings', () => {
  it('sets faults for the API, and refuses bad ones with 400', async () => {
    const s = await sandbox();
    const a = await control(s.url, 'faults', { failureRate: 1 });
    expect(a.status).toBe(200);
    expect(a.json.faults.failureRate).toBe(1);
    expect([500, 503]).toContain((await call(s.url, '/track/v2/getquota', { key: s.key })).status);
    expect((await control(s.url, 'faults', { failureRate: 0 })).status).toBe(200);
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    const bad = await control(s.url, 'faults', { failureRate: 3 });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/failureRate/);
  });

  it('changes console settings, speed and rate limit', async () => {
    const s = await sandbox();
    const a = await control(s.url, 'settings', {
      webhookUrl: 'http://127.0.0.1:9/x',
      quotaTotal: 10,
      maxTrackDaily: 3,
      realtimeAllowed: false,
      speed: 60,
      rateLimit: 1,
    });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({
      speed: 60,
      rateLimit: 1,
      settings: { webhookUrl: 'http://127.0.0.1:9/x', quotaTotal: 10, maxTrackDaily: 3, realtimeAllowed: false },
    });
    expect(s.account.settings.quotaTotal).toBe(10);
    expect(s.clock.speed).toBe(60);
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(200);
    expect((await call(s.url, '/track/v2/getquota', { key: s.key })).status).toBe(429);

    for (const body of [
      { webhookUrl: 'ftp://x' },
      { quotaTotal: -1 },
      { ipAllowList: ['300.1.1.1'] },
      { colour: 'red' },
    ]) {
      expect((await control(s.url, 'settings', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await control(s.url, 'settings', { webhookUrl: null })).json.settings.webhookUrl).toBeNull();
  });
});

describe('POST /__sandbox/reset', () => {
  it('empties the account and the counters, keeps settings and clock', async () => {
    const s = await sandbox({ quotaTotal: 77 });
    await register(s, 'RR100000001CN');
    await control(s.url, 'advance', { seconds: 10 });
    expect(await quotaUsed(s)).toBe(1);
    const a = await control(s.url, 'reset', {});
    expect(a.status).toBe(200);
    expect(a.json.requests.total).toBe(0);
    expect(a.json.timeMs).toBe(START + 10_000);
    expect(a.json.settings.quotaTotal).toBe(77);
    expect(await quotaUsed(s)).toBe(0);
    expect((await register(s, 'RR100000001CN')).json.data.accepted).toHaveLength(1);
  });
});

describe('simulated clock', () => {
  it('runs at the given speed', async () => {
    const s = await sandbox({ speed: 3600, time: clock() });
    const t0 = (await control(s.url, 'state')).json.timeMs as number;
    await clock().sleep(50);
    const t1 = (await control(s.url, 'state')).json.timeMs as number;
    // At least 50 real ms × 3600 = 3 simulated minutes.
    expect(t1 - t0).toBeGreaterThanOrEqual(180_000);
  });

  it('advances from code as well, ticking the account', async () => {
    const s = await sandbox();
    const tick = vi.spyOn(s.account, 'tick');
    await s.advance(2 * DAY);
    expect(s.clock.now()).toBe(START + 2 * DAY);
    expect(tick).toHaveBeenCalledTimes(1);
  });

  it('ticks the account on a timer', async () => {
    const s = await sandbox({ tickMs: 10 });
    const tick = vi.spyOn(s.account, 'tick');
    await vi.waitFor(() => expect(tick.mock.calls.length).toBeGreaterThanOrEqual(2), { timeout: 2000 });
  });
});

describe('persistence', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'trk-sandbox-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps account, settings and simulated time across a restart', async () => {
    const stateFile = path.join(dir, 'sub', 'sandbox.json');
    const first = await startSandbox({ stateFile, speed: 0, start: START, rateLimit: 0, quotaTotal: 1234 });
    expect((await register(first, 'RR200000001CN')).json.data.accepted).toHaveLength(1);
    await first.advance(3 * DAY);
    await first.close();

    const saved = JSON.parse(await readFile(stateFile, 'utf8'));
    expect(saved.version).toBe(1);
    expect(saved.clock.time).toBe(START + 3 * DAY);
    expect(saved.settings.quotaTotal).toBe(1234);
    expect(saved.account).toBeTypeOf('object');

    const second = await startSandbox({ stateFile, speed: 0, rateLimit: 0 });
    try {
      // Simulated time stood still while the sandbox was down (no catch-up asked).
      expect(second.clock.now()).toBe(START + 3 * DAY);
      expect(second.account.settings.quotaTotal).toBe(1234);
      expect(await quotaUsed(second)).toBe(1);
      const again = await register(second, 'RR200000001CN');
      expect(again.json.data.rejected[0].error.code).toBe(-18019901);
    } finally {
      await second.close();
    }
  });

  it('lets options given at start win over saved settings, and catches up time when asked', async () => {
    const stateFile = path.join(dir, 'sandbox.json');
    const time = clock();
    const first = await startSandbox({ stateFile, speed: 0, start: START, rateLimit: 0, quotaTotal: 5, time });
    await first.close();
    await clock().sleep(20);
    const second = await startSandbox({ stateFile, speed: 0, rateLimit: 0, quotaTotal: 9, catchUp: 3_600_000, time });
    try {
      expect(second.account.settings.quotaTotal).toBe(9);
      // 20+ real ms down × 3600 s per ms = at least 20 hours.
      expect(second.clock.now()).toBeGreaterThanOrEqual(START + 20 * 3_600_000);
    } finally {
      await second.close();
    }
  });

  it('saves soon after a change, without waiting for close', async () => {
    const stateFile = path.join(dir, 'sandbox.json');
    const s = await startSandbox({ stateFile, speed: 0, start: START, rateLimit: 0 });
    try {
      await register(s, 'RR300000001CN');
      await vi.waitFor(
        async () => {
          const text = await readFile(stateFile, 'utf8');
          expect(text).toContain('RR300000001CN');
        },
        { timeout: 5000, interval: 100 },
      );
    } finally {
      await s.close();
    }
  });

  it('refuses to start on a corrupt state file', async () => {
    const stateFile = path.join(dir, 'sandbox.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(stateFile, 'garbage');
    const err = await startSandbox({ stateFile }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/not valid JSON/);
    expect((err as { toLine(): string }).toLine()).toMatch(/trk sandbox reset/);
  });
});

describe('listening errors', () => {
  it('says when the port is taken', async () => {
    const s = await sandbox();
    const err = await startSandbox({ port: s.port }).catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/EADDRINUSE/);
    expect((err as { toLine(): string }).toLine()).toMatch(/--port/);
  });
});
