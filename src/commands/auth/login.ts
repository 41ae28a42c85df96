// trk auth login: verify an API key and save it with the base URL and API version in a profile (see auth.ts).

import { AuthenticationError } from '../../api/errors.js';
import { maskKey, parseApiKey, parseServiceUrl } from '../../config/keys.js';
import type { Profile } from '../../config/profiles.js';
import { DEFAULT_BASE_URL } from '../../config/settings.js';
import type { Context } from '../../context/context.js';
import { requestOptions } from '../../context/context-impl.js';
import { CredentialsError, UsageError } from '../../core/errors.js';
import { readAll } from '../../io/stdin.js';
import { activeLine, INVALID_KEY, openStore, validLine, verifyKey } from './shared.js';
import { examples, prints, running, type Declare } from '../define.js';

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

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .description('verify an API key and save it with the base URL and API version in a profile')
    .option('--with-key-stdin', 'read the API key from stdin instead of asking for it')
    .option(
      '--activate',
      'make the profile the active one (the first profile with a key always is; others stay as they are)',
    )
    .addHelpText(
      'after',
      examples(
        'trk auth login',
        'trk auth login --with-key-stdin < key.txt',
        'trk auth login --profile staging --base-url https://staging.example.com --activate',
      ),
    )
    .action((o) =>
      running(invoke, (ctx) =>
        runAuthLogin({ withKeyStdin: o.withKeyStdin === true, activate: o.activate === true }, ctx),
      ),
    );
