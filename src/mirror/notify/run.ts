// `trk notify run`: each rule's messages for what it matched since its last run, exactly once. The order of a
// message's life, which is what makes a run safe to kill or to run on two hosts at once:
//   1. claimed in the ledger (a unique claim: of two runs that match one change, one gets it);
//   2. sent to its target, at the target's pace;
//   3. settled: sent, failed (due again after a back-off that doubles) or bounced (never again).
// A run killed between 1 and 3 leaves the claim pending; once its hold has passed (HOLD_MS), a later run takes it as
// due and sends it again: the one message under way is the only one that can arrive twice, with the same
// Message-ID. Matches are read a page at a time (a run of 100,000 holds one page, a digest its lines).

import { clock } from '../../core/clock.js';
import type { LedgerRow, NotifyMatch } from '../../store/notify-types.js';
import type { Store } from '../../store/types.js';
import { backoff, claimOf, HOLD_MS, iso, messageIdOf } from './ledger.js';
import {
  digestLine,
  digestMessage,
  parcelMessage,
  type DigestLine,
  type Message,
  type MessageContext,
} from './messages.js';
import { TargetPace } from './pace.js';
import { matches } from './matching.js';
import type { Rule, Target } from './rules.js';
import type { Senders, SendOutcome } from './targets.js';

export interface NotifyRunOptions {
  dryRun: boolean;
  /** Messages a second to each target; undefined: no pace. */
  pace: number | undefined;
  /** smtp-from: the domain of Message-IDs. */
  from: string | undefined;
}

export interface NotifyOutput {
  /** --dry-run's messages. */
  out(text: string): void;
  info(line: string): void;
  signal?: AbortSignal | undefined;
}

export interface NotifySummary {
  sent: number;
  failed: number;
  bounced: number;
  /** Matches of a customer rule whose parcel has no e-mail. */
  noAddress: number;
  /** --dry-run: messages printed. */
  printed: number;
  /** What failed or bounced, a line each: the rule, the target, why, when it is tried again. */
  problems: string[];
}

/** Where a target's messages go, as the summary names it: a webhook's address without its path (its secret). */
export function shownTarget(t: Target, to: readonly string[]): string {
  if (t.kind === 'http') return `${new URL(t.url).origin}/…`;
  if (t.kind === 'exec') return `exec:${t.command}`;
  return to.join(', ');
}

export class NotifyRun {
  readonly summary: NotifySummary = { sent: 0, failed: 0, bounced: 0, noAddress: 0, printed: 0, problems: [] };
  readonly #pace: TargetPace;

  constructor(
    private readonly store: Store,
    private readonly senders: Senders,
    private readonly messages: Omit<MessageContext, 'now'>,
    private readonly opts: NotifyRunOptions,
    private readonly output: NotifyOutput,
  ) {
    this.#pace = new TargetPace(opts.pace);
  }

  /** Runs every rule in turn. */
  async run(rules: readonly Rule[]): Promise<NotifySummary> {
    for (const rule of rules) {
      if (this.output.signal?.aborted) break;
      await this.runRule(rule);
    }
    return this.summary;
  }

  async runRule(rule: Rule): Promise<void> {
    const upTo = await this.store.lastChange();
    if (rule.digest) await this.#digest(rule, upTo);
    else {
      await this.#retries(rule);
      for await (const m of matches(this.store, rule, upTo, this.#now())) {
        if (this.output.signal?.aborted) return;
        await this.#single(rule, m);
      }
    }
    if (!this.opts.dryRun && !this.output.signal?.aborted)
      await this.store.advanceRule(rule.id, upTo, iso(this.#now()));
  }

  #now(): number {
    return clock().now();
  }

  #context(): MessageContext {
    return { ...this.messages, now: this.#now() };
  }

  /** Who a match's message goes to (a customer without an e-mail: nobody). */
  #recipients(rule: Rule, m: NotifyMatch): string[] {
    if (rule.target.kind === 'customer') return m.parcel.email ? [m.parcel.email] : [];
    return rule.target.kind === 'mailto' ? rule.target.addresses : [];
  }

  async #single(rule: Rule, m: NotifyMatch): Promise<void> {
    const to = this.#recipients(rule, m);
    if (rule.target.kind === 'customer' && to.length === 0) {
      this.summary.noAddress += 1;
      return;
    }
    const claim = claimOf(rule, m, to[0]);
    const messageId = messageIdOf(rule.name, [claim], this.opts.from);
    const message = parcelMessage(rule, m, this.#context());
    if (this.opts.dryRun) {
      if (!(await this.store.claimed([claim])).has(claim)) this.#print(rule, to, messageId, message);
      return;
    }
    const now = this.#now();
    const id = await this.store.claim({
      claim,
      rule_id: rule.id,
      number: m.parcel.number,
      carrier: m.parcel.carrier,
      change_key: m.change.key,
      target: to.join(',') || rule.to,
      payload: JSON.stringify(m),
      message_id: messageId,
      claimed_at: iso(now),
      next_attempt_at: iso(now + HOLD_MS),
    });
    if (id === undefined) return;
    await this.#deliver(rule, [id], 1, to, messageId, message);
  }

  /** Messages of the rule due again: failed ones after their back-off, and those a stopped run left under way. */
  async #retries(rule: Rule): Promise<void> {
    for await (const row of this.#due(rule)) {
      if (this.opts.dryRun) {
        const m = JSON.parse(row.payload) as NotifyMatch;
        this.#print(rule, this.#recipients(rule, m), row.message_id, parcelMessage(rule, m, this.#context()));
        continue;
      }
      if (!(await this.store.retake(row.id, row.next_attempt_at, iso(this.#now() + HOLD_MS)))) continue;
      const m = JSON.parse(row.payload) as NotifyMatch;
      const message = parcelMessage(rule, m, this.#context());
      await this.#deliver(rule, [row.id], row.attempts + 1, this.#recipients(rule, m), row.message_id, message);
    }
  }

  async *#due(rule: Rule): AsyncGenerator<LedgerRow> {
    const now = iso(this.#now());
    for (let after = 0; ; ) {
      const page = await this.store.dueMessages(rule.id, now, after, 500);
      yield* page;
      if (page.length < 500) return;
      after = page[page.length - 1]!.id;
    }
  }

  /** One message a run listing every parcel the rule matched, with those of earlier digests that failed. */
  async #digest(rule: Rule, upTo: number): Promise<void> {
    const lines: DigestLine[] = [];
    const ids: number[] = [];
    const claims: string[] = [];
    let attempts = 1;
    for await (const row of this.#due(rule)) {
      if (!this.opts.dryRun && !(await this.store.retake(row.id, row.next_attempt_at, iso(this.#now() + HOLD_MS))))
        continue;
      lines.push(digestLine(rule, JSON.parse(row.payload) as NotifyMatch, this.#context()));
      ids.push(row.id);
      claims.push(row.claim);
      attempts = Math.max(attempts, row.attempts + 1);
    }
    for await (const m of matches(this.store, rule, upTo, this.#now())) {
      const claim = claimOf(rule, m);
      if (this.opts.dryRun) {
        if ((await this.store.claimed([claim])).has(claim)) continue;
      } else {
        const id = await this.#claimForDigest(rule, m, claim);
        if (id === undefined) continue;
        ids.push(id);
      }
      claims.push(claim);
      lines.push(digestLine(rule, m, this.#context()));
    }
    if (lines.length === 0) return;
    const to = rule.target.kind === 'mailto' ? rule.target.addresses : [];
    const messageId = messageIdOf(rule.name, claims, this.opts.from);
    const message = digestMessage(rule, lines);
    if (this.opts.dryRun) this.#print(rule, to, messageId, message);
    else await this.#deliver(rule, ids, attempts, to, messageId, message);
  }

  #claimForDigest(rule: Rule, m: NotifyMatch, claim: string): Promise<number | undefined> {
    const now = this.#now();
    return this.store.claim({
      claim,
      rule_id: rule.id,
      number: m.parcel.number,
      carrier: m.parcel.carrier,
      change_key: m.change.key,
      target: rule.to,
      payload: JSON.stringify(m),
      message_id: '',
      claimed_at: iso(now),
      next_attempt_at: iso(now + HOLD_MS),
    });
  }

  async #deliver(
    rule: Rule,
    ids: readonly number[],
    attempts: number,
    to: readonly string[],
    messageId: string,
    message: Message,
  ): Promise<void> {
    const target = rule.target;
    await this.#pace.wait(target.kind === 'http' ? target.url : target.kind === 'exec' ? target.command : 'smtp');
    const outcome = await this.#send(target, to, messageId, message);
    const now = this.#now();
    if (outcome.outcome === 'sent') {
      this.summary.sent += 1;
      await this.store.settle(ids, { outcome: 'sent', at: iso(now) });
      return;
    }
    const shown = `rule ${rule.name} → ${shownTarget(target, to)}: ${outcome.error}`;
    if (outcome.outcome === 'bounced') {
      this.summary.bounced += 1;
      this.summary.problems.push(`${shown} (bounced: not tried again)`);
      await this.store.settle(ids, { outcome: 'bounced', at: iso(now), error: outcome.error });
      return;
    }
    const next = iso(now + backoff(attempts));
    this.summary.failed += 1;
    this.summary.problems.push(`${shown} (tried again from ${next.slice(0, 16).replace('T', ' ')} UTC)`);
    await this.store.settle(ids, { outcome: 'failed', at: iso(now), next_attempt_at: next, error: outcome.error });
  }

  #send(target: Target, to: readonly string[], messageId: string, message: Message): Promise<SendOutcome> {
    switch (target.kind) {
      case 'http':
        return this.senders.http(target.url, message);
      case 'exec':
        return this.senders.exec(target.command, message);
      default:
        return this.senders.mail(to, messageId, message);
    }
  }

  #print(rule: Rule, to: readonly string[], messageId: string, m: Message): void {
    this.summary.printed += 1;
    const head = [`Rule: ${rule.name}`, `To: ${shownTarget(rule.target, to)}`, `Subject: ${m.subject}`];
    if (rule.target.kind === 'mailto' || rule.target.kind === 'customer') head.push(`Message-ID: ${messageId}`);
    this.output.out(`${head.join('\n')}\n\n${m.text}\n`);
  }
}
