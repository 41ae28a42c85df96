// What the auth commands share: the profile file opened, a key verified, the lines that say which profile is
// active and what a profile holds.

import type { ApiClient } from '../../api/client.js';
import { wireBody } from '../../api/request-body.js';
import type { ApiVersion } from '@trk/service/vocabulary.js';
import type { QuotaRecord } from '@trk/service/types.js';
import { maskKey } from '../../config/keys.js';
import { savedProfilesText } from '../../config/profile-rules.js';
import type { ProfileStore } from '../../config/profiles.js';
import { DEFAULT_BASE_URL, DEFAULT_PROFILE_NAME } from '../../config/settings.js';
import { DEFAULT_API_VERSION } from '@trk/service/vocabulary.js';
import type { Context } from '../../context/context.js';
import { fmt } from '../../core/text.js';

export const INVALID_KEY = -18010002;

export async function openStore(ctx: Context): Promise<ProfileStore> {
  const { openProfileStore } = await import('../../config/profiles.js');
  return openProfileStore(ctx.env);
}

/**
 * A request that proves the key works and costs nothing: getquota, or for v1, which has none, the first page
 * of the list. Returns the quota left when known.
 */
export async function verifyKey(
  api: ApiClient,
  version: ApiVersion,
  signal?: AbortSignal,
): Promise<number | undefined> {
  if (version === 'v1') {
    await api.call('gettracklist', wireBody('gettracklist', version, { page_no: 1 }), signal ? { signal } : {});
    return undefined;
  }
  const env = await api.call('getquota', wireBody('getquota', version, undefined), signal ? { signal } : {});
  const quota = (env.data ?? {}) as Partial<QuotaRecord>;
  return typeof quota.quota_remain === 'number' ? quota.quota_remain : undefined;
}

/** `key valid, 993,942 units left` */
export function validLine(remain: number | undefined): string {
  return remain === undefined ? 'key valid' : `key valid, ${fmt(remain)} units left`;
}

/** What a command that may have changed the active profile says afterwards. */
export function activeLine(store: ProfileStore, env: NodeJS.ProcessEnv): string {
  const current = store.currentName();
  const saved = store.list();
  let line: string;
  if (current !== undefined) line = `active profile: ${current}`;
  else if (saved.includes(DEFAULT_PROFILE_NAME)) line = `no profile is active: commands use "${DEFAULT_PROFILE_NAME}"`;
  else if (saved.length > 0)
    line = `no profile is active (${savedProfilesText(saved)}): choose one with "trk auth switch NAME"`;
  else line = 'no profile is saved: log in with "trk auth login"';
  const pinned = env.TRK_PROFILE?.trim();
  if (pinned && pinned !== current) line += `; TRK_PROFILE=${pinned} overrides it in this environment`;
  return line;
}

/** `https://api.example.com, v2, key ****wxyz` */
export function describeProfile(store: ProfileStore, name: string): string {
  const p = store.get(name) ?? {};
  return [
    p.baseUrl ?? DEFAULT_BASE_URL,
    p.apiVersion ?? DEFAULT_API_VERSION,
    p.apiKey ? `key ${maskKey(p.apiKey)}` : 'no key',
  ].join(', ');
}
