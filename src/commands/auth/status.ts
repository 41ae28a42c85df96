// trk auth status: the key checked with one free request, and each setting with where it came from.

import { outputOf } from '../common/output.js';
import { AuthenticationError } from '../../api/errors.js';
import { missingKeyError } from '../../config/profile-rules.js';
import type { Settings } from '../../config/settings.js';
import type { Context } from '../../context/context.js';
import { CredentialsError } from '../../core/errors.js';
import { printRows, resolveFormat } from '../../output/render.js';
import { SETTING_COLUMNS, settingRows, settingsObject } from '../common/settings-view.js';
import { INVALID_KEY, validLine, verifyKey } from './shared.js';
import { examples, running, type Declare } from '../define.js';

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

export const declaration: Declare = (cmd, invoke) =>
  cmd
    .description('check the key with one free request (getquota) and show each setting and where it came from')
    .option('--offline', 'show the settings without asking the service (also those of a profile without a key)')
    .addHelpText(
      'after',
      examples('trk auth status', 'trk auth status --profile shop-eu --json', 'trk auth status --offline'),
    )
    .action((o) => running(invoke, (ctx) => runAuthStatus({ offline: o.offline === true }, ctx)));
