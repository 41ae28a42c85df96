// What a rule matches, read from the mirror a page at a time: the changes to its statuses after its cursor (up to
// the last change when its run started), or, for --stuck and --late, the parcels in that state now that entered it
// after the rule was added (a parcel stuck since before is the past, as old changes are).

import type { NotifyFilter, NotifyMatch } from '../../store/notify-types.js';
import type { Store } from '../../store/types.js';
import { iso } from './ledger.js';
import type { Rule } from './rules.js';

export const PAGE = 500;
const DAY_MS = 86_400_000;

/** The start of the UTC day of `ms`. */
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

function filterOf(rule: Rule): NotifyFilter {
  return { statuses: rule.when, carrier: rule.carrier, tag: rule.tag };
}

/** A rule of states (stuck, late) rather than changes. */
export const isStateRule = (rule: Pick<Rule, 'stuck' | 'late'>): boolean => rule.stuck !== undefined || !!rule.late;

export async function* matches(store: Store, rule: Rule, upTo: number, now: number): AsyncGenerator<NotifyMatch> {
  if (isStateRule(rule)) {
    yield* stateMatches(store, rule, now);
    return;
  }
  for (let after = Math.max(rule.firstChange, rule.lastChange); ; ) {
    const page = await store.changeMatches({ ...filterOf(rule), after, upTo, limit: PAGE });
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.change.id!;
  }
}

async function* stateMatches(store: Store, rule: Rule, now: number): AsyncGenerator<NotifyMatch> {
  const created = Date.parse(rule.createdAt);
  const stuck =
    rule.stuck === undefined
      ? undefined
      : { before: iso(now - rule.stuck * DAY_MS), since: iso(created - rule.stuck * DAY_MS) };
  // Late: the whole last day of the estimated window has passed (a window's end is often a date alone).
  const late = rule.late ? { before: iso(dayStart(now)), since: iso(dayStart(created)) } : undefined;
  for (let after: NotifyMatch['parcel'] | undefined; ; ) {
    const page = await store.stateMatches({ ...filterOf(rule), stuck, late, after, limit: PAGE });
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.parcel;
  }
}
