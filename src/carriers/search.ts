// Finding carriers and countries by what people type: a code, a name or part of one, a country code.

import { UsageError } from '../core/errors.js';
import {
  foldName,
  GENERIC_LAST_WORDS,
  isNoCarrier,
  isServiceWord,
  refuseNumberLike,
  type LooseReading,
} from './names.js';
import { normalise, type Carrier, type Country } from './parse.js';

const byName = <T extends { name: string; key: number }>(a: T, b: T) =>
  a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.key - b.key;

/** 1 exact, 3 prefix, 4 substring, Infinity none; `names` are in comparison form. */
function rankName(names: readonly string[], q: string): number {
  let best = Infinity;
  for (const nn of names) {
    if (nn === q) return 1;
    if (nn.startsWith(q)) best = Math.min(best, 3);
    else if (nn.includes(q)) best = Math.min(best, 4);
  }
  return best;
}

/**
 * Entries matching `query`, best first: the exact key, exact names (any language), entries of the country whose
 * ISO code it is, names starting with the query, names containing it. No query: all, by name.
 */
function search<T extends { name: string; key: number; matchNames: readonly string[] }>(
  list: readonly T[],
  query: string | undefined,
  isoOf: (entry: T) => string | null | undefined,
): T[] {
  const q = normalise(query ?? '');
  if (q === '') return [...list].sort(byName);
  const code = /^\d+$/.test(q) ? Number.parseInt(q, 10) : undefined;
  const ranked: [number, T][] = [];
  for (const c of list) {
    let rank = c.key === code ? 0 : rankName(c.matchNames, q);
    if (rank > 2 && isoOf(c)?.toLowerCase() === q) rank = 2;
    if (rank !== Infinity) ranked.push([rank, c]);
  }
  return ranked.sort((a, b) => a[0] - b[0] || byName(a[1], b[1])).map(([, c]) => c);
}

/** Carriers matching `query` by code, name or the ISO code of their country (see search). */
export function searchCarriers(list: readonly Carrier[], query: string | undefined): Carrier[] {
  return search(list, query, (c) => c.countryIso);
}

/** Countries matching `query` by key, name, or ISO code (when `isoOf` knows it). */
export function searchCountries(
  list: readonly Country[],
  query: string | undefined,
  isoOf?: (key: number) => string | undefined,
): Country[] {
  return search(list, query, (c) => isoOf?.(c.key));
}

/**
 * A carrier name that is not one carrier's exact name: several carriers' (`kind` "same"), or part of some (`kind`
 * "part": `DHL` of "DHL Express", "DHL Paket", ...). `candidates` lets bulk input report them per row, and a
 * service column pick one of them (items/scan.ts).
 */
export class AmbiguousCarrierError extends UsageError {
  readonly candidates: readonly Carrier[];
  constructor(text: string, candidates: readonly Carrier[], kind: 'same' | 'part' = 'same') {
    const what =
      kind === 'same'
        ? 'is ambiguous'
        : `is part of ${candidates.length === 1 ? "a carrier's name" : "carriers' names"}`;
    super(`carrier "${text}" ${what}: ${listCarriers(candidates)}`, aliasHint(text, 'pass the code'));
    this.candidates = candidates;
  }
}

/** A name no carrier bears: the carriers whose names share its first word, or none. */
export class UnknownCarrierError extends UsageError {
  constructor(text: string, close: readonly Carrier[]) {
    super(
      `unknown carrier "${text}": ${close.length > 0 ? `close: ${listCarriers(close)}` : "no carrier's name is close"}`,
      aliasHint(text, 'find its code with `trk carriers NAME`, then pass the code'),
    );
  }
}

/** `DHL Express (100001), DHL Paket (7041) and 12 more`. */
function listCarriers(carriers: readonly Carrier[]): string {
  const shown = carriers.slice(0, 8).map((c) => `${c.name} (${c.key})`);
  return carriers.length > shown.length
    ? `${shown.join(', ')} and ${carriers.length - shown.length} more`
    : shown.join(', ');
}

/** How to name the carrier once for every later file: an alias in the profile, or a map for a run. */
function aliasHint(text: string, first: string): string {
  return (
    `${first}, or name it once: trk config set ${aliasKeyExample(text)} CODE ` +
    '(or --carrier-map FILE of name,code rows)'
  );
}

function aliasKeyExample(text: string): string {
  const key = `carrier-alias.${text}`;
  return /^[\w.-]+$/.test(key) ? key : `'${key.replace(/'/g, "'\\''")}'`;
}

export interface ResolveOptions {
  /**
   * Default true: a code missing from the list is refused. false: codes are taken as given (the service answers
   * -18019910 to a wrong one), for when the list may predate a new carrier.
   */
  checkCodes?: boolean;
  /** Other names of carriers, folded (names.ts foldName) → code; 0 means no carrier. */
  aliases?: ReadonlyMap<string, number> | undefined;
  /** Hears a name read as a carrier other than by its exact name (names.ts LooseReading). */
  onLoose?: ((text: string, carrier: Carrier, how: LooseReading) => void) | undefined;
}

/**
 * A carrier code from what the user typed, or undefined for "no carrier, let the service detect it" (`Other`,
 * `-`, `N/A`, an empty cell: names.ts). Digits are the code (checked against the list when there is one; 0
 * always passes, it means "none" for final_carrier). A number that is no code (`-1`) is refused. Otherwise an
 * alias, or a name matched exactly in any language (accents, case and punctuation aside), or one carrier's exact
 * name followed by its service level (`UPS Ground`), or one carrier's name less a generic last word (`Deutsche
 * Post` of "Deutsche Post Mail"). A name that several carriers share, or that is only part of names, is refused
 * listing them (AmbiguousCarrierError): a carrier is taken only when it is meant, never by a prefix or a substring.
 * No match, or a name without a list: UsageError.
 */
export function resolveCarrier(
  text: string,
  list: readonly Carrier[] | undefined,
  opts: ResolveOptions = {},
): number | undefined {
  const t = text.trim();
  if (isNoCarrier(t)) return undefined;
  if (/^\d+$/.test(t)) return checkedCode(Number.parseInt(t, 10), list, opts, `carrier code ${Number.parseInt(t, 10)}`);
  refuseNumberLike(t);
  const q = foldName(t);
  const alias = opts.aliases?.get(q);
  if (alias !== undefined)
    return alias === 0 ? undefined : checkedCode(alias, list, opts, `carrier code ${alias} (the alias "${t}")`);
  if (!list) throw new UsageError(`carrier "${t}" is a name, and the carrier list is not available`, 'pass the code');
  const index = nameIndex(list);
  const exact = index.exact.get(q) ?? [];
  if (exact.length === 1) return exact[0]!.key;
  if (exact.length > 1) throw new AmbiguousCarrierError(t, [...exact].sort(byName));
  const loose = looseReading(t, q, index);
  if (loose) {
    opts.onLoose?.(t, loose.carrier, loose.how);
    return loose.carrier.key;
  }
  const partial = list.filter((c) => c.matchNames.some((n) => foldName(n).includes(q)));
  if (partial.length > 0) throw new AmbiguousCarrierError(t, [...partial].sort(byName), 'part');
  throw new UnknownCarrierError(t, sameFirstWord(t, list));
}

/** Carriers by their names folded, whole (`exact`) and less a generic last word (`short`); built once per list. */
interface NameIndex {
  exact: ReadonlyMap<string, readonly Carrier[]>;
  short: ReadonlyMap<string, readonly Carrier[]>;
}

const INDEXES = new WeakMap<readonly Carrier[], NameIndex>();

function nameIndex(list: readonly Carrier[]): NameIndex {
  let index = INDEXES.get(list);
  if (index) return index;
  const exact = new Map<string, Carrier[]>();
  const short = new Map<string, Carrier[]>();
  const add = (map: Map<string, Carrier[]>, key: string, c: Carrier) => {
    const at = map.get(key) ?? [];
    if (!at.includes(c)) at.push(c);
    map.set(key, at);
  };
  for (const c of list) {
    for (const n of c.matchNames) {
      add(exact, foldName(n), c);
      const words = nameWords(n);
      const last = words.at(-1);
      if (words.length > 1 && last !== undefined && GENERIC_LAST_WORDS.has(last))
        add(short, words.slice(0, -1).join(''), c);
    }
  }
  index = { exact, short };
  INDEXES.set(list, index);
  return index;
}

/** A name's words, folded (`UPS® Ground` → ups, ground). */
function nameWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map(foldName)
    .filter((w) => w !== '');
}

/**
 * One carrier meant by a name that is not its exact name: its exact name followed by service-level words, or its
 * name less a generic last word (when no other carrier's is the same).
 */
function looseReading(text: string, q: string, index: NameIndex): { carrier: Carrier; how: LooseReading } | undefined {
  const raw = text.split(/\s+/).filter((w) => foldName(w) !== '');
  // Longest name first: `DHL Express Worldwide` is DHL Express, not DHL.
  for (let k = raw.length - 1; k >= 1; k--) {
    if (!raw.slice(k).every(isServiceWord)) break;
    const named = index.exact.get(raw.slice(0, k).map(foldName).join('')) ?? [];
    if (named.length === 1) return { carrier: named[0]!, how: 'service' };
    if (named.length > 1) return undefined;
  }
  const shortened = index.short.get(q) ?? [];
  return shortened.length === 1 ? { carrier: shortened[0]!, how: 'short' } : undefined;
}

/** Carriers whose names start with the same word as `text`, for an unknown name's message. */
function sameFirstWord(text: string, list: readonly Carrier[]): Carrier[] {
  const first = nameWords(text)[0];
  if (first === undefined || first.length < 3) return [];
  return list.filter((c) => c.matchNames.some((n) => nameWords(n)[0] === first)).sort(byName);
}

function checkedCode(code: number, list: readonly Carrier[] | undefined, opts: ResolveOptions, what: string): number {
  if (code !== 0 && list && (opts.checkCodes ?? true) && !list.some((c) => c.key === code)) {
    throw new UsageError(
      `unknown ${what}`,
      'look it up with `trk carriers <name>`; if the carrier is new, refresh the list with `trk carriers --refresh`',
    );
  }
  return code;
}
