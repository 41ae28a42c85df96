// The geography of the simulated world: the countries shipments travel between, their numeric codes in the
// service's country list (v1 answers use those numbers), and a few real cities per country with postal
// codes and coordinates. Coordinates are strings because the service sends them as strings.
// COUNTRIES describes eleven countries in detail (several cities, states, postal codes); every other country of
// the service's lists is known through one city of cities.ts, without state or postal code.

import { catalogCountry } from './catalog.js';
import { WORLD_CITIES } from './cities.js';

export interface City {
  readonly city: string;
  readonly state: string | null;
  readonly postalCode: string | null;
  readonly longitude: string | null;
  readonly latitude: string | null;
}

export interface Country {
  readonly iso: string;
  /** Key of the country in the service's country list (`country.all.json`); v1 `b`/`c` carry it. */
  readonly code: number;
  readonly name: string;
  /** International exchange office / airport hub: where parcels leave and enter the country. */
  readonly hub: City;
  /** Cities shippers and recipients live in. */
  readonly cities: readonly City[];
}

type Text = string | null;
const c = (city: string, state: Text, postalCode: Text, lon: Text, lat: Text): City => ({
  city,
  state,
  postalCode,
  longitude: lon,
  latitude: lat,
});

export const COUNTRIES: Readonly<Record<string, Country>> = {
  CN: {
    iso: 'CN',
    code: 301,
    name: 'China',
    hub: c('SHENZHEN', 'GD', '518000', '114.0579', '22.5431'),
    cities: [
      c('GUANGZHOU', 'GD', '510000', '113.2644', '23.1291'),
      c('SHANGHAI', 'SH', '200000', '121.4737', '31.2304'),
      c('YIWU', 'ZJ', '322000', '120.0751', '29.3069'),
      c('BEIJING', 'BJ', '100000', null, null),
    ],
  },
  US: {
    iso: 'US',
    code: 2105,
    name: 'United States',
    hub: c('LOS ANGELES', 'CA', '90045', '-118.2437', '34.0522'),
    cities: [
      c('CHICAGO', 'IL', '60601', '-87.6298', '41.8781'),
      c('ANN ARBOR', 'MI', '48104', '-83.7430', '42.2808'),
      c('AUSTIN', 'TX', '78701', '-97.7431', '30.2672'),
      c('SEATTLE', 'WA', '98101', null, null),
    ],
  },
  GB: {
    iso: 'GB',
    code: 1103,
    name: 'United Kingdom',
    hub: c('HEATHROW', 'ENG', 'TW6 2GA', '-0.4543', '51.4700'),
    cities: [
      c('LONDON', 'ENG', 'EC1A 1BB', '-0.1278', '51.5074'),
      c('MANCHESTER', 'ENG', 'M1 1AE', '-2.2426', '53.4808'),
      c('EDINBURGH', 'SCT', 'EH1 1YZ', null, null),
    ],
  },
  AU: {
    iso: 'AU',
    code: 115,
    name: 'Australia',
    hub: c('SYDNEY', 'NSW', '2020', '151.1772', '-33.9399'),
    cities: [
      c('MELBOURNE', 'VIC', '3000', '144.9631', '-37.8136'),
      c('BRISBANE', 'QLD', '4000', '153.0251', '-27.4698'),
      c('PERTH', 'WA', '6000', null, null),
    ],
  },
  BR: {
    iso: 'BR',
    code: 215,
    name: 'Brazil',
    hub: c('CURITIBA', 'PR', '80000-000', '-49.2733', '-25.4284'),
    cities: [
      c('SAO PAULO', 'SP', '01000-000', '-46.633309', '-23.550520'),
      c('RECIFE', 'PE', '50000-000', '-34.877', '-8.0539'),
      c('RIO DE JANEIRO', 'RJ', '20000-000', null, null),
    ],
  },
  DE: {
    iso: 'DE',
    code: 704,
    name: 'Germany',
    hub: c('LEIPZIG', 'SN', '04435', '12.2416', '51.4239'),
    cities: [
      c('BERLIN', 'BE', '10115', '13.4050', '52.5200'),
      c('MUNICH', 'BY', '80331', '11.5820', '48.1351'),
      c('HAMBURG', 'HH', '20095', null, null),
    ],
  },
  FR: {
    iso: 'FR',
    code: 605,
    name: 'France',
    hub: c('ROISSY CHARLES DE GAULLE', 'IDF', '95700', '2.5479', '49.0097'),
    cities: [
      c('PARIS', 'IDF', '75001', '2.3522', '48.8566'),
      c('LYON', 'ARA', '69001', '4.8357', '45.7640'),
      c('MARSEILLE', 'PAC', '13001', null, null),
    ],
  },
  JP: {
    iso: 'JP',
    code: 1002,
    name: 'Japan',
    hub: c('NARITA', 'CHIBA', '286-0000', '140.3929', '35.7720'),
    cities: [
      c('TOKYO', 'TOKYO', '100-0001', '139.6917', '35.6895'),
      c('OSAKA', 'OSAKA', '530-0001', '135.5023', '34.6937'),
      c('KYOTO', 'KYOTO', '600-8216', null, null),
    ],
  },
  CA: {
    iso: 'CA',
    code: 304,
    name: 'Canada',
    hub: c('MISSISSAUGA', 'ON', 'L5P 1B2', '-79.6248', '43.6777'),
    cities: [
      c('TORONTO', 'ON', 'M5H 2N2', '-79.3832', '43.6532'),
      c('VANCOUVER', 'BC', 'V6B 1A1', '-123.1207', '49.2827'),
      c('MONTREAL', 'QC', 'H2Y 1C6', null, null),
    ],
  },
  SG: {
    iso: 'SG',
    code: 1913,
    name: 'Singapore',
    hub: c('CHANGI', null, '819663', '103.9915', '1.3644'),
    cities: [c('SINGAPORE', null, '018956', '103.8198', '1.3521'), c('JURONG', null, '609690', null, null)],
  },
  NL: {
    iso: 'NL',
    code: 1404,
    name: 'Netherlands',
    hub: c('SCHIPHOL', 'NH', '1118', '4.7683', '52.3105'),
    cities: [
      c('AMSTERDAM', 'NH', '1012', '4.9041', '52.3676'),
      c('ROTTERDAM', 'ZH', '3011', '4.4777', '51.9244'),
      c('UTRECHT', 'UT', '3511', null, null),
    ],
  },
};

/** The countries described in detail, in a fixed order (draws index into it). */
export const COUNTRY_ISOS: readonly string[] = Object.keys(COUNTRIES);

const others = new Map<string, Country | undefined>();

/** A country of the world: described in detail, or known from the lists and cities.ts; undefined otherwise. */
export function countryOf(iso: string): Country | undefined {
  const code = iso.toUpperCase();
  const detailed = COUNTRIES[code];
  if (detailed) return detailed;
  if (others.has(code)) return others.get(code);
  const listed = catalogCountry(code);
  const seat = WORLD_CITIES[code];
  let country: Country | undefined;
  if (listed) {
    // Without a city in cities.ts the country's name stands for the place.
    const city = seat ? c(seat[0], null, null, seat[1], seat[2]) : c(listed.name.toUpperCase(), null, null, null, null);
    country = Object.freeze({
      iso: code,
      code: listed.code,
      name: listed.name,
      hub: city,
      cities: Object.freeze([city]),
    });
  }
  others.set(code, country);
  return country;
}

/** v1 numeric country code, 0 when unknown (as the service sends for an unknown destination). */
/** Great-circle distance between two cities, undefined when either has no coordinates. */
export function distanceKm(a: City, b: City): number | undefined {
  const coords = [a.latitude, a.longitude, b.latitude, b.longitude].map((v) => (v === null ? Number.NaN : Number(v)));
  if (coords.some((v) => !Number.isFinite(v))) return undefined;
  const [lat1, lon1, lat2, lon2] = coords.map((deg) => (deg * Math.PI) / 180) as [number, number, number, number];
  const h = Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function v1CountryCode(iso: string | null | undefined): number {
  if (!iso) return 0;
  return countryOf(iso)?.code ?? 0;
}
