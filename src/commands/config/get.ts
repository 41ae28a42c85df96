// trk config get: print one setting of the profile.

import { outputOf } from '../common/output.js';
import { CARRIER_ALIAS_PREFIX, checkConfigKey } from '../../config/keys.js';
import type { Context } from '../../context/context.js';
import { printRows, resolveFormat } from '../../output/render.js';
import { SETTING_COLUMNS, settingRows } from '../common/settings-view.js';
import { getAlias } from './carrier-alias.js';
import { examples, running, type Declare } from '../define.js';

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

export const declaration: Declare = (cmd, invoke) =>
  cmd
    .description('print one setting')
    .argument('<key>', 'setting name (see "trk config list")')
    .addHelpText('after', examples('trk config get base-url', 'trk config get api-version --profile shop-eu --json'))
    .action((key) => running(invoke, (ctx) => runConfigGet({ key }, ctx)));
