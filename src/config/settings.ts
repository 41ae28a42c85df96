// CONTRACT STUB — implemented by the configuration work.

import type { ApiVersion } from '../api/spec.js';

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

export interface Settings {
  profile: string;
  baseUrl: string;
  apiVersion: ApiVersion;
  /** Undefined when none is configured anywhere. Never printed. */
  apiKey: string | undefined;
  resUrl: string;
  /** Run against the embedded emulator (`--sandbox` or a profile named `sandbox`). */
  sandbox: boolean;
  sources: Record<'profile' | 'baseUrl' | 'apiVersion' | 'apiKey' | 'resUrl', SettingSource>;
}
