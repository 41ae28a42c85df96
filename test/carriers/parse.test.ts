import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanName, countryIsoByKey, parseCarriers, parseCountries, parseKey } from '../../src/carriers/parse.js';
import { REFERENCE } from '../fixture-files.js';

const reference = (name: string): unknown[] => JSON.parse(readFileSync(path.join(REFERENCE, name), 'utf8'));

describe('parseCarriers', () => {
  it('reads every entry of the published list', () => {
    const raw = reference('apicarrier.all.json');
    const carriers = parseCarriers(raw);
    expect(carriers).toHaveLength(raw.length);
    const dhl = carriers.find((c) => c.key === 100001)!;
    expect(dhl).toMatchObject({
      name: 'DHL Express',
      countryIso: 'DE',
      countryKey: 704,
      url: 'https://mydhl.express.dhl/',
      altNames: [],
    });
    expect(dhl.raw).toBe(raw.find((r) => (r as { key: number }).key === 100001));
    expect(carriers.find((c) => c.key === 3011)!.altNames).toEqual(['中国邮政', '中國郵政']);
  });

  it('trims stray spaces from names', () => {
    const carriers = parseCarriers(reference('apicarrier.all.json'));
    expect(carriers.find((c) => c.key === 101073)!.name).toBe('LAARCOURIER');
    expect(carriers.every((c) => c.name === c.name.trim() && !/\s\s/.test(c.name))).toBe(true);
  });

  it('reads keys that old lists sent as zero-padded strings, and skips entries without a usable key', () => {
    const carriers = parseCarriers([
      { key: '03011', _name: ' China  Post ', _country_iso: 'cn', _country: '0301' },
      { key: 21051, _name: 'USPS', _country_iso: '', _country: 0, _url: '' },
      { key: 'abc', _name: 'no key' },
      { key: -5, _name: 'negative' },
      { key: 1.5, _name: 'fraction' },
      { _name: 'missing' },
      null,
      'text',
      [1, 2],
      { key: 7, _name: '', '_name_zh-cn': '某快递' },
    ]);
    expect(carriers.map((c) => c.key)).toEqual([3011, 21051, 7]);
    expect(carriers[0]).toMatchObject({ name: 'China Post', countryIso: 'CN', countryKey: 301 });
    expect(carriers[1]).toMatchObject({ countryIso: null, countryKey: null, url: null });
    expect(carriers[2]!.name).toBe('某快递');
  });

  it('helpers read keys and names defensively', () => {
    expect(parseKey(' 0042 ')).toBe(42);
    expect(parseKey(42)).toBe(42);
    expect(parseKey('4 2')).toBeUndefined();
    expect(parseKey(null)).toBeUndefined();
    expect(cleanName('  DHL \t Express ')).toBe('DHL Express');
    expect(cleanName(5)).toBe('');
  });
});

describe('parseCountries', () => {
  it('reads the country list and learns ISO codes from the carriers', () => {
    const countries = parseCountries(reference('country.all.json'));
    expect(countries.find((c) => c.key === 704)!.name).toBe('Germany');
    const iso = countryIsoByKey(parseCarriers(reference('apicarrier.all.json')));
    expect(iso.get(704)).toBe('DE');
    expect(iso.get(2105)).toBe('US');
    expect(iso.get(0)).toBeUndefined();
  });

  it('skips entries without a key', () => {
    expect(
      parseCountries([{ key: '0102', _name: ' Afghanistan ' }, { _name: 'x' }, 3]).map((c) => [c.key, c.name]),
    ).toEqual([[102, 'Afghanistan']]);
  });
});
