// What a command's run function receives. Everything heavy (settings on disk, the HTTP client, an embedded
// sandbox, prompts) is built lazily on first use, so `trk --help` and `trk completion` never touch them.

import type { ApiClient } from '../api/client.js';
import type { Pacer } from '../pacing/pacer.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { Settings } from '../config/settings.js';
import type { IO } from '../io/io.js';
import type { OutputFormat } from '../output/format.js';

export interface Prompter {
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  input(message: string, defaultValue?: string): Promise<string>;
  /** Masked input, for the API key. */
  password(message: string): Promise<string>;
  /** One of `choices` (arrow keys), starting at `defaultValue`. */
  select(
    message: string,
    choices: readonly { value: string; description?: string }[],
    defaultValue?: string,
  ): Promise<string>;
}

/** Options every command accepts (see src/cli.ts). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  apiVersion?: string;
  sandbox?: boolean;
  output?: OutputFormat;
  quiet?: boolean;
  verbose?: boolean;
  yes?: boolean;
  color?: boolean;
  /** `--timeout <duration>`: the time limit of one request (TRK_TIMEOUT otherwise). */
  timeout?: string;
  /** `--raw-csv`: write CSV cells as received, without neutralising formulas (src/output/csv-cell.ts). */
  rawCsv?: boolean;
  /** `--jq <expr>`: the JSON output filtered by a jq program (src/output/jq.ts); implies output json. */
  jq?: string;
  /** `--columns` (`--fields`) of a command that prints rows: the column keys to print, in order. */
  columns?: readonly string[];
  /** `--relative`: times in tables as ages. */
  relative?: boolean;
  /** `--no-pager`: false. */
  pager?: boolean;
  /** `--header`: tab-separated output starts with the column names. */
  header?: boolean;
}

/** Where a key is used: the rate budget belongs to the key at an address. */
export interface BudgetTarget {
  baseUrl: string;
  apiKey: string;
}

/** Where a wait is shown: what is waited for, in a few words, and for how long. */
export type WaitDisplay = (words: string, ms: number) => void;

export interface SettingsOptions {
  /** The profile may be one not saved yet: `trk auth login` and `trk config set --create` create it. */
  newProfile?: boolean;
}

export interface Context {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  /** Settled before the context is made, output flags and the profile's default output included; never changed. */
  readonly global: Readonly<GlobalOptions>;
  /**
   * Resolved settings (flag > environment > profile > default), with where each came from. A profile name that
   * is not saved is a usage error listing the saved ones (src/config/profile-rules.ts), unless `newProfile`.
   */
  settings(opts?: SettingsOptions): Promise<Settings>;
  /**
   * The API client for the resolved settings; throws CredentialsError when no key is configured. `version`: a
   * client of another API version than the settings' one, on the same key, budget and address (the mirror reads
   * lists in v2.1 whatever the profile's version).
   */
  api(version?: ApiVersion): Promise<ApiClient>;
  /**
   * The rate budget the client starts its requests under: shared by every trk process on the same key
   * (the service counts requests per key), or this process's own with --sandbox. `target` names another key
   * than the settings' one (`trk auth login` verifying a new key).
   */
  pacer(target?: BudgetTarget): Promise<Pacer>;
  readonly prompter: Prompter;
  /**
   * Milliseconds since the epoch, the service's time: under --sandbox, once api() has started the emulator (or
   * reached a running `trk sandbox start`), its simulated clock; else the real clock, moved to the Date of the
   * service's answers once one came when the two are a minute or more apart (a sandbox server reached by its
   * address). Replaceable in tests. Durations are measured with a real clock, not with this.
   */
  now(): number;
  /** Status line on stderr unless --quiet. */
  info(line: string): void;
  /** Debug line on stderr with --verbose or TRK_DEBUG=1. */
  debug(line: string): void;
  /** A warning on stderr, shown even with --quiet: something to fix (a file of customers' data others could read). */
  warn(line: string): void;
  /**
   * Show waits (a hold after a 429, a pause before a retry) somewhere else than as status lines: a progress line
   * shows them in place. `undefined` puts them back on status lines.
   */
  showWaits?(display: WaitDisplay | undefined): void;
  /** Signal that aborts when the user presses Ctrl-C. */
  readonly signal: AbortSignal;
  /** Release what was built (HTTP pools, an embedded sandbox). */
  dispose(): Promise<void>;
}
