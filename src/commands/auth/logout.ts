// trk auth logout: remove a profile with its key and settings.

import { DEFAULT_PROFILE_NAME } from '../../config/settings.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { activeLine, describeProfile, openStore } from './shared.js';
import { examples, prints, running, type Declare } from '../define.js';

export type AuthLogoutOptions = Record<string, never>;

/**
 * Removes the profile in use (--profile, TRK_PROFILE, the active one) with its key and settings. On a terminal it
 * asks first unless --yes; without one it does not ask, as `gh auth logout` does not: a script that logs out
 * names what it means, and a removed key is saved again by logging in.
 */
export async function runAuthLogout(_opts: AuthLogoutOptions, ctx: Context): Promise<number> {
  const s = await ctx.settings();
  const store = await openStore(ctx);
  if (!store.list().includes(s.profile)) {
    ctx.info(`profile "${s.profile}" is not saved: nothing to remove`);
  } else {
    if (!ctx.global.yes && ctx.io.canPrompt()) {
      const described = describeProfile(store, s.profile);
      const question = `Remove profile "${s.profile}" (${described}) with its key and settings?`;
      if (!(await ctx.prompter.confirm(question, false))) throw new UsageError('cancelled', 'nothing was removed');
    }
    const wasActive = store.currentName() === s.profile;
    store.remove(s.profile);
    ctx.info(`removed profile "${s.profile}" with its key and settings`);
    // "default" is what commands use when no profile is chosen: said so by making it the active one.
    if (wasActive && store.list().includes(DEFAULT_PROFILE_NAME)) store.setCurrent(DEFAULT_PROFILE_NAME);
    ctx.info(activeLine(store, ctx.env));
  }
  if (s.sources.apiKey === 'env') ctx.info('note: TRK_API_KEY or TRK_API_KEY_FILE is still set in the environment');
  return 0;
}

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .description(
      'remove a profile (--profile, else the active one) with its key and settings; asks first on a terminal ' +
        '(--yes does not)',
    )
    .addHelpText(
      'after',
      examples('trk auth logout --profile staging', 'trk auth logout', 'trk auth logout --profile ci --yes'),
    )
    .action(() => running(invoke, (ctx) => runAuthLogout({}, ctx)));
