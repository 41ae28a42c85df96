// The service's reference lists (kept by @trk/service): the same bytes as the recorded lists, the catalogue of
// the simulated world, and served by the emulator over HTTP on 127.0.0.1 at a res URL's paths (no key, outside
// the API's limits and faults). trk's reading of them (its parser, its loader) is held in trk's tests
// (test/carriers/emulator-lists.test.ts).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referenceListBytes } from '../src/reference-lists.js';
import { findCarrier, SIM_CARRIERS } from '../src/world/carriers.js';
import { countryOf, v1CountryCode } from '../src/world/places.js';
import { fixtureBytes, fixtureJson } from '../../../test/fixture-files.js';
import { call, sandboxStarter } from './http.js';

const real = (file: string) => fixtureJson<Record<string, any>[]>(`reference/${file}`);
const CARRIERS_PATH = '/asset/carrier/info/apicarrier.all.json';
const COUNTRIES_PATH = '/asset/carrier/info/country.all.json';

const sandbox = sandboxStarter(Date.UTC(2026, 5, 1, 8, 0, 0));

describe('the lists of @trk/service', () => {
  it('are what the emulator reads, the recorded lists byte for byte, and what the service package ships', () => {
    expect(referenceListBytes('carriers').equals(fixtureBytes('reference/apicarrier.all.json'))).toBe(true);
    expect(referenceListBytes('countries').equals(fixtureBytes('reference/country.all.json'))).toBe(true);
    const manifest = new URL('../../service/package.json', import.meta.url);
    expect((JSON.parse(readFileSync(fileURLToPath(manifest), 'utf8')) as { files: string[] }).files).toContain('data');
  });
});

describe('the carriers of the simulated world', () => {
  it('are every carrier of the service list, and nothing else', () => {
    const list = real('apicarrier.all.json');
    expect(list).toHaveLength(2621);
    for (const entry of list) expect(findCarrier(entry.key)?.key, `carrier ${entry.key}`).toBe(entry.key);
    const keys = new Set(list.map((c) => c.key as number));
    for (const code of [0, 1, 99, 100_000, 999_999, 123_456_789]) {
      expect(keys.has(code)).toBe(false);
      expect(findCarrier(code), `code ${code}`).toBeUndefined();
    }
  });

  it('keep the 25 simulated in detail as they were; the rest are generic, from their list entry', () => {
    expect(SIM_CARRIERS).toHaveLength(25);
    for (const c of SIM_CARRIERS) expect(findCarrier(c.key)).toBe(c);
    // Correos Express (Spain), an express carrier: domestic parcels in Spain, in Madrid's offset.
    const correosExpress = findCarrier(100048)!;
    expect(SIM_CARRIERS.some((c) => c.key === 100048)).toBe(false);
    expect(correosExpress).toMatchObject({
      name: 'Correos Express',
      country: 'ES',
      postal: false,
      origins: ['ES'],
      destinations: ['ES'],
      utcOffsetMinutes: 60,
      homepage: 'https://www.correosexpress.com/',
    });
    // An e-commerce consolidator ships abroad; a carrier without a country ships from anywhere.
    expect(findCarrier(190135)).toMatchObject({ country: 'CN', origins: ['CN'], destinations: [] });
    expect(findCarrier(100289)).toMatchObject({ country: null, origins: [], destinations: [] });
    // Names are trimmed (the list has " LAARCOURIER").
    expect(findCarrier(101073)?.name).toBe('LAARCOURIER');
  });

  it('give countries the keys of the lists, with a place to ship from', () => {
    const names = new Map(real('country.all.json').map((c) => [c.key as number, c._name as string]));
    for (const c of real('apicarrier.all.json')) {
      if (!c._country_iso) continue;
      expect(v1CountryCode(c._country_iso), c._country_iso).toBe(c._country);
      const country = countryOf(c._country_iso)!;
      expect(country.name).toBe(names.get(c._country) ?? c._country_iso);
      expect(country.hub.city, c._country_iso).toMatch(/\S/);
    }
    expect(countryOf('ES')).toMatchObject({
      code: 1918,
      name: 'Spain',
      hub: { city: 'MADRID', state: null, postalCode: null },
    });
    // The detailed countries keep their cities, states and postal codes.
    expect(countryOf('CN')?.cities.length).toBeGreaterThan(1);
    expect(countryOf('ZZ')).toBeUndefined();
  });
});

describe('the emulator serving the lists', () => {
  it('answers GET without a key with the whole lists, byte for byte, as JSON with a length', async () => {
    const s = await sandbox();
    const carriers = await call(s.url, CARRIERS_PATH, { method: 'GET' });
    expect(carriers.status).toBe(200);
    expect(carriers.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(carriers.headers['content-length'])).toBe(Buffer.byteLength(carriers.text));
    expect(carriers.text).toBe(fixtureBytes('reference/apicarrier.all.json').toString('utf8'));
    expect(carriers.json).toHaveLength(2621);
    const countries = await call(s.url, COUNTRIES_PATH, { method: 'GET' });
    expect(countries.status).toBe(200);
    expect(countries.text).toBe(fixtureBytes('reference/country.all.json').toString('utf8'));
    expect(countries.json).toHaveLength(229);
  });

  it('keeps them out of the API: no rate limit, no faults, not counted', async () => {
    const s = await sandbox({ rateLimit: 1 });
    s.setFaults({ burst429: 5, failureRate: 1 });
    for (let i = 0; i < 3; i += 1) expect((await call(s.url, CARRIERS_PATH, { method: 'GET' })).status).toBe(200);
    expect(s.state().requests.total).toBe(0);
  });

  it('serves only GET (and HEAD) at those paths', async () => {
    const s = await sandbox();
    expect((await call(s.url, CARRIERS_PATH, { method: 'POST', key: s.key })).status).toBe(404);
    expect((await call(s.url, '/asset/carrier/info/other.all.json', { method: 'GET' })).status).toBe(404);
  });
});
