// trk auth login | status | logout. The key is asked for with masked input on a terminal, or read from stdin
// with --with-key-stdin; never taken from a flag (flags end up in shell history and process lists). It is
// verified against the service before it is saved.

import type { ApiClient } from '../../api/client.js';
import { AuthenticationError } from '../../api/errors.js';
import { quotaBody, trackListBody } from '../../api/bodies.js';
import type { ApiVersion } from '../../api/spec.js';
import type { QuotaRecord } from '../../api/types.js';
import { maskKey, parseApiKey, parseServiceUrl } from '../../config/keys.js';
import type { Context } from '../../context.js';
import { requestOptions } from '../../context-impl.js';
import { CredentialsError, LOGIN_HINT, UsageError } from '../../errors.js';
import { resolveFormat, printRows } from '../../output/render.js';
import { readAll } from '../../stdin.js';
import { SETTING_COLUMNS, settingRows, settingsObject } from '../shared/settings-view.js';

const INVALID_KEY = -18010002;

export interface AuthLoginOptions {
  withKeyStdin: boolean;
}

/**
 * A request that proves the key works and costs nothing: getquota, or for v1, which has none, the first page
 * of the list. Returns the quota left when known.
 */
export async function verifyKey(api: ApiClient, version: ApiVersion): Promise<number | undefined> {
  if (version === 'v1') {
    await api.call('gettracklist', trackListBody(version, { page_no: 1 }));
    return undefined;
  }
  const env = await api.call('getquota', quotaBody(version));
  const quota = (env.data ?? {}) as Partial<QuotaRecord>;
  return typeof quota.quota_remain === 'number' ? quota.quota_remain : undefined;
}

export async function runAuthLogin(opts: AuthLoginOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  if (s.sandbox) throw new UsageError('the sandbox needs no login', 'run commands with --sandbox as they are');
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
      throw new CredentialsError(`${err.message}; nothing was saved`, 'copy the key again from the console (Settings, Security, access key)');
    }
    throw err;
  } finally {
    await api.close();
  }

  const { openProfileStore } = await import('../../config/profiles.js');
  const store = openProfileStore(ctx.env);
  store.set(s.profile, { baseUrl, apiVersion: s.apiVersion, apiKey });
  store.setCurrent(s.profile);
  const quota = remain === undefined ? '' : `, ${remain} quota units left`;
  ctx.info(`logged in to ${baseUrl} (${s.apiVersion}) with key ${maskKey(apiKey)}${quota}; saved in profile "${s.profile}"`);
  if (s.sources.apiKey === 'env') ctx.info('note: TRK_API_KEY or TRK_API_KEY_FILE is set and still takes precedence over the saved key');
  return 0;
}

export type AuthStatusOptions = Record<string, never>;

/** Exit 4 when no key is configured anywhere, so scripts can check before starting work. */
export async function runAuthStatus(_opts: AuthStatusOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  const rows = settingRows(s);
  const format = resolveFormat(ctx.io, ctx.global.output);
  if (format === 'json') ctx.io.out(`${JSON.stringify({ ...settingsObject(rows), sandbox: s.sandbox }, null, 2)}\n`);
  else await printRows(ctx.io, rows, SETTING_COLUMNS, ctx.global.output);
  if (s.apiKey === undefined && !s.sandbox) {
    throw new CredentialsError('not logged in: no API key configured', LOGIN_HINT);
  }
  return 0;
}

export type AuthLogoutOptions = Record<string, never>;

export async function runAuthLogout(_opts: AuthLogoutOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  const { openProfileStore } = await import('../../config/profiles.js');
  const store = openProfileStore(ctx.env);
  if (store.get(s.profile)?.apiKey === undefined) {
    ctx.info(`no API key saved in profile "${s.profile}"`);
  } else {
    store.set(s.profile, { apiKey: undefined });
    ctx.info(`removed the API key from profile "${s.profile}"`);
  }
  if (s.sources.apiKey === 'env') ctx.info('note: TRK_API_KEY or TRK_API_KEY_FILE is still set in the environment');
  return 0;
}
