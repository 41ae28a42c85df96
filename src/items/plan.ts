// What a run will take, and the quota that must cover it: the plan a dry run prints, the refusal a real run meets
// when the quota or today's cap is short, and the words of both.

import { wireBody } from '../api/request-body.js';
import type { ApiClient } from '../api/client.js';
import { commandName, doneWord } from '@trk/service/operations/index.js';
import { LIMITS, type ApiVersion } from '@trk/service/vocabulary.js';
import type { QuotaRecord } from '@trk/service/types.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import { duration, fmt, plural } from '../core/text.js';
import type { ItemOperation } from './fields.js';
import type { FinishedRun } from './runs.js';
import { chunkSize, type ScanResult } from './scan.js';

/** What a run will take. */
export interface ItemPlan {
  operation: ItemOperation;
  version: ApiVersion;
  input: string;
  items: number;
  requests: number;
  /** Items a request carries at most. */
  perRequest: number;
  /** Quota units (0 for operations that cost none). */
  units: number;
  /** Rows set aside by --skip-invalid. */
  invalid: number;
  /** Done by an interrupted run of the same input (its journal). */
  done: { items: number; requests: number; units: number };
  /** For what is left, at 3 requests a second. */
  secondsAtCeiling: number;
  /** The input was fully sent before (nothing is sent without --again). */
  finishedBefore?: { finished: string; counts: FinishedRun['counts'] };
  /** Rows left out because an earlier run of the file had them confirmed, and when that run ended. */
  sentBefore?: { rows: number; when: string };
  /** The quota as read before the run (charging operations, v2 and v2.1). */
  quota?: { remaining?: number; dailyLeft?: number };
  /** Rows of what is left that are registered already (register; looked up by a dry run or a short quota). */
  registered?: { items: number; units: number };
  /** An interrupted run of the file with other requests, which a real run replaces. */
  replaces?: { when: string; done: number; leftBehind: number };
}

export function sumOver(values: ArrayLike<number>, chunks: ReadonlySet<number>): number {
  let sum = 0;
  for (const c of chunks) sum += values[c] ?? 0;
  return sum;
}

export function makePlan(
  op: ItemOperation,
  version: ApiVersion,
  input: string,
  scan: ScanResult,
  done: ReadonlySet<number> | undefined,
): ItemPlan {
  const requests = scan.chunkItems.length;
  const doneSet = done ?? new Set<number>();
  const doneRequests = [...doneSet].filter((c) => c < requests).length;
  return {
    operation: op,
    version,
    input,
    items: scan.items,
    requests,
    perRequest: chunkSize(op, version),
    units: scan.units,
    invalid: scan.problems.count,
    done: {
      items: sumOver(scan.chunkItems, doneSet),
      requests: doneRequests,
      units: sumOver(scan.chunkUnits, doneSet),
    },
    secondsAtCeiling: (requests - doneRequests) / LIMITS.requestsPerSecond,
  };
}

/** `2026-11-24 02:02`, in the local time zone. */
export function when(ms: number | string): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `2026-11-25`, in the local time zone. */
export function day(ms: number | string): string {
  return when(ms).slice(0, 10);
}

function finishedText(display: string, op: ItemOperation, before: NonNullable<ItemPlan['finishedBefore']>): string {
  const c = before.counts;
  const parts = [`${fmt(c.accepted)} ${doneWord(op)}`];
  if (c.already > 0) parts.push(`${fmt(c.already)} already`);
  if (c.rejected > 0) parts.push(`${fmt(c.rejected)} rejected`);
  const command = commandName(op);
  const on = when(before.finished);
  return `${display}: the same input was fully sent by trk ${command} on ${on} (${parts.join(', ')})`;
}

export function finishedLine(
  display: string,
  op: ItemOperation,
  before: NonNullable<ItemPlan['finishedBefore']>,
): string {
  return `${finishedText(display, op, before)}; nothing was sent: pass --again to send it again`;
}

/** `1,000 rows already sent by the run of 2026-11-25; 100 new`. */
export function sentBeforeText(sent: NonNullable<ItemPlan['sentBefore']>, fresh: number): string {
  return `${plural(sent.rows, 'row')} already sent by the run of ${day(sent.when)}; ${fmt(fresh)} new`;
}

/** The dry run's report. */
export function planLines(plan: ItemPlan): string[] {
  const lines = [
    `dry run: ${commandName(plan.operation)} ${plan.input} (API ${plan.version})`,
    `  ${plural(plan.items, 'item')} in ${plural(plan.requests, 'request')}` +
      (plan.requests > 0 ? ` of up to ${plan.perRequest}` : ''),
  ];
  if (plan.sentBefore) {
    lines.push(`  ${sentBeforeText(plan.sentBefore, plan.items)}: a real run sends the new ones only`);
  }
  if (plan.invalid > 0) lines.push(`  ${plural(plan.invalid, 'invalid row')} set aside`);
  if (plan.finishedBefore) {
    lines.push(
      `  ${finishedText(plan.input, plan.operation, plan.finishedBefore)}: a real run sends nothing without --again`,
    );
  }
  if (plan.replaces) {
    const r = plan.replaces;
    lines.push(
      `  an interrupted run of this file (${when(r.when)}, ${plural(r.done, 'number')} done) ` +
        'read it before it changed: ' +
        'a real run starts ' +
        `a new one` +
        (r.leftBehind > 0
          ? `, naming the ${plural(r.leftBehind, 'number')} of it not sent and no longer in the file`
          : ''),
    );
  }
  if (plan.done.items > 0) {
    lines.push(
      `  an interrupted run of this input is saved: ${fmt(plan.done.items)} done, ` +
        `${fmt(plan.items - plan.done.items)} left in ${plural(plan.requests - plan.done.requests, 'request')}`,
    );
  }
  lines.push(
    `  about ${duration(Math.ceil(plan.secondsAtCeiling))} ` +
      `at the service's ceiling of ${LIMITS.requestsPerSecond} requests a second`,
  );
  if (plan.units > 0) lines.push(quotaLine(plan));
  lines.push('nothing was sent');
  return lines;
}

function quotaLine(plan: ItemPlan): string {
  const registered = plan.registered;
  const units = plan.units - plan.done.units - (registered?.units ?? 0);
  const extra = plan.units - plan.items;
  let quota =
    `  quota: ${plural(units, 'unit')}` +
    (extra > 0 && plan.operation === 'register' ? ` (${fmt(extra)} with a translation language cost 2)` : '');
  if (registered && registered.items > 0) {
    const fresh = plan.items - plan.done.items - registered.items;
    quota += ` for ${plural(fresh, 'new number')} (${fmt(registered.items)} registered already cost nothing)`;
  } else if (registered) quota += ', every number new';
  if (plan.version === 'v1') quota += '; v1 cannot read the quota, so it is not checked';
  else if (plan.quota?.remaining !== undefined)
    quota +=
      `, ${fmt(plan.quota.remaining)} left` +
      (plan.quota.dailyLeft !== undefined ? `, ${fmt(plan.quota.dailyLeft)} left today` : '');
  return quota;
}

/** The quota record, asked for in the background; rejections are kept for when the answer is needed. */
export function readQuota(ctx: Context, client: ApiClient | undefined): Promise<Partial<QuotaRecord>> {
  const p = (async () => {
    const api = client ?? (await ctx.api());
    const envelope = await api.call('getquota', wireBody('getquota', api.version, undefined), { signal: ctx.signal });
    return (envelope.data ?? {}) as Partial<QuotaRecord>;
  })();
  // Awaited later, or dropped when the input is refused: never an unhandled rejection.
  p.catch(() => {});
  return p;
}

export async function quotaForPlan(quota: Promise<Partial<QuotaRecord>>): Promise<ItemPlan['quota']> {
  const q = await quota;
  const out: NonNullable<ItemPlan['quota']> = {};
  const remain = num(q.quota_remain);
  if (remain !== undefined) out.remaining = remain;
  const cap = num(q.max_track_daily);
  if (cap !== undefined && cap > 0) out.dailyLeft = Math.max(0, cap - (num(q.today_used) ?? 0));
  return out;
}

/** Whether `needed` units are more than the quota or today's cap leave. */
export function quotaShort(needed: number, q: NonNullable<ItemPlan['quota']>): boolean {
  return (
    needed > 0 &&
    ((q.remaining !== undefined && needed > q.remaining) || (q.dailyLeft !== undefined && needed > q.dailyLeft))
  );
}

/**
 * Refuse (exit 2) when the quota or today's cap cannot cover what the plan charges. `registered`: rows found
 * registered already, left out of `needed`, named in the message.
 */
export function refuseShortQuota(
  needed: number,
  q: NonNullable<ItemPlan['quota']>,
  display: string,
  registered?: ItemPlan['registered'],
): void {
  if (!quotaShort(needed, q)) return;
  const what =
    registered && registered.items > 0
      ? `its new numbers need ${fmt(needed)} units ` +
        `(the other ${fmt(registered.items)} are registered already and cost nothing)`
      : `it needs ${fmt(needed)} units`;
  if (q.remaining !== undefined && needed > q.remaining) {
    throw new UsageError(
      `not enough quota for ${display}: ${what}, ${fmt(q.remaining)} are left (${fmt(needed - q.remaining)} missing)`,
      'add quota to the account, or send part of the input; nothing was sent',
    );
  }
  const left = q.dailyLeft ?? 0;
  throw new UsageError(
    `the daily limit does not cover ${display}: ${what}, today leaves ${fmt(left)} (${fmt(needed - left)} missing)`,
    'raise the daily limit in the console, or send the rest after 00:00 UTC; nothing was sent',
  );
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
