// What `trk report`'s flags of time and carriers mean: a canonical time, carrier codes.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { canonicalTime } from '../../store/rows.js';
import { resolveCarrierFlags } from '../common/carrier-args.js';
import { parseTimeArg } from '../list/time.js';

export const DAY_MS = 86_400_000;

/** `--since`: an age or a date, as a canonical time. */
export function sinceOf(text: string | undefined, now: number): string | undefined {
  if (text === undefined) return undefined;
  const iso = parseTimeArg(text, now);
  if (iso === undefined)
    throw new UsageError(`--since "${text}" is not a time`, 'give an age such as 30d or 12w, or a date (2026-06-01)');
  return canonicalTime(iso) ?? undefined;
}

export async function carrierCodes(ctx: Context, values: readonly string[] | undefined): Promise<number[] | undefined> {
  if (values === undefined) return undefined;
  const codes: number[] = [];
  for (const value of values) {
    const { carrier } = await resolveCarrierFlags(
      ctx,
      { carrier: ['--carrier', value] },
      { refuseNone: 'a report filter needs a carrier: drop --carrier to report on every carrier' },
    );
    if (carrier !== undefined) codes.push(carrier);
  }
  return codes;
}
