// What the config commands share: the profile a change goes to, the key they never set, the note that the
// environment still overrides a setting.

import { CONFIG_KEY_FIELD, type ConfigKey } from '../../config/keys.js';
import { unknownProfileError } from '../../config/profile-rules.js';
import { SANDBOX_PROFILE, type Settings } from '../../config/settings.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';

/**
 * The profile to change: saved, or made with --create. "default" too needs --create while it is not saved: made
 * by a setting alone it would be a profile without a key, which the first login would then not replace as the
 * active one. "sandbox" needs no key and always exists.
 */
export async function targetProfile(ctx: Context, create: boolean): Promise<Settings> {
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

export function refuseKey(key: ConfigKey): void {
  if (key === 'api-key') {
    throw new UsageError(
      'the API key is not set with "trk config"',
      'run "trk auth login", which verifies the key before saving it; "trk auth logout" removes it',
    );
  }
}

export function noteEnvironment(ctx: Context, s: Settings, key: ConfigKey): void {
  const field = CONFIG_KEY_FIELD[key];
  if (field !== 'apiKey' && s.sources[field] === 'env') {
    ctx.info(`note: the environment still overrides ${key} (${envName(key)})`);
  }
}

export function envName(key: string): string {
  return `TRK_${key.toUpperCase().replace(/-/g, '_')}`;
}
