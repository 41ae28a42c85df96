// trk config set: change one setting of the profile (or a carrier alias); the API key is set by trk auth login.

import { CARRIER_ALIAS_PREFIX, CONFIG_KEY_FIELD, checkConfigKey, validateConfigValue } from '../../config/keys.js';
import type { Context } from '../../context/context.js';
import { shownValue } from '../common/settings-view.js';
import { setAlias } from './carrier-alias.js';
import { noteEnvironment, refuseKey, targetProfile } from './shared.js';
import { examples, prints, running, type Declare } from '../define.js';

export interface ConfigSetOptions {
  key: string;
  value: string;
  /** Create the profile when it is not saved yet. */
  create?: boolean;
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

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .description('change one setting of the profile (the API key is set with "trk auth login")')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value')
    .option('--create', 'create the profile when it is not saved yet (otherwise an unknown profile is refused)')
    .addHelpText(
      'after',
      examples(
        'trk config set api-version v2.1',
        'trk config set output json                 # the default output of this profile',
        'trk config set base-url https://staging.example.com --profile staging --create',
        'trk config set carrier-alias.DHL 7041 --sandbox   # "DHL" means carrier 7041 in the sandbox',
      ),
    )
    .action((key, value, o) => running(invoke, (ctx) => runConfigSet({ key, value, create: o.create === true }, ctx)));
