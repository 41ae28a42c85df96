// The reference lists of the simulated world: their format against the service's own lists, and the emulator
// serving them over HTTP on 127.0.0.1 at a res URL's paths (no key, outside the API's limits and faults).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadList } from '../../src/carriers/lists.js';
import { parseCarriers, parseCountries } from '../../src/carriers/parse.js';
import { sandboxCarrierList, sandboxCountryList } from '../../src/sandbox/reference-lists.js';
import { SIM_CARRIERS } from '../../src/sandbox/world/carriers.js';
import { COUNTRIES, v1CountryCode } from '../../src/sandbox/world/places.js';
import { call, sandboxStarter } from './http.js';
import { fixtureJson } from '../fixture-files.js';

const real = (file: string) => fixtureJson<Record<string, unknown>[]>(`reference/${file}`);
const CARRIERS_PATH = '/asset/carrier/info/apicarrier.all.json';
const COUNTRIES_PATH = '/asset/carrier/info/country.all.json';

const sandbox = sandboxStarter(Date.UTC(2026, 5, 1, 8, 0, 0));

describe('the lists of the simulated world', () => {
  it('has every simulated carrier with exactly the fields of the service list', () => {
    const list = sandboxCarrierList();
    const realFields = Object.keys(real('apicarrier.all.json')[0]!).sort();
    expect(list.map((c) => c.key)).toEqual(SIM_CARRIERS.map((c) => c.key));
    for (const entry of list) expect(Object.keys(entry).sort()).toEqual(realFields);
  });

  it('agrees with the service list on names, localised names, URL and group', () => {
    const byKey = new Map(real('apicarrier.all.json').map((c) => [c.key, c]));
    for (const entry of sandboxCarrierList()) {
      const r = byKey.get(entry.key);
      expect(r, `carrier ${entry.key}`).toBeDefined();
      for (const field of ['_name', '_name_zh-cn', '_name_zh-hk', '_url', '_group'] as const) {
        expect(entry[field], `${entry.key} ${field}`).toBe(r![field]);
      }
    }
    expect(sandboxCarrierList().find((c) => c.key === 3011)).toMatchObject({
      _name: 'China Post',
      '_name_zh-cn': '中国邮政',
      _country: 301,
      _country_iso: 'CN',
      _group: '',
    });
  });

  it('gives countries the keys the world sends in v1, named as the service names them', () => {
    const countries = sandboxCountryList();
    const realNames = new Map(real('country.all.json').map((c) => [c.key, c._name]));
    expect(countries.map((c) => c.key).sort()).toEqual(Object.values(COUNTRIES).map((c) => c.code).sort());
    for (const c of countries) expect(c._name).toBe(realNames.get(c.key));
    // Every carrier's country is in the country list, under the same key as v1 answers carry.
    const keys = new Set(countries.map((c) => c.key));
    for (const c of sandboxCarrierList()) {
      expect(keys.has(c._country)).toBe(true);
      expect(c._country).toBe(v1CountryCode(c._country_iso));
    }
  });

  it('reads back through the carrier list parser', () => {
    const carriers = parseCarriers(sandboxCarrierList());
    expect(carriers).toHaveLength(SIM_CARRIERS.length);
    expect(carriers.find((c) => c.key === 3011)).toMatchObject({ name: 'China Post', countryIso: 'CN', countryKey: 301 });
    expect(parseCountries(sandboxCountryList()).find((c) => c.key === 2105)?.name).toBe('United States');
  });
});

describe('the emulator serving the lists', () => {
  it('answers GET without a key, as JSON with a length', async () => {
    const s = await sandbox();
    const carriers = await call(s.url, CARRIERS_PATH, { method: 'GET' });
    expect(carriers.status).toBe(200);
    expect(carriers.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(carriers.headers['content-length'])).toBe(Buffer.byteLength(carriers.text));
    expect(carriers.json).toEqual(sandboxCarrierList());
    const countries = await call(s.url, COUNTRIES_PATH, { method: 'GET' });
    expect(countries.status).toBe(200);
    expect(countries.json).toEqual(sandboxCountryList());
  });

  it('keeps them out of the API: no rate limit, no faults, not counted', async () => {
    const s = await sandbox({ rateLimit: 1 });
    s.setFaults({ burst429: 5, failureRate: 1 });
    for (let i = 0; i < 3; i += 1) expect((await call(s.url, CARRIERS_PATH, { method: 'GET' })).status).toBe(200);
    expect(s.state().requests.total).toBe(0);
  });

  it('serves only GET at exactly those paths', async () => {
    const s = await sandbox();
    expect((await call(s.url, CARRIERS_PATH, { method: 'POST', key: s.key })).status).toBe(404);
    expect((await call(s.url, `${CARRIERS_PATH}/`, { method: 'GET' })).status).toBe(404);
    expect((await call(s.url, '/asset/carrier/info/other.all.json', { method: 'GET' })).status).toBe(404);
  });

  it('works as a res URL for the list loader', async () => {
    const s = await sandbox();
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'trk-sandbox-res-'));
    try {
      const opts = { resUrl: s.url, cacheDir, now: () => Date.now(), env: {}, warn: () => {} };
      const carriers = await loadList('carriers', opts);
      expect(carriers.origin).toBe('network');
      expect(parseCarriers(carriers.items).map((c) => c.key)).toContain(3011);
      const countries = await loadList('countries', opts);
      expect(parseCountries(countries.items).map((c) => c.key)).toContain(301);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
