// trk config list: every setting and carrier alias with its value and where it came from.

import { outputOf } from '../common/output.js';
import { CONFIG_KEYS, CONFIG_KEY_HELP } from '../../config/keys.js';
import type { Context } from '../../context/context.js';
import { printRows, resolveFormat } from '../../output/render.js';
import { SETTING_COLUMNS, aliasRows, settingRows, settingsObject } from '../common/settings-view.js';
import { examples, running, type Declare } from '../define.js';

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

export const declaration: Declare = (cmd, invoke) =>
  cmd
    .description('print every setting and carrier alias with its value and where it came from')
    .addHelpText('after', examples('trk config list', 'trk config list --profile shop-eu --csv'))
    .action(() => running(invoke, (ctx) => runConfigList({}, ctx)));
