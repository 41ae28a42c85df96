// What the webhook commands share: the key notifications are signed with, and the app's URL to forward to.

import { join } from 'node:path';
import type { Settings } from '../../config/settings.js';
import { UsageError } from '../../core/errors.js';
import { LOGIN_HINT } from '@trk/service/codes.js';

export const NO_KEY_HINT = `signatures are made with the account's API key: ${LOGIN_HINT}`;

/**
 * The key notifications are signed with: the profile's, or the emulator's fixed key with --sandbox (the one the
 * embedded emulator signs its deliveries with).
 */
export async function signingKey(settings: Settings): Promise<string | undefined> {
  if (settings.sandbox) {
    const { SANDBOX_KEY } = await import('../../sandbox.js');
    return SANDBOX_KEY;
  }
  return settings.apiKey;
}

/** An http(s) URL to send notifications to (`flag` names it), checked before anything listens or is sent. */
export function parseForwardUrl(v: string, flag = '--forward-to'): string {
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new UsageError(
      `invalid ${flag} URL "${v}"`,
      'give an http:// or https:// URL, e.g. http://127.0.0.1:3000/webhook',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`invalid ${flag} URL "${v}"`, 'only http:// and https:// URLs can be sent to');
  }
  return url.href;
}

/** Where `trk webhook listen` keeps forwards the app has not taken, a folder for each run: in the state folder. */
export function queueRoot(state: string): string {
  return join(state, 'webhook-queue');
}
