// What the chunk runner makes of a chunk's answer, and how a chunk is settled. Only the numbers a request carried
// count; an item rejected as "already in that state" counts as such (after a resend, the operation's codes that
// then mean so too); refusals of the account (quota exhausted, daily limit, no webhook URL, authentication) stop
// the run, with the items they name left pending in the journal, so that the next run sends them once the
// account is fixed; items an answer does not mention are as unknown as after a lost answer. A settled chunk's
// whole outcome goes to the journal (with what an earlier run settled of it) and to the run's results.

import { codeInfo, formatCodeMessage, isAccountRefusal } from '@trk/service/codes.js';
import { itemOperationSpec } from '@trk/service/operations/index.js';
import { TrkError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { isCharging, isReadOnly, type ItemOperation } from './fields.js';
import type { ChunkOutcome } from './journal.js';
import { DEFAULT_MAX_FAILURES, keyOf, noAnswer, type Answer, type Pending, type RunnerCalls } from './chunk-work.js';
import type { LostAnswers } from './lost-answers.js';
import type { RegisteredTags } from './registered-tags.js';
import type { RunnerOptions } from './runner.js';

type Options = Pick<RunnerOptions, 'operation' | 'journal' | 'alsoAlready' | 'maxFailures' | 'onSettled'>;

export class ChunkAnswers {
  readonly #o: Options;
  readonly #op: ItemOperation;
  readonly #runner: RunnerCalls;
  readonly #lost: LostAnswers;
  readonly #tags: RegisteredTags;

  constructor(o: Options, deps: { runner: RunnerCalls; lost: LostAnswers; tags: RegisteredTags }) {
    this.#o = o;
    this.#op = o.operation;
    this.#runner = deps.runner;
    this.#lost = deps.lost;
    this.#tags = deps.tags;
  }

  answered(p: Pending, envelope: Answer): void {
    const answered = new Set<string>();
    // Only the numbers this request carried: an answer naming others (a confused or hostile service) must not
    // count as work done ("registered 9" for 2 numbers). A write's item named twice, word for word, counts once;
    // a number of several records (a stop without a carrier, v1 details of each carrier) is named once per record.
    const asked = new Set(p.open.map((r) => r.key));
    const seen = isReadOnly(this.#op) ? undefined : new Set<string>();
    const takes = (item: { number?: unknown }): boolean => {
      const key = keyOf(item.number);
      const text = seen ? JSON.stringify(item) : '';
      if (!asked.has(key) || seen?.has(text)) {
        this.#runner.debug(`chunk ${p.chunk.index}: ${String(item.number)} not asked, or named twice: ignored`);
        return false;
      }
      seen?.add(text);
      answered.add(key);
      return true;
    };
    for (const item of envelope.data?.accepted ?? []) if (takes(item)) p.accepted.push(item);
    const already = this.#alreadyCodes(p);
    const refused: { key: string; code: number }[] = [];
    for (const item of envelope.data?.rejected ?? []) {
      if (!takes(item)) continue;
      const code = item.error?.code;
      if (typeof code === 'number' && isAccountRefusal(code)) refused.push({ key: keyOf(item.number), code });
      else if (typeof code === 'number' && already.has(code)) p.already.push(item);
      else p.rejected.push(item);
    }
    if (refused.length > 0) {
      this.#refusedAccount(p, answered, refused);
      return;
    }
    p.open = p.open.filter((r) => !answered.has(r.key));
    if (p.open.length === 0) {
      this.#tags.settleOrTag(p);
      return;
    }
    this.#missing(p);
  }

  /** The whole request was refused for what it carried: every item of it is rejected with that code. */
  rejectAll(p: Pending, code: number, message: string): void {
    for (const row of p.open) p.rejected.push({ number: row.item.number, error: { code, message } });
    p.open = [];
    this.settle(p);
  }

  settle(p: Pending, notFound?: number, pending?: string[]): void {
    const outcome: ChunkOutcome = { accepted: p.accepted, rejected: p.rejected, already: p.already };
    if (notFound !== undefined) outcome.notFound = notFound;
    if (pending !== undefined && pending.length > 0) outcome.pending = pending;
    if (this.#o.journal && !isReadOnly(this.#op)) {
      // The journal holds the chunk's whole outcome: what an earlier run settled and what this one did.
      const prior = p.prior;
      this.#o.journal.markDone(
        p.chunk.index,
        prior
          ? {
              ...outcome,
              accepted: [...prior.accepted, ...outcome.accepted],
              rejected: [...prior.rejected, ...outcome.rejected],
              already: [...prior.already, ...outcome.already],
            }
          : outcome,
      );
    }
    this.#o.onSettled({ index: p.chunk.index, rows: p.part }, outcome, false);
  }

  /** The codes that mean "already in that state" for this chunk's answer. */
  #alreadyCodes(p: Pending): Set<number> {
    const spec = itemOperationSpec(this.#op);
    return new Set([
      ...(spec.already?.codes ?? []),
      ...(this.#o.alsoAlready ?? []),
      ...(p.afterUnknown ? (spec.alreadyAfterResend ?? []) : []),
    ]);
  }

  /** Not the item's fault: the rest stays to do, and the run stops with one line naming the fix. */
  #refusedAccount(p: Pending, answered: ReadonlySet<string>, refused: { key: string; code: number }[]): void {
    const pending = new Set(refused.map((r) => r.key));
    for (const row of p.open) if (!answered.has(row.key)) p.rejected.push(noAnswer(row.item.number));
    p.open = p.open.filter((r) => pending.has(r.key));
    this.settle(
      p,
      undefined,
      p.open.map((r) => r.key),
    );
    this.#runner.fail(accountRefusal(refused[0]!.code));
  }

  /** Items the answer does not mention: their fate is as unknown as after a lost answer. */
  #missing(p: Pending): void {
    if (p.failures === 0) p.firstFailureAt = this.#runner.now();
    p.failures += 1;
    this.#runner.debug(`chunk ${p.chunk.index}: ${p.open.length} items missing from the answer`);
    if (p.failures >= (this.#o.maxFailures ?? DEFAULT_MAX_FAILURES)) {
      for (const row of p.open) p.rejected.push(noAnswer(row.item.number));
      p.open = [];
      this.settle(p);
      return;
    }
    p.afterUnknown = true;
    if (isCharging(this.#op)) this.#lost.add(p);
    else this.#runner.first({ kind: 'send', p });
  }
}

/** The account refused what was left (quota, daily limit, webhook URL, authentication): one line, its fix. */
function accountRefusal(code: number): TrkError {
  const info = codeInfo(code);
  return new TrkError(
    `the service refused the account: ${formatCodeMessage(code).replace(/\s*\{\d\}/g, '')} (${code})`,
    {
      exitCode: info?.auth ? EXIT.auth : EXIT.failure,
      ...(info?.hint ? { hint: `${info.hint}, then run the same command again` } : {}),
    },
  );
}
