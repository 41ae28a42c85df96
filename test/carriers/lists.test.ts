import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  cachePath,
  describeList,
  formatAge,
  listUrl,
  loadList,
  readCachedList,
  STALE_AFTER_MS,
  type LoadListOptions,
} from '../../src/carriers/lists.js';
import { TrkError } from '../../src/core/errors.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

const DAY = 24 * 60 * 60 * 1000;
const CARRIERS = 'apicarrier.all.json';
let server: ReferenceServer;
let cacheDir: string;
let now: number;
let warnings: string[];

beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'trk-cache-'));
  now = Date.parse('2025-03-01T12:00:00Z');
  warnings = [];
  server.hits = {};
  server.failWith = undefined;
});
afterEach(() => rm(cacheDir, { recursive: true, force: true }));

const opts = (extra: Partial<LoadListOptions> = {}): LoadListOptions => ({
  resUrl: `${server.url}/`,
  cacheDir,
  now: () => now,
  env: {},
  warn: (l) => warnings.push(l),
  ...extra,
});

describe('loadList', () => {
  it('fetches once, then serves the cached copy with its fetch time', async () => {
    const first = await loadList('carriers', opts());
    expect(first.origin).toBe('network');
    expect(first.items).toHaveLength(2621);
    expect(first.url).toBe(`${server.url}/asset/carrier/info/apicarrier.all.json`);
    now += 3 * DAY;
    const second = await loadList('carriers', opts());
    expect(second.origin).toBe('cache');
    expect(second.fetchedAt).toBe(first.fetchedAt);
    expect(second.items).toEqual(first.items);
    expect(server.hits[CARRIERS]).toBe(1);
    expect(describeList(second, 2621, ['carrier', 'carriers'], now)).toBe(
      `2621 carriers (fetched 3 days ago from ${first.url})`,
    );
    const file = cachePath(cacheDir, 'carriers', first.url);
    expect(path.basename(file)).toMatch(/^apicarrier\.all\.127\.0\.0\.1_\d+-[0-9a-f]{16}\.json$/);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      url: first.url,
      fetched_at: '2025-03-01T12:00:00.000Z',
    });
  });

  it('refetches with refresh, and when the copy is older than a week', async () => {
    await loadList('carriers', opts());
    expect((await loadList('carriers', opts({ refresh: true }))).origin).toBe('network');
    expect(server.hits[CARRIERS]).toBe(2);
    now += STALE_AFTER_MS - 1;
    expect((await loadList('carriers', opts())).origin).toBe('cache');
    now += 2;
    const fresh = await loadList('carriers', opts());
    expect(fresh.origin).toBe('network');
    expect(fresh.fetchedAt).toBe(now);
    expect(server.hits[CARRIERS]).toBe(3);
  });

  it('falls back to a stale copy with a warning when the service cannot be reached', async () => {
    await loadList('carriers', opts());
    now += 10 * DAY;
    server.failWith = 503;
    const stale = await loadList('carriers', opts());
    expect(stale.origin).toBe('stale');
    expect(stale.items).toHaveLength(2621);
    expect(warnings).toEqual([
      expect.stringMatching(
        /could not refresh the carrier list from .* \(HTTP 503\); using the copy fetched 10 days ago/,
      ),
    ]);
    expect(describeList(stale, 2621, ['carrier', 'carriers'], now)).toMatch(/fetched 10 days ago, could not refresh/);
  });

  it('fails without any copy when the service cannot be reached', async () => {
    server.failWith = 500;
    await expect(loadList('countries', opts())).rejects.toThrow(TrkError);
    await expect(loadList('countries', opts())).rejects.toThrow(
      /could not fetch the country list from .*country\.all\.json: HTTP 500/,
    );
    await expect(loadList('countries', opts({ resUrl: 'http://127.0.0.1:9' }))).rejects.toThrow(/could not fetch/);
  });

  it('refuses answers that are not a JSON list', async () => {
    const saved = server.bodies['country.all.json']!;
    try {
      server.bodies['country.all.json'] = '{"not":"a list"}';
      await expect(loadList('countries', opts())).rejects.toThrow(/not a list/);
      server.bodies['country.all.json'] = '<html>';
      await expect(loadList('countries', opts())).rejects.toThrow(/not JSON/);
    } finally {
      server.bodies['country.all.json'] = saved;
    }
  });

  it('stops reading a list larger than the limit, and names the limit', async () => {
    const err = await loadList('carriers', opts({ maxBytes: 64 * 1024 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrkError);
    expect((err as TrkError).message).toMatch(
      /could not fetch the carrier list from .*: the answer is larger than 64 KB$/,
    );
  });

  it('keeps a copy per res URL: one never answers for another, even offline', async () => {
    const mine = await loadList('carriers', opts());
    const second = await startReferenceServer();
    const secondUrl = listUrl(second.url, 'carriers');
    try {
      // A list of its own at the second address: 25 carriers, as a sandbox's might be.
      second.bodies[CARRIERS] = JSON.stringify(
        (JSON.parse(server.bodies[CARRIERS]!.toString()) as unknown[]).slice(0, 25),
      );
      const other = await loadList('carriers', opts({ resUrl: second.url }));
      expect(other.origin).toBe('network');
      expect(other.items).toHaveLength(25);
      expect(second.hits[CARRIERS]).toBe(1);
      expect((await readCachedList(cacheDir, 'carriers', secondUrl))!.items).toHaveLength(25);
    } finally {
      await second.close();
    }
    // Each address still has its own copy...
    expect((await readCachedList(cacheDir, 'carriers', mine.url))!.items).toHaveLength(2621);
    expect((await loadList('carriers', opts())).origin).toBe('cache');
    // ...and an address never fetched has none, fresh or stale, even when fetching fails.
    const never = 'http://127.0.0.1:9';
    expect(await readCachedList(cacheDir, 'carriers', listUrl(never, 'carriers'))).toBeUndefined();
    await expect(loadList('carriers', opts({ resUrl: never }))).rejects.toThrow(
      /could not fetch the carrier list from http:\/\/127\.0\.0\.1:9\//,
    );
    expect(warnings).toEqual([]);
  });

  it('refetches when the cache file is damaged, or names another URL inside', async () => {
    const first = await loadList('carriers', opts());
    const file = cachePath(cacheDir, 'carriers', first.url);
    await writeFile(file, '{"half');
    expect(await readCachedList(cacheDir, 'carriers', first.url)).toBeUndefined();
    expect((await loadList('carriers', opts())).origin).toBe('network');
    expect(server.hits[CARRIERS]).toBe(2);
    // A file copied from another host's cache is not taken for this one.
    await writeFile(
      file,
      JSON.stringify({ url: 'https://elsewhere.test/x', fetched_at: new Date(now).toISOString(), items: [] }),
    );
    expect(await readCachedList(cacheDir, 'carriers', first.url)).toBeUndefined();
  });

  it('works on when the cache folder cannot be written', async () => {
    const file = path.join(cacheDir, 'a-file');
    await writeFile(file, '');
    const list = await loadList('countries', opts({ cacheDir: path.join(file, 'sub') }));
    expect(list.origin).toBe('network');
    expect(warnings).toEqual([expect.stringMatching(/could not cache the country list/)]);
  });
});

describe('helpers', () => {
  it('builds list URLs from res-url', () => {
    expect(listUrl('https://res.example.net/', 'countries')).toBe(
      'https://res.example.net/asset/carrier/info/country.all.json',
    );
  });

  it('formats ages', () => {
    expect(formatAge(5_000)).toBe('just now');
    expect(formatAge(60_000)).toBe('1 minute ago');
    expect(formatAge(5 * 3600_000)).toBe('5 hours ago');
    expect(formatAge(DAY)).toBe('1 day ago');
    expect(formatAge(-DAY)).toBe('just now');
  });
});
