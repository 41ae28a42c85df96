import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { carrierNames, carrierResolver, countryNames } from '../../src/carriers/lookup.js';
import { AmbiguousCarrierError } from '../../src/carriers/search.js';
import { UsageError } from '../../src/core/errors.js';
import { runCarriers } from '../../src/commands/reference/carriers.js';
import { runCountries } from '../../src/commands/reference/countries.js';
import type { OutputFormat } from '../../src/output/format.js';
import { fakeContext } from '../fake-context.js';
import { startReferenceServer, type ReferenceServer } from './reference-server.js';

const DAY = 24 * 60 * 60 * 1000;
let server: ReferenceServer;
let cacheDir: string;

beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  cacheDir = await mkdtemp(path.join(tmpdir(), 'trk-carriers-'));
  server.hits = {};
  server.failWith = undefined;
});
afterEach(() => rm(cacheDir, { recursive: true, force: true }));

const ctxFor = (output?: OutputFormat, now = Date.parse('2025-03-01T12:00:00Z')) =>
  fakeContext({
    settings: { resUrl: server.url },
    env: { TRK_CACHE_DIR: cacheDir },
    now,
    ...(output ? { global: { output } } : {}),
  });

describe('trk carriers', () => {
  it('prints the matching carriers as the service sent them with --json, and the list age on stderr', async () => {
    const ctx = ctxFor('json');
    expect(await runCarriers({ query: 'DHL Express' }, ctx)).toBe(0);
    const items = JSON.parse(ctx.io.stdoutText());
    expect(items[0]).toEqual(expect.objectContaining({ key: 100001, _name: 'DHL Express', _country_iso: 'DE' }));
    expect(items.every((i: { _name: string }) => /dhl express/i.test(i._name))).toBe(true);
    expect(ctx.io.stderrText()).toMatch(/match "DHL Express"/);
    expect(ctx.io.stderrText()).toMatch(
      /2621 carriers \(fetched just now from http:\/\/127\.0\.0\.1:\d+\/asset\/carrier\/info\/apicarrier\.all\.json\)/,
    );
  });

  it('shows key, name, country and url columns, using the cache the second time', async () => {
    await runCarriers({}, ctxFor('json'));
    const later = ctxFor(undefined, Date.parse('2025-03-03T12:00:00Z'));
    await runCarriers({ query: '3011' }, later);
    expect(later.io.stdoutText().split('\n')[0]).toBe('3011\tChina Post\tCN\thttps://yjcx.ems.com.cn/');
    expect(later.io.stderrText()).toMatch(/fetched 2 days ago/);
    expect(server.hits['apicarrier.all.json']).toBe(1);
  });

  it('refetches with --refresh', async () => {
    await runCarriers({}, ctxFor('json'));
    const ctx = ctxFor('csv');
    await runCarriers({ query: 'usps', refresh: true }, ctx);
    expect(server.hits['apicarrier.all.json']).toBe(2);
    expect(ctx.io.stdoutText().split('\n').slice(0, 2)).toEqual([
      'key,name,country,url',
      '21051,USPS,US,https://www.usps.com/',
    ]);
  });

  it('uses an old copy when offline, with a warning', async () => {
    await runCarriers({}, ctxFor('json'));
    server.failWith = 503;
    const ctx = ctxFor('json', Date.parse('2025-03-01T12:00:00Z') + 30 * DAY);
    expect(await runCarriers({ query: 'yanwen' }, ctx)).toBe(0);
    expect(JSON.parse(ctx.io.stdoutText())[0].key).toBe(190012);
    expect(ctx.io.stderrText()).toMatch(
      /warning: could not refresh the carrier list .* using the copy fetched 30 days ago/,
    );
  });

  it('prints an empty list and exits 0 when nothing matches', async () => {
    const ctx = ctxFor('json');
    expect(await runCarriers({ query: 'zzqqxx' }, ctx)).toBe(0);
    expect(JSON.parse(ctx.io.stdoutText())).toEqual([]);
  });
});

describe('trk countries', () => {
  it('searches the country list and shows ISO codes learnt from the carriers', async () => {
    const ctx = ctxFor();
    expect(await runCountries({ query: 'de' }, ctx)).toBe(0);
    expect(ctx.io.stdoutText().split('\n')[0]).toBe('704\tDE\tGermany');
    const json = ctxFor('json');
    await runCountries({ query: 'island' }, json);
    const items = JSON.parse(json.io.stdoutText());
    expect(items).toContainEqual({ key: 9102, _name: 'Åaland Islands [FI]' }); // as sent, no ISO added
    expect(items.every((i: { _name: string }) => /island/i.test(i._name))).toBe(true);
    expect(ctx.io.stderrText()).toMatch(/229 countries \(fetched just now/);
  });

  it('works without the carrier list, leaving ISO codes empty', async () => {
    const saved = server.bodies['apicarrier.all.json']!;
    server.bodies['apicarrier.all.json'] = 'oops';
    try {
      const ctx = ctxFor();
      expect(await runCountries({ query: 'germany' }, ctx)).toBe(0);
      expect(ctx.io.stdoutText()).toBe('704\t\tGermany\n');
      expect(ctx.io.stderrText()).toMatch(/warning: no ISO codes/);
    } finally {
      server.bodies['apicarrier.all.json'] = saved;
    }
  });
});

describe('lookups for other commands', () => {
  it('carrierNames and countryNames read the cache only', async () => {
    const ctx = ctxFor();
    expect((await carrierNames(ctx))(100001)).toBeUndefined();
    expect(server.hits).toEqual({});
    await runCountries({}, ctxFor('json')); // fetches and caches both lists
    const names = await carrierNames(ctx);
    expect(names(100001)).toBe('DHL Express');
    expect(names(101073)).toBe('LAARCOURIER');
    expect(names(42)).toBeUndefined();
    const countries = await countryNames(ctx);
    expect(countries(2105)).toBe('US');
    expect(countries(9102)).toBe('AX');
    expect(countries(108)).toBe('Antarctica'); // no carrier there, so no ISO code: the name
    expect(countries(1)).toBeUndefined();
  });

  it('carrierResolver takes codes without fetching and fetches once for names', async () => {
    const resolve = carrierResolver(ctxFor());
    expect(await resolve('99999999')).toBe(99999999); // no cached list: taken as given
    expect(server.hits).toEqual({});
    expect(await resolve('DHL Express')).toBe(100001);
    expect(await resolve('dhl paket')).toBe(7041);
    await expect(resolve('DHL')).rejects.toBeInstanceOf(AmbiguousCarrierError);
    expect(resolve('99999999')).toBe(99999999); // remembered: answered at once
    await expect(resolve('99999998')).rejects.toThrow(/unknown carrier code/); // checked now that the list is here
    expect(server.hits['apicarrier.all.json']).toBe(1);
  });

  it('carrierResolver settles words for no carrier and number-like values without the list', async () => {
    const resolve = carrierResolver(ctxFor());
    for (const none of ['Other', 'unknown', '-', 'N/A', 'n.a.', 'Sonstige', ' '])
      expect(await resolve(none)).toBeUndefined();
    await expect(resolve('-1')).rejects.toThrow('carrier "-1" is not a carrier code');
    await expect(resolve('3011.0')).rejects.toThrow(UsageError);
    expect(() => resolve('-1')).toThrow(UsageError); // remembered
    expect(server.hits).toEqual({});
  });
});
