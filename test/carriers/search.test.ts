import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCarriers, parseCountries } from '../../src/carriers/parse.js';
import { AmbiguousCarrierError, resolveCarrier, searchCarriers, searchCountries } from '../../src/carriers/search.js';
import { UsageError } from '../../src/core/errors.js';
import { REFERENCE } from '../fixture-files.js';

const carriers = parseCarriers(JSON.parse(readFileSync(path.join(REFERENCE, 'apicarrier.all.json'), 'utf8')));
const countries = parseCountries(JSON.parse(readFileSync(path.join(REFERENCE, 'country.all.json'), 'utf8')));

describe('searchCarriers', () => {
  it('lists everything by name without a query', () => {
    const all = searchCarriers(carriers, undefined);
    expect(all).toHaveLength(carriers.length);
    expect(all.map((c) => c.name)).toEqual(
      [...all.map((c) => c.name)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    );
  });

  it('matches names case-insensitively, exact names first', () => {
    const found = searchCarriers(carriers, 'dhl express');
    expect(found[0]!.key).toBe(100001);
    const dhl = searchCarriers(carriers, 'DHL');
    expect(dhl.map((c) => c.key)).toEqual(expect.arrayContaining([100001, 7041, 100047]));
    expect(dhl.every((c) => c.name.toLowerCase().includes('dhl'))).toBe(true);
    // prefixes before substrings
    const firstSubstring = dhl.findIndex((c) => !c.name.toLowerCase().startsWith('dhl'));
    expect(dhl.slice(firstSubstring).every((c) => !c.name.toLowerCase().startsWith('dhl'))).toBe(true);
  });

  it('finds the exact code first, and localized names', () => {
    expect(searchCarriers(carriers, '3011')[0]!.name).toBe('China Post');
    expect(searchCarriers(carriers, '中国邮政').map((c) => c.key)).toEqual([3011]);
  });

  it('finds carriers of a country by ISO code', () => {
    const de = searchCarriers(carriers, 'de');
    const german = carriers.filter((c) => c.countryIso === 'DE');
    expect(de.slice(0, german.length).every((c) => c.countryIso === 'DE')).toBe(true);
    expect(de.length).toBeGreaterThan(german.length); // names containing "de" follow
  });

  it('finds nothing for nonsense', () => {
    expect(searchCarriers(carriers, 'zzqqxx')).toEqual([]);
  });
});

describe('searchCountries', () => {
  it('matches by name, key and ISO code', () => {
    expect(searchCountries(countries, 'germ').map((c) => c.key)).toEqual([704]);
    expect(searchCountries(countries, '704')[0]!.name).toBe('Germany');
    const iso = new Map([[704, 'DE']]);
    expect(searchCountries(countries, 'de', (k) => iso.get(k))[0]!.name).toBe('Germany');
  });
});

describe('resolveCarrier', () => {
  it('takes a code as is when the list has it', () => {
    expect(resolveCarrier('3011', carriers)).toBe(3011);
    expect(resolveCarrier(' 03011 ', carriers)).toBe(3011);
    expect(resolveCarrier('0', carriers)).toBe(0);
  });

  it('refuses a code the list lacks, unless told not to check', () => {
    expect(() => resolveCarrier('99999999', carriers)).toThrow(UsageError);
    expect(() => resolveCarrier('99999999', carriers)).toThrow(/unknown carrier code 99999999/);
    expect(resolveCarrier('99999999', carriers, { checkCodes: false })).toBe(99999999);
    expect(resolveCarrier('99999999', undefined)).toBe(99999999);
  });

  it('resolves exact names only, accents, case and punctuation aside', () => {
    expect(resolveCarrier('DHL Express', carriers)).toBe(100001);
    expect(resolveCarrier('  dhl   EXPRESS ', carriers)).toBe(100001);
    expect(resolveCarrier('DHL-Express', carriers)).toBe(100001);
    expect(resolveCarrier('UPS', carriers)).toBe(100002); // exact beats "UPS Mail Innovations"
    expect(resolveCarrier('Fedex', carriers)).toBe(100003);
    expect(resolveCarrier('DPD DE', carriers)).toBe(100007); // listed as "DPD (DE)"
    expect(resolveCarrier('中国邮政', carriers)).toBe(3011);
    expect(resolveCarrier('LAARCOURIER', carriers)).toBe(101073); // listed as " LAARCOURIER"
  });

  it('refuses a prefix or a part of a name, listing the carriers it is part of', () => {
    // `trk register N --carrier Mother` once registered under 101056 "Mothership".
    expect(() => resolveCarrier('Mother', carriers)).toThrow(
      'carrier "Mother" is part of a carrier\'s name: Mothership (101056)',
    );
    expect(() => resolveCarrier('Correios Bra', carriers)).toThrow(
      /is part of a carrier's name: Correios Brazil \(2151\)/,
    );
    const err = (() => {
      try {
        resolveCarrier('DHL', carriers);
      } catch (e) {
        return e as AmbiguousCarrierError;
      }
    })();
    expect(err?.hint).toBe(
      'pass the code, or name it once: trk config set carrier-alias.DHL CODE (or --carrier-map FILE of name,code rows)',
    );
  });

  it('takes Other, Unknown, -, N/A and empty text for no carrier, before any list', () => {
    for (const none of ['Other', 'OTHER', 'Unknown', '-', 'N/A', '', '  ', 'Sonstige', 'Autre'])
      expect(resolveCarrier(none, undefined)).toBeUndefined();
    expect(resolveCarrier('Other', carriers)).toBeUndefined(); // never "Mothership"
  });

  it('refuses numbers that are no code without a list, and takes aliases first', () => {
    for (const bad of ['-1', '+3011', '3011.0', '30 11'])
      expect(() => resolveCarrier(bad, undefined)).toThrow(/is not a carrier code/);
    const aliases = new Map([
      ['dhl', 7041],
      ['sonstwer', 0],
      ['gone', 99999999],
    ]);
    expect(resolveCarrier('DHL', carriers, { aliases })).toBe(7041);
    expect(resolveCarrier('DHL', undefined, { aliases })).toBe(7041);
    expect(resolveCarrier('Sonstwer', carriers, { aliases })).toBeUndefined();
    expect(() => resolveCarrier('gone', carriers, { aliases })).toThrow(
      'unknown carrier code 99999999 (the alias "gone")',
    );
  });

  it('refuses an ambiguous name, listing the candidates', () => {
    let err: unknown;
    try {
      resolveCarrier('DHL', carriers);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AmbiguousCarrierError);
    expect(err).toBeInstanceOf(UsageError);
    const e = err as AmbiguousCarrierError;
    expect(e.candidates.map((c) => c.key)).toEqual(expect.arrayContaining([100001, 7041]));
    expect(e.message).toMatch(
      new RegExp(
        String.raw`^carrier "DHL" is part of carriers' names: DHL ACTIVETRACING \(100216\), ` +
          String.raw`DHL eCommerce Asia \(7048\), .* and \d+ more$`,
      ),
    );
    // two carriers of one name
    const twins = parseCarriers([
      { key: 1, _name: 'Twin' },
      { key: 2, _name: 'TWIN' },
    ]);
    expect(() => resolveCarrier('twin', twins)).toThrow('carrier "twin" is ambiguous: Twin (1), TWIN (2)');
  });

  it('refuses unknown names, empty text, and names without a list', () => {
    expect(() => resolveCarrier('no such carrier anywhere', carriers)).toThrow(
      /unknown carrier "no such carrier anywhere"/,
    );
    expect(() => resolveCarrier('DHL Express', undefined)).toThrow(UsageError);
  });

  it('reads a carrier name followed by its service level as that carrier, saying so', () => {
    const heard: string[] = [];
    const onLoose = (text: string, c: { key: number }, how: string) => heard.push(`${text}=${c.key}/${how}`);
    const read = (text: string) => resolveCarrier(text, carriers, { onLoose });
    expect(read('UPS Ground')).toBe(100002);
    expect(read('UPS® Ground')).toBe(100002);
    expect(read('USPS Priority Mail')).toBe(21051);
    expect(read('Royal Mail Tracked 48')).toBe(11031);
    expect(read('FedEx Home Delivery®')).toBe(100003);
    expect(read('DHL Express Worldwide')).toBe(100001);
    expect(read('DHL Paket 0-31.5kg')).toBe(7041);
    // An exact name is never read loosely: UPS Mail Innovations is a carrier of its own.
    expect(read('UPS Mail Innovations')).toBe(100398);
    expect(heard).toEqual([
      'UPS Ground=100002/service',
      'UPS® Ground=100002/service',
      'USPS Priority Mail=21051/service',
      'Royal Mail Tracked 48=11031/service',
      'FedEx Home Delivery®=100003/service',
      'DHL Express Worldwide=100001/service',
      'DHL Paket 0-31.5kg=7041/service',
    ]);
  });

  it("reads one carrier's name less a generic last word as that carrier, and only one", () => {
    expect(resolveCarrier('Deutsche Post', carriers)).toBe(7044);
    // DHL Express, DHL Paket, DHL Freight, ...: several, so refused, listing them.
    expect(() => resolveCarrier('DHL', carriers)).toThrow(AmbiguousCarrierError);
  });

  it('never reads more than a service level after a name: no prefix guessing', () => {
    // "Grond" is no service level; "Mother" is part of Mothership.
    const err = (() => {
      try {
        resolveCarrier('UPS Grond', carriers);
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(err?.message).toMatch(/^unknown carrier "UPS Grond": close: UPS \(100002\), UPS Mail Innovations/);
    expect(err?.hint).toMatch(/trk config set 'carrier-alias.UPS Grond' CODE \(or --carrier-map FILE/);
    expect(() => resolveCarrier('Mother', carriers)).toThrow(AmbiguousCarrierError);
    expect(resolveCarrier('Other', carriers)).toBeUndefined();
    expect(() => resolveCarrier('Zyxw Logistics', carriers)).toThrow(/: no carrier's name is close$/);
  });
});
