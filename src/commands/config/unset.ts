// trk config unset: remove one setting from the profile, so that its default applies again.

import { CARRIER_ALIAS_PREFIX, CONFIG_KEY_FIELD, checkConfigKey } from '../../config/keys.js';
import type { Context } from '../../context/context.js';
import { setAlias } from './carrier-alias.js';
import { noteEnvironment, refuseKey } from './shared.js';
import { examples, prints, running, type Declare } from '../define.js';

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

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .description('remove one setting from the profile: its default applies again')
    .argument('<key>', 'setting name')
    .addHelpText('after', examples('trk config unset output', 'trk config unset base-url --profile staging'))
    .action((key) => running(invoke, (ctx) => runConfigUnset({ key }, ctx)));
