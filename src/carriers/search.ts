// Finding carriers and countries by what people type: a code, a name or part of one, a country code.

import { UsageError } from '../errors.js';
import { foldName, isNoCarrier, refuseNumberLike } from './names.js';
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
 * A carrier name that is not one carrier's exact name: several carriers' (`kind` "same"), or part of some
 * (`kind` "part": `Other` of "Mothership"). `candidates` lets bulk input report them per row.
 */
export class AmbiguousCarrierError extends UsageError {
  readonly candidates: readonly Carrier[];
  constructor(text: string, candidates: readonly Carrier[], kind: 'same' | 'part' = 'same') {
    const shown = candidates.slice(0, 8).map((c) => `${c.name} (${c.key})`);
    if (candidates.length > shown.length) shown.push(`and ${candidates.length - shown.length} more`);
    const what =
      kind === 'same'
        ? 'is ambiguous'
        : `is part of ${candidates.length === 1 ? "a carrier's name" : "carriers' names"}`;
    super(
      `carrier "${text}" ${what}: ${shown.join(', ')}`,
      `pass the code, or keep an alias for the name: trk config set ${aliasKeyExample(text)} CODE`,
    );
    this.candidates = candidates;
  }
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
}

/**
 * A carrier code from what the user typed, or undefined for "no carrier, let the service detect it" (`Other`,
 * `-`, `N/A`, an empty cell: names.ts). Digits are the code (checked against the list when there is one; 0
 * always passes, it means "none" for final_carrier). A number that is no code (`-1`) is refused. Otherwise an
 * alias, or a name matched exactly in any language (accents, case and punctuation aside); a name that several
 * carriers share, or that is only part of names, is refused listing them (AmbiguousCarrierError): a carrier is
 * taken only when it is meant. No match, or a name without a list: UsageError.
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
  const exact = list.filter((c) => c.matchNames.some((n) => foldName(n) === q));
  const keys = new Set(exact.map((c) => c.key));
  if (keys.size === 1) return exact[0]!.key;
  if (keys.size > 1) throw new AmbiguousCarrierError(t, [...exact].sort(byName));
  const partial = list.filter((c) => c.matchNames.some((n) => foldName(n).includes(q)));
  if (partial.length > 0) throw new AmbiguousCarrierError(t, [...partial].sort(byName), 'part');
  throw new UsageError(`unknown carrier "${t}"`, 'search with `trk carriers <name>`, or pass the code');
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
