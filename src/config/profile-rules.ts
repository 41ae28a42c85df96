// Which profile names name something, and what to tell someone whose settings name no usable profile or key.
// Pure: settings.ts resolves the settings (an unsaved name resolves like an empty profile); these rules judge them.
//
// Decision: a name that is not saved is an error wherever it comes from (--profile, TRK_PROFILE, the active
// profile in the config file), so that a typo never runs a command against defaults or creates a profile. Two
// names are always known: "default", the profile used when none is chosen (it may hold nothing yet, e.g. with
// TRK_API_KEY), and "sandbox", which means the emulator. Only `trk auth login` and `trk config set --create`
// accept a new name: they create it.

import { CredentialsError, noApiKeyError, UsageError } from '../core/errors.js';
import { isKnownProfile, type Settings, type SettingSource } from './settings.js';

/** `saved profiles: a, b` or `no profile is saved yet`. */
export function savedProfilesText(saved: readonly string[]): string {
  return saved.length === 0 ? 'no profile is saved yet' : `saved profiles: ${saved.join(', ')}`;
}

const FROM: Readonly<Record<SettingSource, string>> = {
  flag: '--profile; ',
  env: 'TRK_PROFILE; ',
  profile: 'the active profile of the config file; ',
  default: '',
};

/**
 * A name that names no profile: the saved ones listed, and the way to make it (`fix` replaces that hint). `source`
 * is where the name came from; undefined for a command's own argument.
 */
export function unknownProfileError(
  name: string,
  saved: readonly string[],
  source?: SettingSource,
  fix?: string,
): UsageError {
  const hint =
    fix ??
    (source === 'profile'
      ? `choose one with "trk auth switch NAME", or log in to it with "trk auth login --profile ${name}"`
      : `check the name, or create the profile with "trk auth login --profile ${name}"`);
  return new UsageError(
    `unknown profile "${name}" (${source === undefined ? '' : FROM[source]}${savedProfilesText(saved)})`,
    hint,
  );
}

/** The settings, when their profile is known; else the error listing the saved ones (exit 2). */
export function checkKnownProfile(s: Settings): Settings {
  if (!isKnownProfile(s)) throw unknownProfileError(s.profile, s.savedProfiles, s.sources.profile);
  return s;
}

/**
 * No key anywhere: said in terms of the profiles, since "no API key" alone does not tell someone who just logged
 * out of the active profile, or whose profile was made by `config set`, what to do.
 */
export function missingKeyError(s: Pick<Settings, 'profile' | 'savedProfiles' | 'sources'>): CredentialsError {
  if (s.savedProfiles.includes(s.profile)) {
    return new CredentialsError(
      `profile "${s.profile}" has no API key`,
      `run "trk auth login --profile ${s.profile}", or set TRK_API_KEY`,
    );
  }
  if (s.sources.profile === 'default' && s.savedProfiles.length > 0) {
    return new CredentialsError(
      `not logged in: no profile is active (${savedProfilesText(s.savedProfiles)})`,
      'run "trk auth switch NAME" to use one of them, or "trk auth login" to log in',
    );
  }
  return noApiKeyError();
}
