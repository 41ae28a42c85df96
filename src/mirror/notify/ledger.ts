// What makes a message one, for the ledger: its claim (the same claim twice is the same message, sent once), its
// Message-ID (made from the rule and the change, so that a receiver can drop the one duplicate a killed run may
// leave), and when a message that failed is tried again.

import { nodeCrypto } from '../../core/node.js';
import type { NotifyMatch } from '../../store/notify-types.js';
import type { Rule } from './rules.js';

/** How long a message under way is its run's: a claim older than this was left by a run that stopped. */
export const HOLD_MS = 10 * 60_000;
/** The first wait after a failure, doubled after each (a minute, 2, 4, ...), at most a day. */
export const FIRST_BACKOFF_MS = 60_000;
export const MAX_BACKOFF_MS = 24 * 3_600_000;

/** The wait before attempt `attempts + 1`, after `attempts` failed. */
export function backoff(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/**
 * The claim of a message. A customer gets at most one message per parcel and status, whichever rules match it; any
 * other target one per rule, change and target.
 */
export function claimOf(rule: Pick<Rule, 'id' | 'target' | 'to' | 'digest'>, m: NotifyMatch, to?: string): string {
  const p = m.parcel;
  if (rule.target.kind === 'customer') {
    return `customer|${(to ?? '').toLowerCase()}|${p.number}|${p.carrier}|${m.change.to_status ?? ''}`;
  }
  return `rule:${rule.id}|${m.change.key}|${p.number}|${p.carrier}|${rule.digest ? 'digest' : rule.to}`;
}

/** `<hash@domain>`: the same for the same rule and claims, whichever run sends it. */
export function messageIdOf(ruleName: string, claims: readonly string[], from: string | undefined): string {
  const hash = nodeCrypto().createHash('sha256').update(ruleName);
  for (const c of claims) hash.update('\u0000').update(c);
  const domain = /@([^\s>]+)/.exec(from ?? '')?.[1] ?? 'trk.invalid';
  return `<${hash.digest('hex').slice(0, 40)}@${domain}>`;
}

/** Canonical time of ms since the epoch. */
export const iso = (ms: number): string => new Date(ms).toISOString();
