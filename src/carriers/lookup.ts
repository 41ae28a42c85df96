// Carrier and country names for the rest of trk, from a command's context.
//
// Decision: showing names never costs a network call. Tables take names from the cached lists only (any age);
// without a cache they show bare codes. Only what needs the list to work — `trk carriers`, `trk countries` and
// a carrier given by name — fetches it.
//
// With --sandbox (settings.sandbox) both lists are the emulator's: the service's lists shipped with trk (data/,
// shipped.ts), read in this process when a name or a code needs them: no network, whatever res-url says. They are
// never cached: reading them costs no more than reading a cache file. So a sandbox run neither reads nor writes the
// lists' cache, and the cache answers only for the URL each copy came from (lists.ts).

import { cacheDir } from '../config/paths.js';
import { requestTimeoutMs } from '../config/timeout.js';
import type { Context } from '../context/context.js';
import { listUrl, loadList, readCachedList, type ListName, type LoadedList } from './lists.js';
import { countryIsoByKey, parseCarriers, parseCountries, type Carrier, type Country } from './parse.js';
import { UsageError } from '../core/errors.js';
import { foldName, isCarrierName, type LooseReading } from './names.js';
import { resolveCarrier, type ResolveOptions } from './search.js';
import { aliasEntries } from './aliases.js';

export interface LoadOptions {
  refresh?: boolean;
}

/** The sandbox's own list (the one shipped with trk) when running with --sandbox, else undefined. */
async function sandboxList(ctx: Context, name: ListName): Promise<LoadedList | undefined> {
  if (!(await ctx.settings()).sandbox) return undefined;
  const { shippedList } = await import('./shipped.js');
  return { name, items: await shippedList(name), url: 'sandbox', fetchedAt: ctx.now(), origin: 'sandbox' };
}

/** The copy cached from the res URL in use (any age, no network), or the sandbox's list under --sandbox. */
async function cachedList(ctx: Context, name: ListName): Promise<LoadedList | undefined> {
  const sandbox = await sandboxList(ctx, name);
  if (sandbox) return sandbox;
  return readCachedList(cacheDir(ctx.env), name, listUrl((await ctx.settings()).resUrl, name));
}

async function load(ctx: Context, name: ListName, opts: LoadOptions): Promise<LoadedList> {
  const sandbox = await sandboxList(ctx, name);
  if (sandbox) return sandbox;
  const settings = await ctx.settings();
  return loadList(name, {
    resUrl: settings.resUrl,
    cacheDir: cacheDir(ctx.env),
    now: () => ctx.now(),
    signal: ctx.signal,
    env: ctx.env,
    warn: (line) => ctx.io.err(`warning: ${line}`),
    timeoutMs: requestTimeoutMs(ctx.global.timeout, ctx.env),
    ...(opts.refresh ? { refresh: true } : {}),
  });
}

/** The carrier list, fetched when there is no fresh cached copy. */
export async function loadCarriers(
  ctx: Context,
  opts: LoadOptions = {},
): Promise<{ carriers: Carrier[]; list: LoadedList }> {
  const list = await load(ctx, 'carriers', opts);
  return { carriers: parseCarriers(list.items), list };
}

/** The country list, fetched when there is no fresh cached copy. */
export async function loadCountries(
  ctx: Context,
  opts: LoadOptions = {},
): Promise<{ countries: Country[]; list: LoadedList }> {
  const list = await load(ctx, 'countries', opts);
  return { countries: parseCountries(list.items), list };
}

/**
 * The cached carriers, whatever their age (the sandbox's under --sandbox); undefined without a cache. Never a network
 * call.
 */
export async function cachedCarriers(ctx: Context): Promise<Carrier[] | undefined> {
  const list = await cachedList(ctx, 'carriers');
  return list && parseCarriers(list.items);
}

/** The carrier list shipped with trk (data/), for names where no cached list is at hand and nothing is fetched. */
export async function shippedCarriers(): Promise<Carrier[]> {
  const { shippedList } = await import('./shipped.js');
  return parseCarriers(await shippedList('carriers'));
}

/** Carrier code → name, for tables (cached list only; undefined for every code without a cache). */
export async function carrierNames(ctx: Context): Promise<(key: number) => string | undefined> {
  const carriers = await cachedCarriers(ctx);
  if (!carriers) return () => undefined;
  const names = new Map(carriers.map((c) => [c.key, c.name]));
  return (key) => names.get(key);
}

/**
 * Country key (v1's `b`/`c`, a carrier's `_country`) → ISO 3166-1 code, else the country's name; cached lists
 * only. The ISO codes are learnt from the carrier list, which gives them beside the keys.
 */
export async function countryNames(ctx: Context): Promise<(key: number) => string | undefined> {
  const [carriers, countries] = await Promise.all([cachedList(ctx, 'carriers'), cachedList(ctx, 'countries')]);
  const iso = countryIsoByKey(carriers ? parseCarriers(carriers.items) : []);
  const names = new Map((countries ? parseCountries(countries.items) : []).map((c) => [c.key, c.name]));
  return (key) => iso.get(key) ?? names.get(key);
}

/** What a carrier value became: a code, or undefined for "no carrier" (the service detects it). */
export type CarrierResolution = number | undefined;

export interface ResolverOptions extends ResolveOptions {
  /** `--carrier-map FILE`: aliases of this run, over the profile's. */
  carrierMap?: string | undefined;
}

/**
 * A function that turns a `--carrier` value or a CSV cell into a code, or undefined for a word that means no
 * carrier (see resolveCarrier). Codes and aliases are checked against the cached list when there is one, never
 * fetching it; the first name that is no alias fetches the list if needed. Answers (and refusals) are
 * remembered, so a CSV of many rows costs one lookup per distinct value, and a value seen before is answered
 * without waiting.
 */
export function carrierResolver(ctx: Context, opts: ResolverOptions = {}): CarrierResolver {
  let cached: Promise<Carrier[] | undefined> | undefined;
  let full: Promise<Carrier[]> | undefined;
  let loaded: Carrier[] | undefined;
  let aliases: Promise<ReadonlyMap<string, number>> | undefined;
  const memo = new Map<string, CarrierResolution | UsageError>();
  const loose: string[] = [];
  const onLoose = (text: string, carrier: Carrier, how: LooseReading) =>
    loose.push(
      `carrier "${text}" read as ${carrier.name} (${carrier.key}), ` +
        (how === 'service' ? 'its service level left out' : 'the one carrier so named'),
    );
  const settle = async (t: string): Promise<CarrierResolution> => {
    const resolveOpts = { ...opts, onLoose, aliases: await (aliases ??= carrierAliases(ctx, opts.carrierMap)) };
    // Words for no carrier, numbers and aliases need no more than the cached list, to check codes.
    let list: Carrier[] | undefined;
    if (isCarrierName(t, resolveOpts.aliases)) {
      // A failed fetch is remembered too: one error per run, not one per CSV row.
      full ??= loadCarriers(ctx).then((r) => (loaded = r.carriers));
      list = await full;
    } else {
      list = loaded ?? (await (cached ??= cachedCarriers(ctx)));
    }
    return resolveCarrier(t, list, resolveOpts);
  };
  const resolver = (text: string) => {
    const t = text.trim();
    if (memo.has(t)) {
      const known = memo.get(t);
      if (known instanceof UsageError) throw known;
      return known;
    }
    return settle(t).then(
      (code) => {
        memo.set(t, code);
        return code;
      },
      (err: unknown) => {
        if (err instanceof UsageError) memo.set(t, err);
        throw err;
      },
    );
  };
  return Object.assign(resolver, { notes: () => [...loose] });
}

/** A carrier value → its code (see carrierResolver); `notes` names the values read loosely, once each. */
export type CarrierResolver = ((text: string) => CarrierResolution | Promise<CarrierResolution>) & {
  notes: () => string[];
};

/** Aliases in force, folded name → code: built in, then the profile's, then `--carrier-map`'s (the last wins). */
export async function carrierAliases(
  ctx: Context,
  carrierMap: string | undefined,
): Promise<ReadonlyMap<string, number>> {
  return new Map(aliasEntries(await ctx.settings(), carrierMap).map((e) => [foldName(e.name), e.code]));
}
