// A notification rule: what it matches (a change to a status, a parcel stuck or late, of a carrier or tag), whom it
// tells (its target) and how (one message per parcel, or a digest per run; a template of its own). Kept in the
// mirror as JSON (store/notify-types.ts), checked here once, when it is added: a rule that cannot send is refused
// then (exit 2), not found out at night.

import { UsageError } from '../../core/errors.js';
import type { NotifyRuleRow } from '../../store/notify-types.js';
import { checkTemplate } from './template.js';

/** Where a rule's messages go. */
export type Target =
  | { kind: 'mailto'; addresses: string[] }
  | { kind: 'customer' }
  | { kind: 'http'; url: string }
  | { kind: 'exec'; command: string };

export interface RuleSpec {
  /** Main statuses: a change to one of them (or, with stuck or late, a parcel now in one). */
  when?: string[] | undefined;
  /** Days without news. */
  stuck?: number | undefined;
  /** Past the end of the service's estimated delivery window. */
  late?: boolean | undefined;
  carrier?: number | undefined;
  tag?: string | undefined;
  /** The target as given (`mailto:ops@example.com`, `customer`, an address, `exec:COMMAND`). */
  to: string;
  digest?: boolean | undefined;
  /** The template's text (the file's, read when the rule was added: every host sharing the mirror has it). */
  template?: string | undefined;
}

export interface Rule extends RuleSpec {
  id: number;
  name: string;
  createdAt: string;
  firstChange: number;
  lastChange: number;
  lastRunAt: string | null;
  target: Target;
}

const RULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** An address as a mail server takes it: something, @, a domain with a dot (or localhost); no spaces or commas. */
const ADDRESS = /^[^\s@,<>]+@[^\s@,<>]+$/;

export function checkRuleName(name: string): string {
  if (RULE_NAME.test(name)) return name;
  throw new UsageError(
    `rule name ${JSON.stringify(name)} is not one`,
    'use letters, digits, dots, dashes and underscores (up to 64), e.g. nightly-trouble',
  );
}

const TARGET_HINT = 'use mailto:ADDRESS[,ADDRESS], customer, an http(s):// address (a chat webhook) or exec:COMMAND';

/** The target `to` names, or a usage error saying what it takes. */
export function parseTarget(to: string): Target {
  const text = to.trim();
  if (text === 'customer') return { kind: 'customer' };
  if (/^mailto:/i.test(text)) {
    const addresses = text
      .slice('mailto:'.length)
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    const bad = addresses.find((a) => !ADDRESS.test(a));
    if (addresses.length === 0 || bad !== undefined) {
      throw new UsageError(`--to ${JSON.stringify(text)} names no mail address${bad ? ` (${bad})` : ''}`, TARGET_HINT);
    }
    return { kind: 'mailto', addresses };
  }
  if (/^https?:\/\//i.test(text)) {
    try {
      return { kind: 'http', url: new URL(text).toString() };
    } catch {
      throw new UsageError(`--to ${JSON.stringify(text)} is not an address`, TARGET_HINT);
    }
  }
  if (/^exec:/i.test(text)) {
    const command = text.slice('exec:'.length).trim();
    if (command === '') throw new UsageError('--to exec: names no command', 'give one, e.g. exec:"./on-change.sh"');
    return { kind: 'exec', command };
  }
  throw new UsageError(`--to ${JSON.stringify(text)} is no target`, TARGET_HINT);
}

/** Checks a new rule as a whole: what it matches, its target, its template. */
export function checkRule(spec: RuleSpec): void {
  if (!spec.when?.length && spec.stuck === undefined && !spec.late) {
    throw new UsageError(
      'the rule matches nothing',
      'give --when STATUS[,STATUS...], --stuck DAYS or --late (with --carrier or --tag to narrow it)',
    );
  }
  const target = parseTarget(spec.to);
  if (spec.digest && target.kind === 'customer') {
    throw new UsageError(
      'a digest lists many customers\' parcels: it cannot go to "customer"',
      'send the digest to the team (mailto:ADDRESS or a chat webhook), or leave out --digest',
    );
  }
  if (spec.template !== undefined) checkTemplate(spec.template, spec.digest === true);
}

/** A rule as the mirror keeps it, read back. */
export function ruleOf(row: NotifyRuleRow): Rule {
  const spec = JSON.parse(row.spec) as RuleSpec;
  return {
    ...spec,
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    firstChange: row.first_change,
    lastChange: row.last_change,
    lastRunAt: row.last_run_at,
    target: parseTarget(spec.to),
  };
}

/** What a rule matches, in words (trk notify list). */
export function describeRule(r: RuleSpec, carrierName?: string): string {
  const parts: string[] = [];
  if (r.when?.length) parts.push(`${r.stuck !== undefined || r.late ? 'in' : 'to'} ${r.when.join(' or ')}`);
  if (r.stuck !== undefined) parts.push(`stuck ${r.stuck}d`);
  if (r.late) parts.push('late');
  if (r.carrier !== undefined) parts.push(`carrier ${carrierName ?? r.carrier}`);
  if (r.tag !== undefined) parts.push(`tag ${r.tag}`);
  return parts.join(', ');
}
