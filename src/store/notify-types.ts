// What `trk notify` keeps in the mirror and reads of it: its rules (so that every host sharing a PostgreSQL mirror
// sees the same ones), the parcels a rule matches, and the ledger of every message: claimed before it is sent (a
// unique claim: two runs at once send it once), settled after. What a rule means is the mirror's work
// (src/mirror/notify/); the store keeps its spec as text.

import type { RecordKey } from './types.js';

/** A rule as kept: its spec (JSON the mirror's work reads) and how far its runs took the changes. */
export interface NotifyRuleRow {
  id: number;
  name: string;
  spec: string;
  created_at: string;
  /** The last change recorded before the rule was added: it covers those after. */
  first_change: number;
  /** The last change its runs took. */
  last_change: number;
  last_run_at: string | null;
}

/** What a rule's matches are filtered by, besides changes or state. */
export interface NotifyFilter {
  /** Main statuses: a change to one of them, or (for state rules) a parcel now in one. */
  statuses?: readonly string[] | undefined;
  carrier?: number | undefined;
  /** Whole tag, any case. */
  tag?: string | undefined;
}

/** Changes of status after `after` (the rule's cursor), in the order they were recorded. */
export interface ChangeMatchQuery extends NotifyFilter {
  after: number;
  /** The last change of the run (lastChange() at its start). */
  upTo: number;
  limit: number;
}

/**
 * Parcels in a state (still tracked, neither delivered nor expired), after `after` in key order: stuck (latest news,
 * else registration, before `stuckBefore` and not before `stuckSince`), late (estimated window's end before
 * `lateBefore` and not before `lateSince`). The "since" bounds keep what was so before the rule was added out.
 */
export interface StateMatchQuery extends NotifyFilter {
  stuck?: { before: string; since: string } | undefined;
  late?: { before: string; since: string } | undefined;
  after?: RecordKey | undefined;
  limit: number;
}

/** A parcel as a message describes it: the record's references and its details' latest news. */
export interface NotifyParcel extends RecordKey {
  tag: string | null;
  order_no: string | null;
  email: string | null;
  package_status: string | null;
  sub_status: string | null;
  latest_event: string | null;
  latest_event_time: string | null;
  eta_from: string | null;
  eta_to: string | null;
  register_time: string | null;
}

/** What a rule matched: a parcel and the change that made it match (a status change, or a state entered). */
export interface NotifyMatch {
  parcel: NotifyParcel;
  change: {
    /** The change's id (changes table), null for a state (stuck, late). */
    id: number | null;
    /** What makes it one change for the ledger: `c:ID`, `stuck:TIME`, `late:TIME`. */
    key: string;
    from_status: string | null;
    to_status: string | null;
    to_sub_status: string | null;
    event_time: string | null;
    detected_at: string;
  };
}

export type LedgerOutcome = 'pending' | 'sent' | 'failed' | 'bounced';

/** A message's claim, as written before it is sent. */
export interface LedgerClaim extends RecordKey {
  /** Unique: the same claim twice is the same message (rule, change and target; a customer's parcel and status). */
  claim: string;
  rule_id: number;
  change_key: string;
  target: string;
  /** The match as JSON: what a retry sends again. */
  payload: string;
  message_id: string;
  claimed_at: string;
  /** Until then a claim under way is another run's; after it, a run that stopped left it, and it is due again. */
  next_attempt_at: string;
}

export interface LedgerRow extends LedgerClaim {
  id: number;
  outcome: LedgerOutcome;
  attempts: number;
  done_at: string | null;
  error: string | null;
}

/** How a message ended: sent, failed (due again at `next_attempt_at`), bounced (never again). */
export interface LedgerSettle {
  outcome: Exclude<LedgerOutcome, 'pending'>;
  at: string;
  next_attempt_at?: string | undefined;
  error?: string | undefined;
}

export interface LedgerCount {
  rule_id: number;
  outcome: LedgerOutcome;
  count: number;
}

export interface NotifyStore {
  /** Adds a rule covering the changes recorded from now on; undefined when one of that name exists. */
  addRule(name: string, spec: string, createdAt: string): Promise<NotifyRuleRow | undefined>;
  rules(): Promise<NotifyRuleRow[]>;
  /** Removes a rule (its ledger stays, its messages due are no longer sent); false when there is none. */
  removeRule(name: string): Promise<boolean>;
  /** Moves a rule's cursor forward to `to` (never back) and records its run's time. */
  advanceRule(id: number, to: number, runAt: string): Promise<void>;
  changeMatches(query: ChangeMatchQuery): Promise<NotifyMatch[]>;
  stateMatches(query: StateMatchQuery): Promise<NotifyMatch[]>;
  /** Claims a message: its ledger id, or undefined when it was claimed already (by this run or another). */
  claim(entry: LedgerClaim): Promise<number | undefined>;
  /**
   * Takes a message due again (failed, or left under way) for this run: true when it was still due at `seen` (no
   * other run took it since), now held until `hold`.
   */
  retake(id: number, seen: string, hold: string): Promise<boolean>;
  /** Settles messages (a digest's parcels together). */
  settle(ids: readonly number[], how: LedgerSettle): Promise<void>;
  /** The id of the last change recorded (0: none). */
  lastChange(): Promise<number>;
  /** A rule's messages due again at `now` (failed, or under way past their hold), after `afterId`, by id. */
  dueMessages(ruleId: number, now: string, afterId: number, limit: number): Promise<LedgerRow[]>;
  /** Which of these claims the ledger holds. */
  claimed(claims: readonly string[]): Promise<Set<string>>;
  ledgerCounts(): Promise<LedgerCount[]>;
}
