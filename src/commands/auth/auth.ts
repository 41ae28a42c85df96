// trk auth login | switch | list | status | logout: profiles the way `gh auth` and `kubectl config` keep them.
// The key is asked for with masked input on a terminal, or read from stdin with --with-key-stdin; never taken
// from a flag (flags end up in shell history and process lists). It is verified against the service before it
// is saved.
//
// Decision: nothing changes the active profile behind the user's back. Logging in to a named profile saves it and
// leaves the active one alone unless --activate is given, it is the first profile, or it is the profile already
// in use (none named); every command that could change which account cron jobs talk to says which profile is
// active afterwards.

import type { ApiClient } from '../../api/client.js';
import { AuthenticationError } from '../../api/errors.js';
import { wireBody } from '../../api/request-body.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { QuotaRecord } from '@trk/service/types.js';
import { maskKey, parseApiKey, parseServiceUrl } from '../../config/keys.js';
import { missingKeyError, savedProfilesText, unknownProfileError } from '../../config/profile-rules.js';
import type { Profile, ProfileStore } from '../../config/profiles.js';
import { DEFAULT_BASE_URL, DEFAULT_PROFILE_NAME, DEFAULT_RES_URL, type Settings } from '../../config/settings.js';
import { DEFAULT_API_VERSION } from '@trk/service/vocabulary.js';
import type { Context } from '../../context/context.js';
import { requestOptions } from '../../context/context-impl.js';
import { CredentialsError, UsageError } from '../../core/errors.js';
import { printRows, resolveFormat, type Column } from '../../output/render.js';
import { outputOf } from '../common/output.js';
import { readAll } from '../../io/stdin.js';
import { fmt } from '../../core/text.js';
import { SETTING_COLUMNS, settingRows, settingsObject } from '../common/settings-view.js';

const INVALID_KEY = -18010002;

async function openStore(ctx: Context): Promise<ProfileStore> {
  const { openProfileStore } = await import('../../config/profiles.js');
  return openProfileStore(ctx.env);
}

/**
 * A request that proves the key works and costs nothing: getquota, or for v1, which has none, the first page
 * of the list. Returns the quota left when known.
 */
export async function verifyKey(
  api: ApiClient,
  version: ApiVersion,
  signal?: AbortSignal,
): Promise<number | undefined> {
  if (version === 'v1') {
    await api.call('gettracklist', wireBody('gettracklist', version, { page_no: 1 }), signal ? { signal } : {});
    return undefined;
  }
  const env = await api.call('getquota', wireBody('getquota', version, undefined), signal ? { signal } : {});
  const quota = (env.data ?? {}) as Partial<QuotaRecord>;
  return typeof quota.quota_remain === 'number' ? quota.quota_remain : undefined;
}

/** `key valid, 993,942 units left` */
function validLine(remain: number | undefined): string {
  return remain === undefined ? 'key valid' : `key valid, ${fmt(remain)} units left`;
}

/** What a command that may have changed the active profile says afterwards. */
function activeLine(store: ProfileStore, env: NodeJS.ProcessEnv): string {
  const current = store.currentName();
  const saved = store.list();
  let line: string;
  if (current !== undefined) line = `active profile: ${current}`;
  else if (saved.includes(DEFAULT_PROFILE_NAME)) line = `no profile is active: commands use "${DEFAULT_PROFILE_NAME}"`;
  else if (saved.length > 0)
    line = `no profile is active (${savedProfilesText(saved)}): choose one with "trk auth switch NAME"`;
  else line = 'no profile is saved: log in with "trk auth login"';
  const pinned = env.TRK_PROFILE?.trim();
  if (pinned && pinned !== current) line += `; TRK_PROFILE=${pinned} overrides it in this environment`;
  return line;
}

export interface AuthLoginOptions {
  withKeyStdin: boolean;
  /** Make the profile the active one even when others exist. */
  activate?: boolean;
}

export async function runAuthLogin(opts: AuthLoginOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings({ newProfile: true });
  if (s.sandbox) throw new UsageError('the sandbox needs no login', 'run commands with --sandbox as they are');
  const { checkProfileName } = await import('../../config/profiles.js');
  // Before asking anything: a name that cannot be saved is found out now.
  checkProfileName(s.profile);
  const interactive = !opts.withKeyStdin && ctx.io.canPrompt();
  if (!opts.withKeyStdin && !interactive) {
    throw new UsageError('no terminal to ask for the API key', 'pipe the key in with --with-key-stdin');
  }

  let baseUrl = s.baseUrl;
  if (interactive && s.sources.baseUrl !== 'flag') {
    const answer = await ctx.prompter.input('Base URL of the service', s.baseUrl);
    baseUrl = parseServiceUrl(answer || s.baseUrl, 'the base URL', true);
  }
  const keyText = opts.withKeyStdin ? await readAll(ctx.io.stdin) : await ctx.prompter.password('API key');
  const apiKey = parseApiKey(keyText, opts.withKeyStdin ? 'the key on stdin' : 'the key');

  const { createApiClient } = await import('../../api/client.js');
  // Under the budget of the key being verified: a cron job on it must not get a 429 because of this request.
  const pacer = await ctx.pacer({ baseUrl, apiKey });
  const api = createApiClient({ baseUrl, apiKey, version: s.apiVersion, pacer, ...requestOptions(ctx) });
  let remain: number | undefined;
  try {
    remain = await verifyKey(api, s.apiVersion);
  } catch (err) {
    // The usual hint, "run trk auth login", is no help to someone running it: say what to do instead.
    if (err instanceof AuthenticationError && (err.serviceCode === undefined || err.serviceCode === INVALID_KEY)) {
      throw new CredentialsError(
        `${err.message}; nothing was saved`,
        'copy the key again from the console (Settings, Security, access key)',
      );
    }
    throw err;
  } finally {
    await api.close();
  }

  const listsHere = baseUrl !== DEFAULT_BASE_URL && (await servesReferenceLists(baseUrl, ctx.signal));
  const store = await openStore(ctx);
  // Profiles that can log in (a keyless one, made by `config set --create`, does not count).
  const others = store.list().filter((name) => name !== s.profile && store.get(name)?.apiKey !== undefined);
  store.set(s.profile, {
    baseUrl,
    apiVersion: s.apiVersion,
    apiKey,
    resUrl: loginResUrl(store.get(s.profile), baseUrl, listsHere),
  });
  // A profile named on the command line or in TRK_PROFILE is not made active by logging in to it; the one in use
  // (none named) is active already, or becomes so when nothing was.
  const named = s.sources.profile === 'flag' || s.sources.profile === 'env';
  const activate = opts.activate === true || others.length === 0 || !named;
  if (activate) store.setCurrent(s.profile);
  ctx.info(
    `logged in to ${baseUrl} (${s.apiVersion}) with key ${maskKey(apiKey)}: ${validLine(remain)}; saved in ` +
      `profile "${s.profile}"`,
  );
  if (listsHere) ctx.info(`carrier and country lists from ${baseUrl} too (res-url)`);
  const line = activeLine(store, ctx.env);
  ctx.info(activate ? line : `${line} (unchanged; "trk auth switch ${s.profile}" makes ${s.profile} active)`);
  if (s.sources.apiKey === 'env')
    ctx.info('note: TRK_API_KEY or TRK_API_KEY_FILE is set and still takes precedence over the saved key');
  return 0;
}

/**
 * Whether the service at `baseUrl` serves the carrier list itself, as the sandbox does (`trk sandbox start` prints
 * TRK_RES_URL as its own address): then lookups after the login (`trk carriers dhl`, `--carrier "China Post"`) go
 * there too rather than to the real list host. One HEAD request, to an address the user chose; never asked of the
 * service's own address, whose lists live on their host (res-url's default).
 */
async function servesReferenceLists(baseUrl: string, signal: AbortSignal): Promise<boolean> {
  const { listUrl } = await import('../../carriers/lists.js');
  try {
    const res = await fetch(listUrl(baseUrl, 'carriers'), {
      method: 'HEAD',
      signal: AbortSignal.any([signal, AbortSignal.timeout(5000)]),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * The res-url a login leaves in the profile: the base URL when it serves the lists; else none when the old one
 * was the old base URL's (set by a login to a sandbox), so that the default applies again; else as it was.
 */
function loginResUrl(before: Profile | undefined, baseUrl: string, listsHere: boolean): string | undefined {
  if (listsHere) return baseUrl;
  return before?.resUrl !== undefined && before.resUrl === before.baseUrl ? undefined : before?.resUrl;
}

export interface AuthSwitchOptions {
  /** The profile to make active; asked for on a terminal when absent. */
  name?: string | undefined;
}

export async function runAuthSwitch(opts: AuthSwitchOptions, ctx: Context): Promise<number> {
  const store = await openStore(ctx);
  const saved = store.list();
  if (saved.length === 0) throw new UsageError('no profile is saved yet', 'log in with "trk auth login"');
  const current = store.currentName();
  let name = opts.name ?? ctx.global.profile;
  if (name === undefined) {
    if (!ctx.io.canPrompt())
      throw new UsageError('give the profile to make active', `"trk auth switch NAME" (${savedProfilesText(saved)})`);
    const choices = saved.map((value) => ({ value, description: describeProfile(store, value) }));
    name = await ctx.prompter.select('Profile to make active', choices, current);
  }
  if (!saved.includes(name)) {
    throw unknownProfileError(name, saved, undefined, `use one of ${saved.join(', ')}`);
  }
  store.setCurrent(name);
  ctx.info(`${activeLine(store, ctx.env)} (${describeProfile(store, name)})${name === current ? ', as before' : ''}`);
  return 0;
}

/** `https://api.example.com, v2, key ****wxyz` */
function describeProfile(store: ProfileStore, name: string): string {
  const p = store.get(name) ?? {};
  return [
    p.baseUrl ?? DEFAULT_BASE_URL,
    p.apiVersion ?? DEFAULT_API_VERSION,
    p.apiKey ? `key ${maskKey(p.apiKey)}` : 'no key',
  ].join(', ');
}

interface ProfileRow {
  name: string;
  active: boolean;
  baseUrl: string;
  apiVersion: string;
  /** Masked; null without a key. */
  apiKey: string | null;
  resUrl: string;
  output: string | null;
}

export const PROFILE_COLUMNS: readonly Column<ProfileRow>[] = [
  { key: 'active', header: 'ACTIVE', value: (r) => r.active, display: (r) => (r.active ? '*' : '') },
  { key: 'name', header: 'NAME', value: (r) => r.name, style: (t, r, c) => (r.active ? c.bold(t) : t) },
  { key: 'base_url', header: 'BASE URL', value: (r) => r.baseUrl },
  { key: 'api_version', header: 'VERSION', value: (r) => r.apiVersion },
  { key: 'api_key', header: 'KEY', value: (r) => r.apiKey, display: (r) => r.apiKey ?? '(none)' },
  { key: 'res_url', header: 'RES URL', value: (r) => r.resUrl, wide: 2 },
  { key: 'output', header: 'OUTPUT', value: (r) => r.output, wide: 1 },
];

export type AuthListOptions = Record<string, never>;

/** The saved profiles, the active one marked; values a profile leaves unset are shown as their defaults. */
export async function runAuthList(_opts: AuthListOptions, ctx: Context): Promise<number> {
  const store = await openStore(ctx);
  const current = store.currentName();
  const rows: ProfileRow[] = store.list().map((name) => {
    const p = store.get(name) ?? {};
    return {
      name,
      active: name === current,
      baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
      apiVersion: p.apiVersion ?? DEFAULT_API_VERSION,
      apiKey: p.apiKey === undefined ? null : maskKey(p.apiKey),
      resUrl: p.resUrl ?? DEFAULT_RES_URL,
      output: p.output ?? null,
    };
  });
  // JSON and NDJSON print the rows under their column keys (base_url, api_key...), like the CSV header.
  await printRows(ctx.io, rows, PROFILE_COLUMNS, outputOf(ctx));
  ctx.info(activeLine(store, ctx.env));
  return 0;
}

export interface AuthStatusOptions {
  /** Show the settings without asking the service whether the key works. */
  offline?: boolean;
}

/**
 * The settings in use and one cheap request (getquota; the first list page for v1) that proves the key. Exit 4
 * when no key is configured or the service refuses it, 1 when the service cannot be reached; then nothing is
 * printed on stdout, so a script cannot take the settings for a working login.
 */
export async function runAuthStatus(opts: AuthStatusOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  const keyless = s.apiKey === undefined && !s.sandbox;
  // --offline shows the settings whatever they hold: a profile without a key is what it is there to show.
  if (keyless && !opts.offline) throw missingKeyError(s);
  let check: { valid: true; quota_remain: number | null } | null = null;
  if (!opts.offline) {
    const api = await ctx.api();
    try {
      const remain = await verifyKey(api, api.version, ctx.signal);
      check = { valid: true, quota_remain: remain ?? null };
    } catch (err) {
      throw explainRefusal(err, s);
    }
  }
  const rows = settingRows(s);
  const format = resolveFormat(ctx.io, ctx.global.output);
  if (format === 'json')
    ctx.io.out(`${JSON.stringify({ ...settingsObject(rows), sandbox: s.sandbox, check }, null, 2)}\n`);
  else await printRows(ctx.io, rows, SETTING_COLUMNS, outputOf(ctx));
  if (check !== null) ctx.info(`${validLine(check.quota_remain ?? undefined)} (profile "${s.profile}", ${s.baseUrl})`);
  else
    ctx.info(keyless ? `key not checked (--offline): ${missingKeyError(s).toLine()}` : 'key not checked (--offline)');
  return 0;
}

/** A refused key, said with where it came from and how to replace it. Other failures stay as they are. */
function explainRefusal(err: unknown, s: Settings): unknown {
  if (!(err instanceof AuthenticationError) || (err.serviceCode !== undefined && err.serviceCode !== INVALID_KEY))
    return err;
  const from =
    s.sources.apiKey === 'env' ? 'the key in TRK_API_KEY (or TRK_API_KEY_FILE)' : `the key of profile "${s.profile}"`;
  const fix =
    s.sources.apiKey === 'env'
      ? 'set TRK_API_KEY to a valid key, or unset it to use the profile'
      : `run "trk auth login --profile ${s.profile}"`;
  return new CredentialsError(`${err.message}: ${s.baseUrl} refuses ${from}`, fix);
}

export type AuthLogoutOptions = Record<string, never>;

/**
 * Removes the profile in use (--profile, TRK_PROFILE, the active one) with its key and settings. On a terminal it
 * asks first unless --yes; without one it does not ask, as `gh auth logout` does not: a script that logs out
 * names what it means, and a removed key is saved again by logging in.
 */
export async function runAuthLogout(_opts: AuthLogoutOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  const store = await openStore(ctx);
  if (!store.list().includes(s.profile)) {
    ctx.info(`profile "${s.profile}" is not saved: nothing to remove`);
  } else {
    if (!ctx.global.yes && ctx.io.canPrompt()) {
      const described = describeProfile(store, s.profile);
      const question = `Remove profile "${s.profile}" (${described}) with its key and settings?`;
      if (!(await ctx.prompter.confirm(question, false))) throw new UsageError('cancelled', 'nothing was removed');
    }
    const wasActive = store.currentName() === s.profile;
    store.remove(s.profile);
    ctx.info(`removed profile "${s.profile}" with its key and settings`);
    // "default" is what commands use when no profile is chosen: said so by making it the active one.
    if (wasActive && store.list().includes(DEFAULT_PROFILE_NAME)) store.setCurrent(DEFAULT_PROFILE_NAME);
    ctx.info(activeLine(store, ctx.env));
  }
  if (s.sources.apiKey === 'env') ctx.info('note: TRK_API_KEY or TRK_API_KEY_FILE is still set in the environment');
  return 0;
}
