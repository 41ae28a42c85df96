// Every carrier of the service's carrier list is a carrier of the simulated world. The 25 of carriers.ts are
// simulated in detail (detection patterns, extra parameters, languages, routes); the other 2,600 get a generic
// story built from their list entry:
// - name, homepage and telephone as listed; postal operator when the list files it in the postal group ('');
// - parcels leave from the carrier's country (`_country_iso`) with the UTC offset of that country's city in
//   cities.ts; carriers without a country ship from anywhere in the world of places.ts;
// - express carriers (groups '10' and '11') deliver in their own country; e-commerce consolidators ('12') and
//   postal operators send abroad, to the countries places.ts describes (postal items then get the destination's
//   operator as their second provider, as for the detailed postal operators);
// - English event texts, one service type, no extra parameter, real time as the service's exclusion list says;
// - a pace and a trouble rate (carriers.ts) by kind: express carriers fast and reliable, postal operators slower,
//   consolidators slowest and most often in trouble; each carrier within ±15 % of its kind (by its code), so that
//   no two carriers of a kind are alike.
// The list is read on the first question about a carrier outside the detailed table (@trk/sandbox/reference-lists.ts).

import { REALTIME_UNSUPPORTED_CARRIERS } from '@trk/service/vocabulary.js';
import { type CarrierListEntry, type CountryListEntry, sandboxReferenceList } from '../reference-lists.js';
import type { SimCarrier } from './carriers.js';
import { WORLD_CITIES } from './cities.js';
import { fnv1a } from './random.js';

interface Catalog {
  carriers: ReadonlyMap<number, CarrierListEntry>;
  /** ISO → the country's key in the country list, as the carrier list pairs them. */
  countryKeys: ReadonlyMap<string, number>;
  countryNames: ReadonlyMap<number, string>;
}

let catalog: Catalog | undefined;

function load(): Catalog {
  if (catalog) return catalog;
  const carriers = new Map<number, CarrierListEntry>();
  const countryKeys = new Map<string, number>();
  for (const entry of sandboxReferenceList('carriers')) {
    carriers.set(entry.key, entry);
    if (entry._country_iso && entry._country > 0 && !countryKeys.has(entry._country_iso)) {
      countryKeys.set(entry._country_iso, entry._country);
    }
  }
  const countryNames = new Map<number, string>(
    sandboxReferenceList('countries').map((c: CountryListEntry) => [c.key, c._name]),
  );
  catalog = { carriers, countryKeys, countryNames };
  return catalog;
}

const generic = new Map<number, SimCarrier | undefined>();

/** The generic simulated carrier of a code of the service's list; undefined for a code the list lacks. */
export function catalogCarrier(key: number): SimCarrier | undefined {
  if (generic.has(key)) return generic.get(key);
  const entry = load().carriers.get(key);
  const c = entry === undefined ? undefined : genericCarrier(entry);
  generic.set(key, c);
  return c;
}

/** Pace and trouble rate of a generic carrier's kind (its group in the list). */
const KIND_PROFILE: Readonly<Record<string, { pace: number; trouble: number }>> = {
  '10': { pace: 0.6, trouble: 0.5 },
  '11': { pace: 0.6, trouble: 0.5 },
  '12': { pace: 1.3, trouble: 1.4 },
  '': { pace: 1.2, trouble: 1.1 },
};

/** A carrier's own factor within its kind: 0.85 to 1.15, fixed by its code. */
function ownFactor(key: number, what: string): number {
  return 0.85 + (0.3 * fnv1a(`${what}|${key}`)) / 2 ** 32;
}

function genericCarrier(e: CarrierListEntry): SimCarrier {
  const iso = e._country_iso.trim().toUpperCase() || null;
  const postal = e._group === '';
  const kind = KIND_PROFILE[e._group] ?? { pace: 1, trouble: 1 };
  const name = e._name.trim() || `Carrier ${e.key}`;
  return Object.freeze({
    key: e.key,
    name,
    alias: name,
    country: iso,
    tel: e._tel.trim() || null,
    homepage: e._url.trim(),
    postal,
    utcOffsetMinutes: iso === null ? 0 : (WORLD_CITIES[iso]?.[3] ?? 0),
    realtime: !REALTIME_UNSUPPORTED_CARRIERS.has(e.key),
    lang: 'en' as const,
    serviceTypes: [postal ? 'Registered Mail' : e._group === '12' ? 'Standard Shipping' : 'Standard'],
    origins: iso === null ? [] : [iso],
    // Empty: anywhere in the world of places.ts.
    destinations: iso !== null && (e._group === '10' || e._group === '11') ? [iso] : [],
    pace: kind.pace * ownFactor(e.key, 'pace'),
    trouble: kind.trouble * ownFactor(e.key, 'trouble'),
  });
}

/** Key and name of a country of the lists (v1's `b`/`c` carry the key); undefined when the lists lack it. */
export function catalogCountry(iso: string): { code: number; name: string } | undefined {
  const { countryKeys, countryNames } = load();
  const code = countryKeys.get(iso.toUpperCase());
  if (code === undefined) return undefined;
  return { code, name: countryNames.get(code) ?? iso.toUpperCase() };
}
