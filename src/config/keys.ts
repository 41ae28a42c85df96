// The settings a profile can hold, by the names `trk config get|set|list` use, with one validator each.
// Pure (no conf): commands and settings resolution import it freely.

import { UsageError } from '../core/errors.js';
import { API_VERSIONS, type ApiVersion } from '@trk/service/vocabulary.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../output/format.js';
import { isPostgresLocation, parsePostgresUrl } from './postgres-url.js';

export const CONFIG_KEYS = [
  'base-url',
  'api-version',
  'api-key',
  'res-url',
  'output',
  'budget-url',
  'db',
  'smtp-url',
  'smtp-from',
  'tracking-url',
  'notify-pace',
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/** What a profile holds; every field optional (defaults apply). */
export interface Profile {
  baseUrl?: string;
  apiVersion?: ApiVersion;
  apiKey?: string;
  resUrl?: string;
  /** The output format of this profile's commands when no flag names one (TRK_OUTPUT wins). */
  output?: OutputFormat;
  /** Redis holding the rate budget shared by every host on the key (src/pacing/redis-pacer.ts). */
  budgetUrl?: string;
  /** `carrier-alias.NAME CODE`: a shop's name of a carrier → its code (0: no carrier). Stored as `carrier-alias`. */
  carrierAliases?: Readonly<Record<string, number>>;
  /** The account's mirror: a file path (SQLite) or a postgres:// address instead of the file in the data folder. */
  db?: string;
  /** The mail server of `trk notify`: smtp:// or smtps://, user and password in the address (never printed). */
  smtpUrl?: string;
  /** Whom `trk notify`'s mail is from: an address, or `Name <address>`. */
  smtpFrom?: string;
  /** A parcel's tracking page for customers, `{number}` replaced by its number. */
  trackingUrl?: string;
  /** `trk notify run`'s messages a second to each target. */
  notifyPace?: string;
}

/** The setting family of carrier aliases: `carrier-alias.NAME`. */
export const CARRIER_ALIAS_PREFIX = 'carrier-alias.';
/** Where a profile keeps them in the file: `"carrier-alias": {"DHL": 7041}`. */
export const CARRIER_ALIAS_FIELD = 'carrier-alias';

/** Config key → Profile field. */
export const CONFIG_KEY_FIELD: Readonly<Record<ConfigKey, Exclude<keyof Profile, 'carrierAliases'>>> = {
  'base-url': 'baseUrl',
  'api-version': 'apiVersion',
  'api-key': 'apiKey',
  'res-url': 'resUrl',
  output: 'output',
  'budget-url': 'budgetUrl',
  db: 'db',
  'smtp-url': 'smtpUrl',
  'smtp-from': 'smtpFrom',
  'tracking-url': 'trackingUrl',
  'notify-pace': 'notifyPace',
};

export const CONFIG_KEY_HELP: Readonly<Record<ConfigKey, string>> = {
  'base-url': 'address of the service (another one for a staging host or a running sandbox)',
  'api-version': `API version: ${API_VERSIONS.join(', ')}`,
  'api-key': 'the account\'s API key (shown as its last 4 characters, ****wxyz; set by "trk auth login")',
  'res-url': 'address of the reference lists (carriers, countries)',
  output: `default output format: ${OUTPUT_FORMATS.join(', ')} (flags and TRK_OUTPUT win)`,
  'budget-url': 'Redis keeping the rate budget of the key for several hosts, e.g. redis://host:6379/0',
  db: 'the mirror kept by "trk sync": a file (default: one per profile in the data folder) or a postgres:// address',
  'smtp-url':
    'the mail server of "trk notify": smtp://user:password@host:587 (STARTTLS when offered) or smtps://host:465',
  'smtp-from': 'whom "trk notify" mail is from: shop@example.com or "Shop <shop@example.com>"',
  'tracking-url':
    "a parcel's tracking page for customers' mail, {number} replaced: https://shop.example/track/{number}",
  'notify-pace': '"trk notify run" messages a second to each target (e.g. 1 for a chat webhook; default: no pace)',
};

export function isConfigKey(name: string): name is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(name);
}

/** Throws a UsageError listing the keys when `name` is not one. */
export function checkConfigKey(name: string): ConfigKey {
  if (isConfigKey(name)) return name;
  throw new UsageError(`unknown setting ${JSON.stringify(name)}`, `use one of ${CONFIG_KEYS.join(', ')}`);
}

/** The longest carrier alias name: a carrier's name with room to spare, not a paragraph. */
export const MAX_ALIAS_NAME = 100;

/** The names every object has from its prototype, and `prototype`: as keys they change an object, not a field. */
const OBJECT_WORDS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** True when `name` would touch an object's prototype or methods as a key (`__proto__`, `constructor`, ...). */
export function isObjectWord(name: string): boolean {
  return OBJECT_WORDS.has(name);
}

/**
 * Why `name` (trimmed) cannot be kept as a key of the profiles file, or undefined when it can. Decision: a key
 * names something to a person and to a JSON object alike, so it is refused when it is an object's own word
 * (`__proto__` would set nothing, `constructor` would shadow a method), holds a control or invisible format
 * character (a line break would split the file's listing, a bidi mark would hide what it says), or is too long.
 */
export function keyNameProblem(name: string, max: number): string | undefined {
  if (isObjectWord(name)) return `${JSON.stringify(name)} is a word of JavaScript objects, not a name`;
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name)) return `${JSON.stringify(name)} holds a control character`;
  if (name.length > max) return `${JSON.stringify(name.slice(0, 20))}... is longer than ${max} characters`;
  return undefined;
}

/** Validate and normalise a value for `key`; `source` names where it came from, for the message. */
export function validateConfigValue(key: ConfigKey, value: string, source = key): string {
  switch (key) {
    case 'api-version':
      return parseApiVersion(value, source);
    case 'base-url':
      return parseServiceUrl(value, source, true);
    case 'res-url':
      return parseServiceUrl(value, source, false);
    case 'api-key':
      return parseApiKey(value, source);
    case 'output':
      return parseOutputFormat(value, source);
    case 'budget-url':
      return parseBudgetUrl(value, source);
    case 'db':
      return parseDbLocation(value, source);
    case 'smtp-url':
      return parseSmtpUrl(value, source);
    case 'smtp-from':
      return parseMailFrom(value, source);
    case 'tracking-url':
      return parseTrackingUrl(value, source);
    case 'notify-pace':
      return String(parsePace(value, source));
  }
}

/** An smtp:// or smtps:// address with a host; its password is never quoted. */
export function parseSmtpUrl(value: string, source: string): string {
  const text = value.trim();
  const example = 'give an address such as smtp://user:password@mail.example.com:587 (smtps:// for TLS from the start)';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${source} is not a URL`, example);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new UsageError(`${source} must be an smtp:// or smtps:// address, not ${url.protocol}`, example);
  if (url.hostname === '') throw new UsageError(`${source} names no host`, example);
  return text;
}

/** `shop@example.com` or `Shop <shop@example.com>`. */
export function parseMailFrom(value: string, source: string): string {
  const text = value.trim();
  if (/^[^\s@<>,]+@[^\s@<>,]+$/.test(text) || /^[^<>]*<[^\s@<>,]+@[^\s@<>,]+>$/.test(text)) return text;
  throw new UsageError(
    `${source} is not a mail address: ${JSON.stringify(text)}`,
    'give shop@example.com or "Shop <shop@example.com>"',
  );
}

/** An http(s) address holding `{number}`. */
export function parseTrackingUrl(value: string, source: string): string {
  const text = value.trim();
  const example = 'give an address with {number} in it, e.g. https://shop.example/track/{number}';
  if (!/^https?:\/\//i.test(text) || !text.includes('{number}'))
    throw new UsageError(`${source} must be an http(s) address with {number}`, example);
  try {
    new URL(text.replaceAll('{number}', 'N'));
  } catch {
    throw new UsageError(`${source} is not a URL`, example);
  }
  return text;
}

/** Messages a second: a positive number (0.5: one every two seconds). */
export function parsePace(value: string, source: string): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 10_000)
    throw new UsageError(
      `${source} must be a number of messages a second above 0, not ${JSON.stringify(value.trim())}`,
      'e.g. 1 for a chat webhook, 10 for a mail server',
    );
  return n;
}

export function parseOutputFormat(value: string, source: string): OutputFormat {
  const v = value.trim().toLowerCase();
  if ((OUTPUT_FORMATS as readonly string[]).includes(v)) return v as OutputFormat;
  throw new UsageError(
    `unknown output format "${value.trim()}" (${source})`,
    `use one of ${OUTPUT_FORMATS.join(', ')}`,
  );
}

/** A redis:// or rediss:// (TLS) address, with an optional user, password and database number. */
export function parseBudgetUrl(value: string, source: string): string {
  const text = value.trim();
  const example = 'give an address such as redis://host:6379/0 (rediss:// for TLS)';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not quoted: the address may carry a password.
    throw new UsageError(`${source} is not a URL`, example);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new UsageError(`${source} must be a redis:// or rediss:// address, not ${url.protocol}`, example);
  if (url.hostname === '') throw new UsageError(`${source} names no host`, example);
  if (!/^(\/\d*)?$/.test(url.pathname))
    throw new UsageError(`${source} must end with a database number (/0), not ${url.pathname}`, example);
  return text;
}

/**
 * Where the mirror is kept: a file path, taken as given (relative paths from the working folder), or a PostgreSQL
 * address, checked here (src/config/postgres-url.ts) so that a wrong one is refused before anything starts.
 */
export function parseDbLocation(value: string, source: string): string {
  const text = value.trim();
  if (text === '') {
    throw new UsageError(`${source} is empty`, 'give a file path, e.g. ~/trk/shop.db, or a postgres:// address');
  }
  if (isPostgresLocation(text)) parsePostgresUrl(text, source);
  return text;
}

export function parseApiVersion(value: string, source: string): ApiVersion {
  const v = value.trim();
  if ((API_VERSIONS as readonly string[]).includes(v)) return v as ApiVersion;
  throw new UsageError(`unknown API version "${v}" (${source})`, `use one of ${API_VERSIONS.join(', ')}`);
}

/**
 * An http(s) address without query or fragment, trailing slashes removed. For the base URL the version
 * path is refused: trk adds `/track/<version>` itself, and a doubled path only shows up later as a 404.
 */
export function parseServiceUrl(value: string, source: string, isBase: boolean): string {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${source} is not a URL: "${text}"`, 'give an address such as https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${source} must be an http or https address, not ${url.protocol}`,
      'give an address such as https://api.example.com',
    );
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new UsageError(
      `${source} must not carry a query, fragment or user name`,
      'give the bare address, e.g. https://api.example.com',
    );
  }
  const clean = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (isBase && /\/track(\/v[\d.]+)?$/i.test(url.pathname.replace(/\/+$/, ''))) {
    throw new UsageError(
      `${source} must not include the API path (${url.pathname.replace(/\/+$/, '')})`,
      `use ${url.origin} and choose the version with --api-version`,
    );
  }
  return clean;
}

/** Keys travel in an HTTP header: printable ASCII without spaces. The key itself never appears in a message. */
export function parseApiKey(value: string, source: string): string {
  const key = value.trim();
  if (key === '')
    throw new UsageError(`${source} is empty`, 'give the key from the console (Settings, Security, access key)');
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError(
      `${source} contains characters an API key cannot have (spaces, line breaks, non-ASCII)`,
      'paste the key again',
    );
  }
  return key;
}

/**
 * The key as it may be shown: its last 4 characters behind stars (`****wxyz`), as Stripe and gh show keys, so
 * that two accounts' keys can be told apart (the service's keys are 32 characters). A key too short to keep 8
 * characters hidden is all stars. The stars never tell the length.
 */
export function maskKey(key: string): string {
  return key.length < 12 ? '****' : `****${key.slice(-4)}`;
}
