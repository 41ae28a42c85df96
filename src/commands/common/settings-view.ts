// Settings as rows (trk auth status, trk config list): each value with where it came from. The key is never
// shown whole, nor the password of an address (Redis's, PostgreSQL's).

import type { Settings, SettingSource } from '../../config/settings.js';
import { CARRIER_ALIAS_PREFIX, maskKey } from '../../config/keys.js';
import type { Column } from '../../output/render.js';
import { isPostgresLocation, shownLocation } from '../../config/postgres-url.js';

/** A setting's value as it may be shown: an address's password as ***. */
export function shownValue(value: string): string {
  if (isPostgresLocation(value)) return shownLocation(value);
  try {
    const url = new URL(value);
    if (url.password === '') return value;
    url.password = '***';
    return url.toString();
  } catch {
    return value;
  }
}

export interface SettingRow {
  key: string;
  /** Shown value; the key masked, `null` when unset. */
  value: string | null;
  source: SettingSource;
}

/** What the sandbox's settings show where a real account's addresses would be: the emulator in this process. */
export const SANDBOX_ADDRESS = '(the built-in sandbox)';

export function settingRows(s: Settings): SettingRow[] {
  // Under the sandbox the service's addresses are not used: showing them would say requests go there.
  const address = (value: string, source: SettingSource) =>
    s.sandbox ? { value: SANDBOX_ADDRESS, source: s.sources.profile } : { value, source };
  return [
    { key: 'profile', value: s.profile, source: s.sources.profile },
    { key: 'base-url', ...address(s.baseUrl, s.sources.baseUrl) },
    { key: 'api-version', value: s.apiVersion, source: s.sources.apiVersion },
    { key: 'api-key', value: s.apiKey === undefined ? null : maskKey(s.apiKey), source: s.sources.apiKey },
    { key: 'res-url', ...address(s.resUrl, s.sources.resUrl) },
    { key: 'output', value: s.output ?? null, source: s.sources.output },
    {
      key: 'budget-url',
      value: s.budgetUrl === undefined ? null : shownValue(s.budgetUrl),
      source: s.sources.budgetUrl,
    },
    { key: 'db', value: s.db === undefined ? null : shownValue(s.db), source: s.sources.db },
    {
      key: 'smtp-url',
      value: s.smtpUrl === undefined ? null : shownValue(s.smtpUrl),
      source: s.sources.smtpUrl,
    },
    { key: 'smtp-from', value: s.smtpFrom ?? null, source: s.sources.smtpFrom },
    { key: 'tracking-url', value: s.trackingUrl ?? null, source: s.sources.trackingUrl },
    {
      key: 'notify-pace',
      value: s.notifyPace === undefined ? null : String(s.notifyPace),
      source: s.sources.notifyPace,
    },
  ];
}

/** The profile's carrier aliases as settings (`carrier-alias.DHL 7041`), for `trk config list`. */
export function aliasRows(s: Pick<Settings, 'carrierAliases'>): SettingRow[] {
  return Object.entries(s.carrierAliases ?? {}).map(([name, code]) => ({
    key: `${CARRIER_ALIAS_PREFIX}${name}`,
    value: String(code),
    source: 'profile',
  }));
}

export const SETTING_COLUMNS: readonly Column<SettingRow>[] = [
  { key: 'key', header: 'SETTING', value: (r) => r.key },
  { key: 'value', header: 'VALUE', value: (r) => r.value, display: (r) => r.value ?? '(not set)' },
  { key: 'source', header: 'FROM', value: (r) => r.source },
];

/** `{ "base-url": { "value": ..., "source": ... }, ... }` for --json. */
export function settingsObject(
  rows: readonly SettingRow[],
): Record<string, { value: string | null; source: SettingSource }> {
  return Object.fromEntries(rows.map((r) => [r.key, { value: r.value, source: r.source }]));
}
