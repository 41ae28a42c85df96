// The service's two reference lists (`apicarrier.all.json`, `country.all.json`) as the simulated world would
// publish them: its carriers and countries only, in the service's list format. One place for that format: the
// emulator serves these at its `/asset/carrier/info/` paths, and `--sandbox` reads them in-process
// (src/carriers/lookup.ts) instead of fetching the real lists. Pure data, no I/O.

import { LISTS, listPath, type ListName } from '../carriers/lists.js';
import { SIM_CARRIERS, type SimCarrier } from './world/carriers.js';
import { COUNTRIES, v1CountryCode } from './world/places.js';

/** An entry of `apicarrier.all.json`, with the fields the service sends (all of them, always). */
export interface CarrierListEntry {
  key: number;
  /** Key of the carrier's country in the country list (what v1 answers carry). */
  _country: number;
  _country_iso: string;
  _email: string;
  _tel: string;
  _url: string;
  _name: string;
  '_name_zh-cn': string;
  '_name_zh-hk': string;
  /** '' for postal operators; '11' express carriers, '12' e-commerce consolidators. */
  _group: string;
}

/** An entry of `country.all.json`. */
export interface CountryListEntry {
  key: number;
  _name: string;
}

/**
 * Names the service's list gives in Chinese, where they differ from `_name` (for every other carrier the list
 * repeats `_name`). The world itself keeps no localised names; they matter here because `--carrier 中国邮政`
 * and searches in Chinese must find the carrier, as they do against the real list.
 */
const CHINESE_NAMES: ReadonlyMap<number, readonly [zhCn: string, zhHk: string]> = new Map([
  [3011, ['中国邮政', '中國郵政']],
  [190012, ['燕文物流', '燕文物流']],
  [190271, ['菜鸟', '菜鳥']],
  [190094, ['递四方', '遞四方']],
  [100012, ['顺丰速运', '順豐速運']],
]);

/** Non-postal carriers the service files under its e-commerce group ('12') rather than express ('11'). */
const ECOMMERCE_GROUP: ReadonlySet<number> = new Set([190012, 190271, 190094]);

function carrierEntry(c: SimCarrier): CarrierListEntry {
  const [zhCn, zhHk] = CHINESE_NAMES.get(c.key) ?? [c.alias, c.alias];
  return {
    key: c.key,
    // The world's country, also where the service files a carrier elsewhere (7047, simulated from the US):
    // the list describes the world the sandbox answers from.
    _country: v1CountryCode(c.country),
    _country_iso: c.country,
    // The world keeps no e-mail addresses; the service sends '' for most carriers too.
    _email: '',
    _tel: c.tel ?? '',
    _url: c.homepage,
    _name: c.alias,
    '_name_zh-cn': zhCn,
    '_name_zh-hk': zhHk,
    _group: c.postal ? '' : ECOMMERCE_GROUP.has(c.key) ? '12' : '11',
  };
}

/** The simulated carriers, in the world's order. A fresh array each call: callers may keep or change it. */
export function sandboxCarrierList(): CarrierListEntry[] {
  return SIM_CARRIERS.map(carrierEntry);
}

/** The simulated countries with their v1 keys, by name as the service sorts its list. */
export function sandboxCountryList(): CountryListEntry[] {
  return Object.values(COUNTRIES)
    .map((c) => ({ key: c.code, _name: c.name }))
    .sort((a, b) => a._name.localeCompare(b._name, 'en'));
}

export function sandboxReferenceList(name: ListName): CarrierListEntry[] | CountryListEntry[] {
  return name === 'carriers' ? sandboxCarrierList() : sandboxCountryList();
}

/** Path under a res URL → list, for the emulator's HTTP server (the same paths as the service's res URL). */
export const REFERENCE_LIST_PATHS: ReadonlyMap<string, ListName> = new Map(
  (Object.keys(LISTS) as ListName[]).map((name) => [listPath(name), name]),
);
