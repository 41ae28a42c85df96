// What `trk delete` asks before deleting: how many records go, not how many numbers were typed. A number given
// without a carrier is deleted under every carrier that holds it (the service processes every record), so one
// number can be two records. Numbers given as arguments are looked up first (gettracklist, no quota) and the
// records listed; for a file or a pipe, whose rows only the engine reads, the question says what a number without
// a carrier means. Loaded only when someone is asked.

import type { TrackRecord } from '@trk/service/types.js';
import type { Context } from '../../context/context.js';
import { carrierText } from '../../output/columns.js';
import { sanitizeTerminalText } from '../../io/terminal-text.js';
import { plural } from '../../core/text.js';
import type { ItemActionOptions } from './actions.js';
import { recordsOfNumbers } from '../list/numbers.js';

/** Arguments looked up before asking, at most (5 requests); more are counted as numbers. */
const LOOKUP_MAX = 1000;
/** Records listed above the question, at most. */
const LISTED_MAX = 10;

const UNDONE = 'This cannot be undone.';

/** The question, with the records it is about written above it on stderr when they were looked up. */
export async function deleteQuestion(ctx: Context, opts: ItemActionOptions, numbers: number): Promise<string> {
  if (opts.file === undefined && opts.numbers.length > 0 && opts.numbers.length <= LOOKUP_MAX) {
    try {
      return await lookedUp(ctx, opts);
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      ctx.debug(
        `delete: could not look the numbers up (${err instanceof Error ? err.message : String(err)}); asking by ` +
          `numbers`,
      );
    }
  }
  const every =
    opts.fields?.carrier === undefined ? ' (a number without a carrier goes under every carrier that holds it)' : '';
  return `Delete ${plural(numbers, 'number')} from the account${every}? ${UNDONE}`;
}

async function lookedUp(ctx: Context, opts: ItemActionOptions): Promise<string> {
  const [api, { carrierNames }] = await Promise.all([ctx.api(), import('../../carriers/lookup.js')]);
  const found = await recordsOfNumbers(api, opts.numbers, ctx.signal);
  const records = opts.fields?.carrier === undefined ? found : found.filter((r) => r.carrier === opts.fields?.carrier);
  const typed = new Set(opts.numbers.map((n) => n.trim().toUpperCase()).filter(Boolean));
  const held = new Set(records.map((r) => String(r.number).toUpperCase()));
  const missing = [...typed].filter((n) => !held.has(n));
  const name = await carrierNames(ctx);
  const lines = records.slice(0, LISTED_MAX).map((r) => `  ${recordLine(r, name)}`);
  if (records.length > LISTED_MAX) lines.push(`  … and ${plural(records.length - LISTED_MAX, 'more record')}`);
  if (missing.length > 0)
    lines.push(
      `  not registered${opts.fields?.carrier === undefined ? '' : ` under ${opts.fields?.carrier}`}: ` +
        `${missing.join(', ')}`,
    );
  for (const line of lines) ctx.io.err(sanitizeTerminalText(line));
  if (records.length === 0) return `None of the numbers is registered: send the deletion anyway? ${UNDONE}`;
  const of =
    records.length === typed.size - missing.length ? '' : ` of ${plural(typed.size - missing.length, 'number')}`;
  return (
    `Delete ${records.length === 1 ? 'this record' : `these ${plural(records.length, 'record')}`}${of} ` +
    `from the account? ${UNDONE}`
  );
}

function recordLine(r: TrackRecord, name: (key: number) => string | undefined): string {
  return [String(r.number), carrierText(r.carrier, name), r.package_status].filter(Boolean).join('  ');
}
