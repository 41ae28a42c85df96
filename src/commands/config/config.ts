// trk config get | set | list: the settings of the current profile. The API key is only shown masked and is
// set with `trk auth login`, which verifies it first.

import { CONFIG_KEYS, CONFIG_KEY_FIELD, CONFIG_KEY_HELP, checkConfigKey, validateConfigValue } from '../../config/keys.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { printRows, resolveFormat } from '../../output/render.js';
import { SETTING_COLUMNS, settingRows, settingsObject } from '../shared/settings-view.js';

export interface ConfigGetOptions {
  key: string;
}

export async function runConfigGet(opts: ConfigGetOptions, ctx: Context): Promise<number> {
  const key = checkConfigKey(opts.key);
  const row = settingRows(await ctx.settings()).find((r) => r.key === key)!;
  if (resolveFormat(ctx.io, ctx.global.output) === 'json') {
    ctx.io.out(`${JSON.stringify({ key, value: row.value, source: row.source }, null, 2)}\n`);
  } else if (row.value !== null) {
    ctx.io.out(`${row.value}\n`);
  } else {
    ctx.info(`${key} is not set`);
  }
  return 0;
}

export interface ConfigSetOptions {
  key: string;
  value: string;
}

export async function runConfigSet(opts: ConfigSetOptions, ctx: Context): Promise<number> {
  const key = checkConfigKey(opts.key);
  if (key === 'api-key') {
    throw new UsageError('the API key is not set with "trk config set"', 'run "trk auth login", which verifies the key before saving it');
  }
  const value = validateConfigValue(key, opts.value);
  const s = await ctx.settings();
  const { openProfileStore } = await import('../../config/profiles.js');
  openProfileStore(ctx.env).set(s.profile, { [CONFIG_KEY_FIELD[key]]: value });
  ctx.info(`${key} = ${value} in profile "${s.profile}"`);
  const field = CONFIG_KEY_FIELD[key];
  if (field !== 'apiKey' && field in s.sources && s.sources[field] === 'env') {
    ctx.info(`note: the environment still overrides ${key} (${envName(key)})`);
  }
  return 0;
}

function envName(key: string): string {
  return `TRK_${key.toUpperCase().replace(/-/g, '_')}`;
}

export type ConfigListOptions = Record<string, never>;

export async function runConfigList(_opts: ConfigListOptions, ctx: Context): Promise<number> {
  const rows = settingRows(await ctx.settings());
  if (resolveFormat(ctx.io, ctx.global.output) === 'json') {
    ctx.io.out(`${JSON.stringify(settingsObject(rows), null, 2)}\n`);
  } else {
    await printRows(ctx.io, rows, SETTING_COLUMNS, ctx.global.output);
    if (ctx.io.stdoutIsTTY) {
      ctx.info('');
      for (const k of CONFIG_KEYS) ctx.info(`  ${k.padEnd(12)} ${CONFIG_KEY_HELP[k]}`);
    }
  }
  return 0;
}
