// The console settings of the emulated account (what the real service sets in its management console)
// plus the two transport settings a rehearsal changes on the fly: clock speed and rate limit. One
// validator for the control endpoint and the `trk sandbox start` flags.

import { API_VERSIONS, type ApiVersion, LIMITS } from '@trk/service/vocabulary.js';
import type { AccountSettings } from './account/types.js';
import { ipMatcher } from './http/ip-allow.js';

/** The sandbox's fixed, documented key. Not a secret: it only opens the local emulator. */
export const SANDBOX_KEY = 'sandbox-key';

/**
 * A fresh sandbox account: generous quota (bulk rehearsals register 100,000 numbers) and no daily cap,
 * so that nothing but the rate limit gets in the way until a rehearsal asks for it.
 */
export const DEFAULT_QUOTA_TOTAL = 1_000_000;

export function defaultAccountSettings(): AccountSettings {
  return {
    key: SANDBOX_KEY,
    webhookUrl: null,
    quotaTotal: DEFAULT_QUOTA_TOTAL,
    maxTrackDaily: 0,
    ipAllowList: [],
    disabled: false,
    realtimeAllowed: true,
  };
}

export const DEFAULT_RATE_LIMIT = LIMITS.requestsPerSecond;

export interface SettingsPatch {
  key?: string;
  webhookUrl?: string | null;
  quotaTotal?: number;
  maxTrackDaily?: number;
  ipAllowList?: string[];
  disabled?: boolean;
  realtimeAllowed?: boolean;
  /** null: each notification in the version its number was registered with. */
  webhookVersion?: ApiVersion | null;
  speed?: number;
  rateLimit?: number;
}

/** Validate a settings change from outside; throws a RangeError naming the field. Unknown fields too. */
export function parseSettingsPatch(input: unknown): SettingsPatch {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new RangeError('settings must be a JSON object');
  }
  const out: SettingsPatch = {};
  for (const [field, value] of Object.entries(input)) {
    switch (field) {
      case 'key':
        if (typeof value !== 'string' || value.trim() === '' || /[\r\n]/.test(value)) {
          throw new RangeError('key must be a non-empty string on one line');
        }
        out.key = value;
        break;
      case 'webhookUrl':
        out.webhookUrl = checkWebhookUrl(value);
        break;
      case 'quotaTotal':
      case 'maxTrackDaily':
      case 'rateLimit':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
          throw new RangeError(`${field} must be a whole number >= 0`);
        }
        out[field] = value;
        break;
      case 'speed':
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
          throw new RangeError('speed must be a number >= 0');
        }
        out.speed = value;
        break;
      case 'ipAllowList':
        if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
          throw new RangeError('ipAllowList must be an array of addresses or subnets');
        }
        ipMatcher(value); // throws on a malformed entry
        out.ipAllowList = value.map((v) => v.trim());
        break;
      case 'disabled':
      case 'realtimeAllowed':
        if (typeof value !== 'boolean') throw new RangeError(`${field} must be true or false`);
        out[field] = value;
        break;
      case 'webhookVersion':
        if (value !== null && !(API_VERSIONS as readonly unknown[]).includes(value)) {
          throw new RangeError(`webhookVersion must be one of ${API_VERSIONS.join(', ')} or null`);
        }
        out.webhookVersion = value as ApiVersion | null;
        break;
      default:
        throw new RangeError(`unknown setting "${field}"`);
    }
  }
  return out;
}

/** An http(s) URL, or null (empty string too) for "no webhook". */
export function checkWebhookUrl(value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value !== 'string') throw new RangeError('webhookUrl must be a URL or null');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RangeError(`webhookUrl "${value}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RangeError('webhookUrl must be an http or https URL');
  }
  return value;
}

/** Apply the account part of a patch in place (the account reads its settings object on every request). */
export function applyAccountSettings(settings: AccountSettings, patch: SettingsPatch): void {
  const { speed: _speed, rateLimit: _rateLimit, webhookVersion, ...rest } = patch;
  Object.assign(settings, rest);
  if (webhookVersion === null) delete settings.webhookVersion;
  else if (webhookVersion !== undefined) settings.webhookVersion = webhookVersion;
}

/** Settings as read back from a state file: only well-formed fields are kept, the rest fall back. */
export function settingsFromState(value: unknown): SettingsPatch {
  if (typeof value !== 'object' || value === null) return {};
  const out: SettingsPatch = {};
  for (const [field, v] of Object.entries(value)) {
    if (field === 'speed' || field === 'rateLimit') continue;
    try {
      Object.assign(out, parseSettingsPatch({ [field]: v }));
    } catch {
      // A hand-edited or older file: ignore the bad field rather than refuse to start.
    }
  }
  return out;
}
