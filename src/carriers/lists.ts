// The service's reference lists (`{res_url}/asset/carrier/info/...`), fetched once and kept in the cache
// folder with the time they were fetched. A copy older than STALE_AFTER_MS is refetched; when that fails (offline,
// service down) the old copy is used with a warning, since an old list beats none.
//
// Each copy is kept under its URL (a file per list and res URL) and is only ever read for that URL: a sandbox's
// lists, or a staging host's, never answer for the real service, offline or not.

import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatSeconds } from '../api/errors.js';
import { formatBytes, readBounded } from '../api/read-bounded.js';
import { TrkError } from '../core/errors.js';

export const LISTS = {
  carriers: { file: 'apicarrier.all.json', what: 'carrier list' },
  countries: { file: 'country.all.json', what: 'country list' },
} as const;
export type ListName = keyof typeof LISTS;

/** The lists change slowly (new carriers now and then); a week-old copy is still good. */
export const STALE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 30_000;
/** The carrier list is some 600 KB today: 32 MB leaves room for years of growth and stops an endless body. */
export const MAX_LIST_BYTES = 32 * 1024 * 1024;

export interface LoadedList {
  name: ListName;
  /** The entries as the service sent them. */
  items: unknown[];
  /** Where they came from. */
  url: string;
  /** When they were fetched (ms since the epoch). */
  fetchedAt: number;
  /**
   * network: just fetched; cache: a fresh cached copy; stale: an old copy, because fetching failed; sandbox: the
   * emulator's simulated world (`--sandbox`), built in this process.
   */
  origin: 'network' | 'cache' | 'stale' | 'sandbox';
}

export interface LoadListOptions {
  resUrl: string;
  cacheDir: string;
  now(): number;
  /** Fetch even when the cached copy is fresh. */
  refresh?: boolean;
  maxAgeMs?: number;
  signal?: AbortSignal;
  /** For the proxy variables (HTTPS_PROXY, NO_PROXY...). */
  env?: NodeJS.ProcessEnv;
  /** Warnings (an old copy used instead of a fresh one; the cache could not be written). */
  warn(line: string): void;
  /** Largest list read; default MAX_LIST_BYTES. */
  maxBytes?: number;
  /** For the whole fetch; default 30 s (`--timeout`). */
  timeoutMs?: number;
}

/** The file kept in the cache folder. */
interface CacheFile {
  url: string;
  fetched_at: string;
  items: unknown[];
}

/** Where a list lives under a res URL (the emulator serves the same paths). */
export function listPath(name: ListName): string {
  return `/asset/carrier/info/${LISTS[name].file}`;
}

export function listUrl(resUrl: string, name: ListName): string {
  return `${resUrl.replace(/\/+$/, '')}${listPath(name)}`;
}

/**
 * The cache file of a list fetched from `url`: `apicarrier.all.<host>-<hash of the URL>.json`, the host for
 * whoever looks into the folder, the hash so that two res URLs on one host (or ports) never share a file.
 */
export function cachePath(cacheDir: string, name: ListName, url: string): string {
  let host = 'list';
  try {
    host = new URL(url).host.replace(/[^A-Za-z0-9.-]/g, '_');
  } catch {
    // an address that is not a URL still gets a file of its own, by its hash
  }
  const id = createHash('sha256').update(url).digest('hex').slice(0, 16);
  return join(cacheDir, LISTS[name].file.replace(/\.json$/, `.${host}-${id}.json`));
}

/**
 * The copy cached from `url` (listUrl), whatever its age, or undefined when there is none (or it is unreadable).
 * No network.
 */
export async function readCachedList(cacheDir: string, name: ListName, url: string): Promise<LoadedList | undefined> {
  let text: string;
  try {
    text = await readFile(cachePath(cacheDir, name, url), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const c = JSON.parse(text) as Partial<CacheFile>;
    const fetchedAt = Date.parse(String(c.fetched_at));
    // The URL inside is checked too: a file copied by hand from another host is not taken for this one.
    if (!Array.isArray(c.items) || c.url !== url || Number.isNaN(fetchedAt)) return undefined;
    return { name, items: c.items, url: c.url, fetchedAt, origin: 'cache' };
  } catch {
    return undefined; // a damaged cache file is refetched and overwritten
  }
}

async function writeCache(cacheDir: string, list: LoadedList): Promise<void> {
  await mkdir(cacheDir, { recursive: true });
  const file = cachePath(cacheDir, list.name, list.url);
  const body: CacheFile = { url: list.url, fetched_at: new Date(list.fetchedAt).toISOString(), items: list.items };
  // Write then rename, so a reader never sees half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(body));
  await rename(tmp, file);
}

async function fetchList(url: string, opts: LoadListOptions): Promise<unknown[]> {
  const { EnvHttpProxyAgent, request } = await import('undici');
  const env = opts.env ?? process.env;
  // '' rather than undefined when unset: undici would otherwise read process.env behind the caller's back.
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  });
  const timeoutMs = opts.timeoutMs ?? FETCH_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const signals = [timeout, ...(opts.signal ? [opts.signal] : [])];
    const res = await request(url, {
      dispatcher,
      signal: AbortSignal.any(signals),
      headers: { accept: 'application/json' },
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`HTTP ${res.statusCode}`);
    }
    const text = await readBounded(res, opts.maxBytes ?? MAX_LIST_BYTES);
    if (text === undefined)
      throw new Error(`the answer is larger than ${formatBytes(opts.maxBytes ?? MAX_LIST_BYTES)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    } catch {
      throw new Error('the answer is not JSON');
    }
    if (!Array.isArray(parsed)) throw new Error('the answer is not a list');
    return parsed;
  } catch (e) {
    if (timeout.aborted && !opts.signal?.aborted)
      throw new Error(`no complete answer within ${formatSeconds(timeoutMs)} (--timeout)`);
    throw e;
  } finally {
    await dispatcher.destroy();
  }
}

/** A list from the cache when fresh, else from the service (then cached); an old copy when fetching fails. */
export async function loadList(name: ListName, opts: LoadListOptions): Promise<LoadedList> {
  const url = listUrl(opts.resUrl, name);
  const cached = await readCachedList(opts.cacheDir, name, url);
  const maxAge = opts.maxAgeMs ?? STALE_AFTER_MS;
  if (cached && !opts.refresh && opts.now() - cached.fetchedAt < maxAge) return cached;
  let items: unknown[];
  try {
    items = await fetchList(url, opts);
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    const why = (e as Error).message || String(e);
    if (cached) {
      opts.warn(
        `could not refresh the ${LISTS[name].what} from ${url} (${why}); using the copy fetched ` +
          `${formatAge(opts.now() - cached.fetchedAt)}`,
      );
      return { ...cached, origin: 'stale' };
    }
    throw new TrkError(`could not fetch the ${LISTS[name].what} from ${url}: ${why}`, {
      hint: 'check the network and the res-url setting',
      cause: e,
    });
  }
  const list: LoadedList = { name, items, url, fetchedAt: opts.now(), origin: 'network' };
  try {
    await writeCache(opts.cacheDir, list);
  } catch (e) {
    opts.warn(`could not cache the ${LISTS[name].what} in ${opts.cacheDir}: ${(e as Error).message}`);
  }
  return list;
}

/** `3 days ago`, `just now`: how old a copy is, for people. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (s < 60) return 'just now';
  if (s < 3600) return ago(Math.floor(s / 60), 'minute');
  if (s < 86_400) return ago(Math.floor(s / 3600), 'hour');
  return ago(Math.floor(s / 86_400), 'day');
}

/** The status line about a list: `2621 carriers (fetched 3 days ago from <url>)`. */
export function describeList(list: LoadedList, count: number, [one, many]: [string, string], now: number): string {
  if (list.origin === 'sandbox') return `${count} ${count === 1 ? one : many} (the sandbox's simulated world)`;
  const age =
    list.origin === 'network'
      ? 'fetched just now'
      : `fetched ${formatAge(now - list.fetchedAt)}${list.origin === 'stale' ? ', could not refresh' : ''}`;
  return `${count} ${count === 1 ? one : many} (${age} from ${list.url})`;
}
