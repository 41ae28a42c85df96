// trk auth switch: make a saved profile the active one.

import { savedProfilesText, unknownProfileError } from '../../config/profile-rules.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { activeLine, describeProfile, openStore } from './shared.js';
import { examples, prints, running, type Declare } from '../define.js';

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

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .description('make a saved profile the active one (asks which on a terminal when no name is given)')
    .argument('[profile]', 'the profile ("trk auth list" shows them)')
    .addHelpText('after', examples('trk auth switch shop-eu', 'trk auth switch'))
    .action((name) => running(invoke, (ctx) => runAuthSwitch({ name }, ctx)));
