// The service's two reference lists (`apicarrier.all.json`, `country.all.json`), kept by @trk/service exactly as
// the service publishes them. They are the emulator's catalogue: every carrier of the list is a carrier of the
// simulated world (@trk/sandbox/world/catalog.ts), and the emulator serves the files byte for byte at the res URL's
// paths. (`--sandbox` resolves names against the same files, read by the product itself: src/carriers/shipped.ts.)
//
// Read on first need only (563 KB of carriers: a few milliseconds to read and parse).

import { readFileSync } from 'node:fs';
import {
  REFERENCE_LIST_FILES as LIST_FILES,
  referenceListFile,
  type ReferenceListName as ListName,
} from '@trk/service/reference-lists.js';

export type { ListName };

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

const bytes = new Map<ListName, Buffer>();
const parsed = new Map<ListName, unknown[]>();

/** The list file's exact bytes (what the res URL serves). */
export function referenceListBytes(name: ListName): Buffer {
  let b = bytes.get(name);
  if (b === undefined) {
    b = readFileSync(referenceListFile(name));
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

/** Path under a res URL → list, for the emulator's HTTP server (the service's res URL paths). */
export const REFERENCE_LIST_PATHS: ReadonlyMap<string, ListName> = new Map(
  (Object.keys(LIST_FILES) as ListName[]).map((name) => [`/asset/carrier/info/${LIST_FILES[name]}`, name]),
);
