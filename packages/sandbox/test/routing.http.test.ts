// Request paths over HTTP on 127.0.0.1: the lenient default (duplicate slashes, a trailing slash and letter
// case do not matter, as clients built against the live service expect), the exact paths of `strictPaths`, and
// the later versions v2.2 to v2.4 served with v2.1's semantics.

import { describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../src/index.js';
import { call, sandboxStarter } from './http.js';

const start = sandboxStarter(Date.UTC(2026, 5, 1, 8, 0, 0));
const lenient = (opts: SandboxOptions = {}) => start({ strictPaths: false, ...opts });
const strict = (opts: SandboxOptions = {}) => start({ strictPaths: true, ...opts });

/** Variants real clients send, each naming an operation the spec has. */
const VARIANTS: [string, string][] = [
  ['duplicate slash at the start', '//track/v2/getquota'],
  ['duplicate slashes inside', '/track//v2///getquota'],
  ['trailing slash', '/track/v2/getquota/'],
  ['v1 retrack in lower case', '/track/v1/retrack'],
  ['v1 deletetrack in lower case', '/track/v1/deletetrack'],
  ['v2 retrack with v1 casing', '/track/v2/Retrack'],
  ['operation in other letter case', '/track/v2/GetQuota'],
  ['real time in lower case', '/track/v2/getrealtimetrackinfo'],
  ['everything at once', '//track/v2.1//gettrackinfo/'],
];

async function status(url: string, key: string, path: string, body = '[]'): Promise<number> {
  return (await call(url, path, { key, body })).status;
}

describe('lenient paths (the default)', () => {
  it.each(VARIANTS)('%s: %s reaches its operation', async (_why, path) => {
    const s = await lenient();
    const a = await call(s.url, path, {
      key: s.key,
      body: path.toLowerCase().includes('realtime') ? '[{"number":"RR123456789CN"}]' : '[]',
    });
    expect(a.status).toBe(200);
    expect(a.json.code).toBe(0);
  });

  it('counts a request under the operation it reached', async () => {
    const s = await lenient();
    await call(s.url, '/track/v1/retrack', { key: s.key, body: '[]' });
    expect(s.state().requests.byOperation).toEqual({ 'v1/retrack': 1 });
  });

  it('is the default of startSandbox', async () => {
    const s = await start({ strictPaths: undefined });
    expect(await status(s.url, s.key, '//track/v2/getquota')).toBe(200);
  });

  it('still answers 404 to what names no operation', async () => {
    const s = await lenient();
    for (const path of [
      '/track/v1/getquota',
      '/track/v2/nothing',
      '/track/v9/register',
      '/track/v2',
      '/',
      '/track/v2/register/x',
    ]) {
      expect(await status(s.url, s.key, path), path).toBe(404);
    }
    expect((await call(s.url, '/track/v2/getquota', { key: s.key, method: 'GET' })).status).toBe(404);
  });

  it('serves the res URL lists with slashes collapsed too', async () => {
    const s = await lenient();
    expect((await call(s.url, '//asset/carrier/info/country.all.json', { method: 'GET' })).status).toBe(200);
  });
});

describe('strict paths (strictPaths, --strict-paths)', () => {
  it.each(VARIANTS)('%s: %s is 404', async (_why, path) => {
    const s = await strict();
    expect(
      await status(s.url, s.key, path, path.toLowerCase().includes('realtime') ? '[{"number":"RR123456789CN"}]' : '[]'),
    ).toBe(404);
  });

  it('serves the exact paths in each version casing', async () => {
    const s = await strict();
    for (const path of [
      '/track/v1/Retrack',
      '/track/v1/deleteTrack',
      '/track/v2/retrack',
      '/track/v2/getquota',
      '/track/v2.1/deletetrack',
    ]) {
      expect(await status(s.url, s.key, path), path).toBe(200);
    }
  });
});

describe('versions after v2.1', () => {
  it.each(['v2.2', 'v2.3', 'v2.4'])('%s answers with v2.1 semantics, in both modes', async (version) => {
    for (const s of [await lenient(), await strict()]) {
      const reg = await call(s.url, `/track/${version}/register`, {
        key: s.key,
        body: JSON.stringify([{ number: `RR12345678${version.at(-1)}CN` }]),
      });
      expect(reg.status).toBe(200);
      // v2.1's accepted items carry email and lang; v2's do not.
      expect(Object.keys(reg.json.data.accepted[0])).toEqual(['origin', 'number', 'carrier', 'email', 'lang', 'tag']);
      const list = await call(s.url, `/track/${version}/gettracklist`, { key: s.key, body: '{}' });
      expect(list.json.data.accepted[0]).toHaveProperty('days_after_order');
      expect(s.state().requests.byOperation[`${version}/register`]).toBe(1);
      expect(await status(s.url, s.key, `/track/${version}/getRealTimeTrackInfo`, '[{"number":"RR123456789CN"}]')).toBe(
        200,
      );
    }
  });

  it('v2.5 and later are not served', async () => {
    const s = await lenient();
    expect(await status(s.url, s.key, '/track/v2.5/getquota')).toBe(404);
    expect(await status(s.url, s.key, '/track/v3/getquota')).toBe(404);
  });
});
