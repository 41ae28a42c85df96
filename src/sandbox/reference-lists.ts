// The service's two reference lists (`apicarrier.all.json`, `country.all.json`), shipped with trk in data/ exactly
// as the service publishes them. They are the emulator's catalogue: every carrier of the list is a carrier of the
// simulated world (src/sandbox/world/catalog.ts), the emulator serves the files byte for byte at its res URL
// paths, and `--sandbox` resolves carrier and country names against them (src/carriers/lookup.ts).
//
// Read on first need only (563 KB of carriers: a few milliseconds to read and parse), relative to this module,
// so that the same path works from src/ under the tests and from dist/ once built.

import { readFileSync } from 'node:fs';
import { LISTS, listPath, type ListName } from '../carriers/lists.js';
import { packageFile } from '../package-files.js';

/** An entry of `apicarrier.all.json`, as the service sends it. */
export interface CarrierListEntry {
  key: number;
  /** Key of the carrier's country in the country list (what v1 answers carry); 0 or 9001 when it has none. */
  _country: number;
  /** ISO 3166-1 alpha-2; '' for a few carriers without a country. */
  _country_iso: string;
  _email: string;
  _tel: string;
  _url: string;
  _name: string;
  '_name_zh-cn': string;
  '_name_zh-hk': string;
  /** '' postal operators; '10', '11' express carriers; '12' e-commerce consolidators. */
  _group: string;
}

/** An entry of `country.all.json`. */
export interface CountryListEntry {
  key: number;
  _name: string;
}

const DATA_DIR = packageFile('data/');

const bytes = new Map<ListName, Buffer>();
const parsed = new Map<ListName, unknown[]>();

/** The list file's exact bytes (what the res URL serves). */
export function referenceListBytes(name: ListName): Buffer {
  let b = bytes.get(name);
  if (b === undefined) {
    b = readFileSync(new URL(LISTS[name].file, DATA_DIR));
    bytes.set(name, b);
  }
  return b;
}

/** The list parsed, once per process. Shared by every caller: read it, do not change it. */
export function sandboxReferenceList(name: 'carriers'): readonly CarrierListEntry[];
export function sandboxReferenceList(name: 'countries'): readonly CountryListEntry[];
export function sandboxReferenceList(name: ListName): readonly unknown[];
export function sandboxReferenceList(name: ListName): readonly unknown[] {
  let items = parsed.get(name);
  if (items === undefined) {
    items = JSON.parse(referenceListBytes(name).toString('utf8')) as unknown[];
    parsed.set(name, items);
  }
  return items;
}

/** Path under a res URL → list, for the emulator's HTTP server (the same paths as the service's res URL). */
export const REFERENCE_LIST_PATHS: ReadonlyMap<string, ListName> = new Map(
  (Object.keys(LISTS) as ListName[]).map((name) => [listPath(name), name]),
);
