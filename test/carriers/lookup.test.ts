// The carrier and country lookups other commands make: names from the cache, codes without a fetch.
import { describe, expect, it } from 'vitest';
import { carrierNames, carrierResolver, countryNames } from '../../src/carriers/lookup.js';
import { AmbiguousCarrierError } from '../../src/carriers/search.js';
import { UsageError } from '../../src/core/errors.js';
import { runCountries } from '../../src/commands/reference/countries.js';
import { referenceLists } from './reference-context.js';

const lists = referenceLists();
const { ctxFor } = lists;

describe('lookups for other commands', () => {
  it('carrierNames and countryNames read the cache only', async () => {
    const ctx = ctxFor();
    expect((await carrierNames(ctx))(100001)).toBeUndefined();
    expect(lists.server.hits).toEqual({});
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
    expect(lists.server.hits).toEqual({});
    expect(await resolve('DHL Express')).toBe(100001);
    expect(await resolve('dhl paket')).toBe(7041);
    await expect(resolve('DHL')).rejects.toBeInstanceOf(AmbiguousCarrierError);
    expect(resolve('99999999')).toBe(99999999); // remembered: answered at once
    await expect(resolve('99999998')).rejects.toThrow(/unknown carrier code/); // checked now that the list is here
    expect(lists.server.hits['apicarrier.all.json']).toBe(1);
  });

  it('carrierResolver settles words for no carrier and number-like values without the list', async () => {
    const resolve = carrierResolver(ctxFor());
    for (const none of ['Other', 'unknown', '-', 'N/A', 'n.a.', 'Sonstige', ' '])
      expect(await resolve(none)).toBeUndefined();
    await expect(resolve('-1')).rejects.toThrow('carrier "-1" is not a carrier code');
    await expect(resolve('3011.0')).rejects.toThrow(UsageError);
    expect(() => resolve('-1')).toThrow(UsageError); // remembered
    expect(lists.server.hits).toEqual({});
  });
});
