// trk config get | set | unset | list: the settings of a profile. The API key is only shown masked and is set
// with `trk auth login`, which verifies it first. A profile that is not saved is refused (a typo must not create
// one); `config set --create` makes it.

import {
  CARRIER_ALIAS_PREFIX,
  CONFIG_KEYS,
  CONFIG_KEY_FIELD,
  CONFIG_KEY_HELP,
  checkConfigKey,
  validateConfigValue,
  type ConfigKey,
} from '../../config/keys.js';
import { unknownProfileError } from '../../config/profile-rules.js';
import { SANDBOX_PROFILE, type Settings } from '../../config/settings.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { printRows, resolveFormat } from '../../output/render.js';
import { outputOf } from '../common/output.js';
import { SETTING_COLUMNS, aliasRows, settingRows, settingsObject, shownValue } from '../common/settings-view.js';
import { getAlias, setAlias } from './carrier-alias.js';

export interface ConfigGetOptions {
  key: string;
}

export async function runConfigGet(opts: ConfigGetOptions, ctx: Context): Promise<number> {
  if (opts.key.startsWith(CARRIER_ALIAS_PREFIX)) return getAlias(opts.key, ctx);
  const key = checkConfigKey(opts.key);
  const row = settingRows(await ctx.settings()).find((r) => r.key === key)!;
  const format = resolveFormat(ctx.io, ctx.global.output);
  if (format === 'json') {
    ctx.io.out(`${JSON.stringify({ key, value: row.value, source: row.source }, null, 2)}\n`);
  } else if (ctx.global.output !== undefined) {
    // Asked for by name (csv, ndjson, table): the one row with its source, like a row of "trk config list".
    await printRows(ctx.io, [row], SETTING_COLUMNS, outputOf(ctx));
  } else if (row.value !== null) {
    // The plain value, on a terminal and in a pipe alike: `$(trk config get base-url)`.
    ctx.io.out(`${row.value}\n`);
  } else {
    ctx.info(`${key} is not set`);
  }
  return 0;
}

export interface ConfigSetOptions {
  key: string;
  value: string;
  /** Create the profile when it is not saved yet. */
  create?: boolean;
}

/**
 * The profile to change: saved, or made with --create. "default" too needs --create while it is not saved: made
 * by a setting alone it would be a profile without a key, which the first login would then not replace as the
 * active one. "sandbox" needs no key and always exists.
 */
async function targetProfile(ctx: Context, create: boolean): Promise<Settings> {
  const s = await ctx.settings({ newProfile: true });
  if (!s.savedProfiles.includes(s.profile) && s.profile !== SANDBOX_PROFILE && !create) {
    throw unknownProfileError(
      s.profile,
      s.savedProfiles,
      s.sources.profile,
      `add --create to create profile "${s.profile}"`,
    );
  }
  return s;
}

function refuseKey(key: ConfigKey): void {
  if (key === 'api-key') {
    throw new UsageError(
      'the API key is not set with "trk config"',
      'run "trk auth login", which verifies the key before saving it; "trk auth logout" removes it',
    );
  }
}

export async function runConfigSet(opts: ConfigSetOptions, ctx: Context): Promise<number> {
  if (opts.key.startsWith(CARRIER_ALIAS_PREFIX))
    return setAlias(opts.key, opts.value, await targetProfile(ctx, opts.create === true), ctx);
  const key = checkConfigKey(opts.key);
  refuseKey(key);
  const value = validateConfigValue(key, opts.value);
  const s = await targetProfile(ctx, opts.create === true);
  const { checkProfileName, openProfileStore } = await import('../../config/profiles.js');
  const store = openProfileStore(ctx.env);
  const created = !store.list().includes(checkProfileName(s.profile));
  store.set(s.profile, { [CONFIG_KEY_FIELD[key]]: value });
  ctx.info(`${key} = ${shownValue(value)} in ${created ? 'new ' : ''}profile "${s.profile}"`);
  if (created && store.currentName() !== s.profile) {
    ctx.info(
      `profile "${s.profile}" is not the active one: use it with --profile ${s.profile}, or "trk auth switch ` +
        `${s.profile}"`,
    );
  }
  noteEnvironment(ctx, s, key);
  return 0;
}

export interface ConfigUnsetOptions {
  key: string;
}

/** Remove a setting from the profile: its default applies again. */
export async function runConfigUnset(opts: ConfigUnsetOptions, ctx: Context): Promise<number> {
  if (opts.key.startsWith(CARRIER_ALIAS_PREFIX)) return setAlias(opts.key, undefined, await ctx.settings(), ctx);
  const key = checkConfigKey(opts.key);
  refuseKey(key);
  const s = await ctx.settings();
  const { openProfileStore } = await import('../../config/profiles.js');
  const store = openProfileStore(ctx.env);
  const field = CONFIG_KEY_FIELD[key];
  if (store.get(s.profile)?.[field] === undefined) {
    ctx.info(`${key} is not set in profile "${s.profile}"`);
    return 0;
  }
  store.set(s.profile, { [field]: undefined });
  ctx.info(`removed ${key} from profile "${s.profile}"`);
  noteEnvironment(ctx, s, key);
  return 0;
}

function noteEnvironment(ctx: Context, s: Settings, key: ConfigKey): void {
  const field = CONFIG_KEY_FIELD[key];
  if (field !== 'apiKey' && s.sources[field] === 'env') {
    ctx.info(`note: the environment still overrides ${key} (${envName(key)})`);
  }
}

function envName(key: string): string {
  return `TRK_${key.toUpperCase().replace(/-/g, '_')}`;
}

export type ConfigListOptions = Record<string, never>;

export async function runConfigList(_opts: ConfigListOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  const rows = [...settingRows(s), ...aliasRows(s)];
  if (resolveFormat(ctx.io, ctx.global.output) === 'json') {
    ctx.io.out(`${JSON.stringify(settingsObject(rows), null, 2)}\n`);
  } else {
    await printRows(ctx.io, rows, SETTING_COLUMNS, outputOf(ctx));
    if (ctx.io.stdoutIsTTY) {
      ctx.info('');
      for (const k of CONFIG_KEYS) ctx.info(`  ${k.padEnd(12)} ${CONFIG_KEY_HELP[k]}`);
    }
  }
  return 0;
}
