// Settings resolution: flag > environment > profile > default, with where each value came from (for
// `trk config list` and `trk auth status`). No flag carries the API key: flags end up in shell history and
// process lists. Pure apart from reading TRK_API_KEY_FILE; the store is passed in, so conf stays unloaded
// unless the caller opened it.

import { CredentialsError } from '../core/errors.js';
import { DEFAULT_API_VERSION, type ApiVersion } from '@trk/service/vocabulary.js';
import type { OutputFormat } from '../output/format.js';
import {
  parseApiKey,
  parseApiVersion,
  parseBudgetUrl,
  parseDbLocation,
  parseMailFrom,
  parseOutputFormat,
  parsePace,
  parseSmtpUrl,
  parseTrackingUrl,
  parseServiceUrl,
  type Profile,
} from './keys.js';
import { nodeFs } from '../core/node.js';

// Node's own object, not an ES import of node:fs (ARCHITECTURE.md, "Start-up").
const { readFileSync } = nodeFs();

export {
  CONFIG_KEYS,
  CONFIG_KEY_FIELD,
  CONFIG_KEY_HELP,
  checkConfigKey,
  isConfigKey,
  maskKey,
  validateConfigValue,
} from './keys.js';
export type { ConfigKey, Profile } from './keys.js';

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

export interface Settings {
  profile: string;
  baseUrl: string;
  apiVersion: ApiVersion;
  /** Undefined when none is configured anywhere. Never printed. */
  apiKey: string | undefined;
  resUrl: string;
  /**
   * Redis holding the rate budget shared by every host on the key (TRK_BUDGET_URL, or budget-url of the
   * profile); undefined: the budget file of this machine. May carry a password: never printed whole.
   */
  budgetUrl: string | undefined;
  /** The mirror's location (TRK_DB, or db of the profile); undefined: the profile's file in the data folder. */
  db: string | undefined;
  /** Run against the embedded emulator (`--sandbox` or a profile named `sandbox`). */
  sandbox: boolean;
  /** The output format when none is asked for: --output, TRK_OUTPUT, the profile's; undefined = automatic. */
  output: OutputFormat | undefined;
  /** `carrier-alias.NAME CODE` settings of the profile (src/carriers/aliases.ts). */
  carrierAliases?: Readonly<Record<string, number>> | undefined;
  /** Names of the profiles saved in the config file, sorted (src/config/profile-rules.ts judges names by them). */
  savedProfiles: readonly string[];
  /** `trk notify`'s mail server (TRK_SMTP_URL, or smtp-url of the profile). Its password is never printed. */
  smtpUrl: string | undefined;
  /** Whom `trk notify`'s mail is from (TRK_SMTP_FROM, or smtp-from). */
  smtpFrom: string | undefined;
  /** Customers' tracking page, `{number}` replaced (TRK_TRACKING_URL, or tracking-url). */
  trackingUrl: string | undefined;
  /** `trk notify run`'s messages a second to each target (TRK_NOTIFY_PACE, or notify-pace); undefined: no pace. */
  notifyPace: number | undefined;
  sources: Record<
    | 'profile'
    | 'baseUrl'
    | 'apiVersion'
    | 'apiKey'
    | 'resUrl'
    | 'output'
    | 'budgetUrl'
    | 'db'
    | 'smtpUrl'
    | 'smtpFrom'
    | 'trackingUrl'
    | 'notifyPace',
    SettingSource
  >;
}

export const DEFAULT_BASE_URL = 'https://api.17track.net';
export const DEFAULT_RES_URL = 'https://res.17track.net';
export const DEFAULT_PROFILE_NAME = 'default';
export const SANDBOX_PROFILE = 'sandbox';

/**
 * True when the profile in use is saved, or is one of the names that always exist. Kept here, beside those names,
 * so that every command can check it without loading the messages of src/config/profile-rules.ts.
 */
export function isKnownProfile(s: Pick<Settings, 'profile' | 'savedProfiles'>): boolean {
  return s.profile === DEFAULT_PROFILE_NAME || s.profile === SANDBOX_PROFILE || s.savedProfiles.includes(s.profile);
}

export interface SettingFlags {
  profile?: string;
  baseUrl?: string;
  apiVersion?: string;
  sandbox?: boolean;
  /** --output (--json, --csv), already checked by the command line. */
  output?: OutputFormat;
}

/** What resolution needs of the profile store (see profiles.ts); absent when no store was opened. */
export interface ProfileReader {
  get(name: string): Profile | undefined;
  currentName(): string | undefined;
  /** Every saved profile's name. */
  list(): string[];
}

export interface ResolveInput {
  flags: SettingFlags;
  env: NodeJS.ProcessEnv;
  store?: ProfileReader | undefined;
}

/**
 * Resolve every setting. Environment: TRK_PROFILE, TRK_API_KEY, TRK_API_KEY_FILE (the file's content,
 * trimmed; TRK_API_KEY wins when both are set), TRK_BASE_URL, TRK_API_VERSION, TRK_RES_URL, TRK_OUTPUT, TRK_DB. Invalid
 * values throw a UsageError naming their source. A profile name that names no saved profile resolves like an empty
 * profile; whether that is allowed is the caller's decision (src/config/profile-rules.ts).
 */
export function resolveSettings(input: ResolveInput): Settings {
  const { flags, env, store } = input;
  const sources = {} as Settings['sources'];

  // The profile's own source: 'profile' means the one chosen in the store with `trk config use`.
  // Decision: --sandbox is the profile "sandbox" unless --profile names another. The emulator is an account of its
  // own (its mirror is sandbox.db whatever the profile), so its settings (carrier aliases, an output format) live in
  // that profile rather than in the active one or in "default", and a profile made for it never points at the real
  // service (a profile named "sandbox" always means the emulator). As a flag it beats TRK_PROFILE.
  const profile =
    pickRaw(sources, 'profile', [
      ['flag', nonEmpty(flags.profile), '--profile'],
      ['flag', flags.sandbox ? SANDBOX_PROFILE : undefined, '--sandbox'],
      ['env', nonEmpty(env.TRK_PROFILE), 'TRK_PROFILE'],
      ['profile', nonEmpty(store?.currentName()), 'the current profile'],
    ])?.value ?? fallback(sources, 'profile', DEFAULT_PROFILE_NAME);
  const stored: Profile = store?.get(profile) ?? {};
  const inProfile = `profile "${profile}"`;

  const baseUrlRaw = pickRaw(sources, 'baseUrl', [
    ['flag', nonEmpty(flags.baseUrl), '--base-url'],
    ['env', nonEmpty(env.TRK_BASE_URL), 'TRK_BASE_URL'],
    ['profile', nonEmpty(stored.baseUrl), `base-url of ${inProfile}`],
  ]);
  const baseUrl = baseUrlRaw
    ? parseServiceUrl(baseUrlRaw.value, baseUrlRaw.label, true)
    : fallback(sources, 'baseUrl', DEFAULT_BASE_URL);

  const versionRaw = pickRaw(sources, 'apiVersion', [
    ['flag', nonEmpty(flags.apiVersion), '--api-version'],
    ['env', nonEmpty(env.TRK_API_VERSION), 'TRK_API_VERSION'],
    ['profile', nonEmpty(stored.apiVersion), `api-version of ${inProfile}`],
  ]);
  const apiVersion = versionRaw
    ? parseApiVersion(versionRaw.value, versionRaw.label)
    : fallback(sources, 'apiVersion', DEFAULT_API_VERSION);

  const resRaw = pickRaw(sources, 'resUrl', [
    ['env', nonEmpty(env.TRK_RES_URL), 'TRK_RES_URL'],
    ['profile', nonEmpty(stored.resUrl), `res-url of ${inProfile}`],
  ]);
  const resUrl = resRaw
    ? parseServiceUrl(resRaw.value, resRaw.label, false)
    : fallback(sources, 'resUrl', DEFAULT_RES_URL);

  const outputRaw = pickRaw(sources, 'output', [
    ['flag', flags.output, '--output'],
    ['env', nonEmpty(env.TRK_OUTPUT), 'TRK_OUTPUT'],
    ['profile', nonEmpty(stored.output), `output of ${inProfile}`],
  ]);
  const output = outputRaw
    ? parseOutputFormat(outputRaw.value, outputRaw.label)
    : fallback(sources, 'output', undefined);
  const budgetRaw = pickRaw(sources, 'budgetUrl', [
    ['env', nonEmpty(env.TRK_BUDGET_URL), 'TRK_BUDGET_URL'],
    ['profile', nonEmpty(stored.budgetUrl), `budget-url of ${inProfile}`],
  ]);
  const budgetUrl = budgetRaw
    ? parseBudgetUrl(budgetRaw.value, budgetRaw.label)
    : fallback(sources, 'budgetUrl', undefined);

  const dbRaw = pickRaw(sources, 'db', [
    ['env', nonEmpty(env.TRK_DB), 'TRK_DB'],
    ['profile', nonEmpty(stored.db), `db of ${inProfile}`],
  ]);
  const db = dbRaw ? parseDbLocation(dbRaw.value, dbRaw.label) : fallback(sources, 'db', undefined);

  const notify = notifySettings(sources, env, stored, inProfile);

  const keyFile = nonEmpty(env.TRK_API_KEY_FILE);
  const keyVar = nonEmpty(env.TRK_API_KEY);
  const keyRaw = pickRaw(sources, 'apiKey', [
    ['env', keyVar, 'TRK_API_KEY'],
    // Read only when it decides: a stale TRK_API_KEY_FILE does not matter while TRK_API_KEY is set.
    [
      'env',
      keyVar === undefined && keyFile !== undefined ? readKeyFile(keyFile) : undefined,
      `the file in TRK_API_KEY_FILE (${keyFile})`,
    ],
    ['profile', nonEmpty(stored.apiKey), `api-key of ${inProfile}`],
  ]);
  let apiKey: string | undefined;
  if (keyRaw) {
    try {
      apiKey = parseApiKey(keyRaw.value, keyRaw.label);
    } catch (err) {
      // A bad key is a credentials problem (exit 4), whatever its source.
      throw new CredentialsError((err as Error).message, 'set a valid key with "trk auth login" or TRK_API_KEY');
    }
  } else {
    apiKey = fallback(sources, 'apiKey', undefined);
  }

  return {
    profile,
    baseUrl,
    apiVersion,
    apiKey,
    resUrl,
    budgetUrl,
    db,
    sandbox: flags.sandbox === true || profile === SANDBOX_PROFILE,
    output,
    ...(stored.carrierAliases ? { carrierAliases: stored.carrierAliases } : {}),
    savedProfiles: store?.list() ?? [],
    ...notify,
    sources,
  };
}

type NotifySettings = Pick<Settings, 'smtpUrl' | 'smtpFrom' | 'trackingUrl' | 'notifyPace'>;

/** The settings of `trk notify`, each from its variable (TRK_SMTP_URL, ...) else the profile. */
function notifySettings(
  sources: Settings['sources'],
  env: NodeJS.ProcessEnv,
  stored: Profile,
  inProfile: string,
): NotifySettings {
  const one = <T>(
    name: keyof NotifySettings,
    variable: string,
    key: string,
    parse: (value: string, label: string) => T,
  ): T | undefined => {
    const raw = pickRaw(sources, name, [
      ['env', nonEmpty(env[variable]), variable],
      ['profile', nonEmpty(stored[name] as string | undefined), `${key} of ${inProfile}`],
    ]);
    return raw ? parse(raw.value, raw.label) : fallback(sources, name, undefined);
  };
  return {
    smtpUrl: one('smtpUrl', 'TRK_SMTP_URL', 'smtp-url', parseSmtpUrl),
    smtpFrom: one('smtpFrom', 'TRK_SMTP_FROM', 'smtp-from', parseMailFrom),
    trackingUrl: one('trackingUrl', 'TRK_TRACKING_URL', 'tracking-url', parseTrackingUrl),
    notifyPace: one('notifyPace', 'TRK_NOTIFY_PACE', 'notify-pace', parsePace),
  };
}

type Candidate = readonly [SettingSource, string | undefined, string];

function pickRaw(
  sources: Settings['sources'],
  name: keyof Settings['sources'],
  candidates: readonly Candidate[],
): { value: string; label: string } | undefined {
  for (const [source, value, label] of candidates) {
    if (value !== undefined) {
      sources[name] = source;
      return { value, label };
    }
  }
  return undefined;
}

function fallback<T>(sources: Settings['sources'], name: keyof Settings['sources'], value: T): T {
  sources[name] = 'default';
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function readKeyFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new CredentialsError(
      `cannot read the key file in TRK_API_KEY_FILE (${file}): ${code}`,
      'point TRK_API_KEY_FILE at a readable file',
    );
  }
  const key = text.trim();
  if (key === '')
    throw new CredentialsError(`the key file in TRK_API_KEY_FILE (${file}) is empty`, 'put the API key in it');
  return key;
}
