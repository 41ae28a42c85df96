// The settings of one command run, resolved once, on first use (flag > environment > profile > default). Made
// before the context, so that the command line can settle the output format from the profile's default before the
// context is built with it (src/cli.ts), and shared by the context afterwards: the profile file is read once.

import { checkKnownProfile } from '../config/profile-rules.js';
import { readProfiles } from '../config/profile-file.js';
import { isKnownProfile, resolveSettings, type Settings, type SettingFlags } from '../config/settings.js';
import type { GlobalOptions, SettingsOptions } from './context.js';
import type { IO } from '../io/io.js';
import { addSecret } from '../io/secrets.js';
import { sanitizeTerminalText } from '../io/terminal-text.js';

export class SettingsSource {
  private resolving: Promise<Settings> | undefined;
  private readonly flags: SettingFlags;

  constructor(
    private readonly io: IO,
    private readonly env: NodeJS.ProcessEnv,
    global: Readonly<GlobalOptions>,
  ) {
    this.flags = settingFlags(global);
  }

  /** The settings whatever the profile: `auth login` verifies a key for a profile that is not saved yet. */
  resolved(): Promise<Settings> {
    this.resolving ??= Promise.resolve().then(() => this.resolve());
    return this.resolving;
  }

  /** The settings; a profile that is not saved is a usage error listing the saved ones, unless `newProfile`. */
  async settings(opts: SettingsOptions = {}): Promise<Settings> {
    const s = await this.resolved();
    return opts.newProfile || isKnownProfile(s) ? s : checkKnownProfile(s);
  }

  private resolve(): Settings {
    // Read without conf, which only writes need. A file others can read is made private: a warning even with
    // --quiet, as ssh gives one.
    const store = readProfiles(this.env, (line) => this.io.err(sanitizeTerminalText(line)));
    const settings = resolveSettings({ flags: this.flags, env: this.env, store });
    // The key is never printed, whatever carries it back (src/io/secrets.ts).
    addSecret(settings.apiKey);
    // Nor the mail server's password (smtp-url), as typed and as %-decoded.
    const smtpPassword = settings.smtpUrl && URL.canParse(settings.smtpUrl) ? new URL(settings.smtpUrl).password : '';
    for (const p of smtpPassword ? [smtpPassword, decodeURIComponent(smtpPassword)] : []) addSecret(p);
    return settings;
  }
}

/** The global options that are settings given by flag. */
function settingFlags(global: Readonly<GlobalOptions>): SettingFlags {
  return {
    ...(global.profile === undefined ? {} : { profile: global.profile }),
    ...(global.baseUrl === undefined ? {} : { baseUrl: global.baseUrl }),
    ...(global.apiVersion === undefined ? {} : { apiVersion: global.apiVersion }),
    ...(global.sandbox ? { sandbox: true } : {}),
    ...(global.output === undefined ? {} : { output: global.output }),
  };
}
