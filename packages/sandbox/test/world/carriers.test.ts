import { describe, expect, it } from 'vitest';
import { REALTIME_UNSUPPORTED_CARRIERS } from '@trk/service/vocabulary.js';
import { PARAM_REQUIRED_CODE, SIM_CARRIERS, findCarrier, postalCarrierOf } from '../../src/world/carriers.js';
import { COUNTRIES, v1CountryCode } from '../../src/world/places.js';
import { fixtureJson } from './helpers.js';

interface RefCarrier {
  key: number | string;
  _name: string;
  _group: string;
}

const reference = new Map(fixtureJson<RefCarrier[]>('reference/apicarrier.all.json').map((c) => [Number(c.key), c]));
const countries = new Map(
  fixtureJson<Array<{ key: number; _name: string }>>('reference/country.all.json').map((c) => [c.key, c._name]),
);

describe('simulated carriers', () => {
  it('are real carriers of the service list, named as it names them', () => {
    expect(SIM_CARRIERS.length).toBeGreaterThanOrEqual(20);
    for (const c of SIM_CARRIERS) {
      const ref = reference.get(c.key);
      expect(ref, `carrier ${c.key}`).toBeDefined();
      expect(ref?._name.trim()).toBe(c.alias);
    }
  });

  it('are postal exactly when the list puts them in the postal group', () => {
    for (const c of SIM_CARRIERS) expect(c.postal, `carrier ${c.key}`).toBe(reference.get(c.key)?._group === '');
  });

  it('include the carriers the emulator relies on', () => {
    const postal = [3011, 21051, 11031, 1151, 2151, 7041, 6051, 10021, 3041];
    const others = [190012, 190271, 100003, 100001, 100002, 101066, 100766];
    for (const key of postal) expect(findCarrier(key)?.postal, `carrier ${key}`).toBe(true);
    for (const key of others) expect(findCarrier(key)?.postal, `carrier ${key}`).toBe(false);
    expect(findCarrier(7047)).toBeDefined();
    expect(findCarrier(999999)).toBeUndefined();
  });

  it('refuse real time exactly for the carriers the service names', () => {
    const refused = SIM_CARRIERS.filter((c) => !c.realtime)
      .map((c) => c.key)
      .sort();
    expect(refused).toEqual([...REALTIME_UNSUPPORTED_CARRIERS].sort());
  });

  it('have one non-postal carrier for each extra parameter form', () => {
    for (const form of Object.keys(PARAM_REQUIRED_CODE)) {
      const withForm = SIM_CARRIERS.filter((c) => c.param === form);
      expect(withForm.length, form).toBeGreaterThanOrEqual(1);
      expect(withForm.every((c) => !c.postal)).toBe(true);
    }
    expect(PARAM_REQUIRED_CODE).toEqual({
      CountryPostalCode: -18010018,
      PostalCode: -18010019,
      PhoneLast4Digits: -18010020,
      Date: -18010022,
    });
  });

  it('have unique codes, sane offsets and their countries simulated', () => {
    expect(new Set(SIM_CARRIERS.map((c) => c.key)).size).toBe(SIM_CARRIERS.length);
    for (const c of SIM_CARRIERS) {
      expect(Math.abs(c.utcOffsetMinutes)).toBeLessThanOrEqual(14 * 60);
      expect(COUNTRIES[c.country ?? ''], `${c.key} country`).toBeDefined();
      for (const iso of [...c.origins, ...c.destinations]) expect(COUNTRIES[iso], `${c.key} ${iso}`).toBeDefined();
    }
  });

  it('give every simulated country a postal operator', () => {
    for (const iso of Object.keys(COUNTRIES)) expect(postalCarrierOf(iso)?.country).toBe(iso);
    expect(postalCarrierOf('US')?.key).toBe(21051);
    expect(postalCarrierOf('ZZ')).toBeUndefined();
  });
});

describe('v1 country codes', () => {
  it('are keys of the service country list with the right country', () => {
    for (const c of Object.values(COUNTRIES)) expect(countries.get(c.code), c.iso).toBe(c.name);
    expect(v1CountryCode('CN')).toBe(301);
    expect(v1CountryCode('us')).toBe(2105);
    expect(v1CountryCode('GB')).toBe(1103);
    expect(v1CountryCode('BR')).toBe(215);
    expect(v1CountryCode('ZZ')).toBe(0);
    expect(v1CountryCode(null)).toBe(0);
  });
});
