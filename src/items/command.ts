// An item command's run: the engine (src/items/run.ts), then the command's output and exit code.
//
// Output: a write (register, stop, ...) over a file or a pipe reports on stderr (the summary; rejected rows in
// --rejects FILE), and the service's items go to stdout only when a format is asked for (--json, --csv, -o):
// a table of a hundred thousand "accepted" rows helps nobody and costs memory. Numbers given as arguments get
// their results printed as well, as do reads (info, list), whose results are the point of the command.
// The items are written as their chunks settle, in the input's order (a chunk answered early waits for the ones
// before it, a bounded while: src/items/in-order.ts), never gathered: `info -f` of any number of numbers with
// --json takes flat memory (src/output/render.ts createItemResultsWriter). A run that fails part-way leaves output that
// cannot pass for a complete one (ItemResultsWriter.abort), as a list that fails part-way does.

import path from 'node:path';
import type { FieldValues } from '@trk/service/fields.js';
import type { TrackListFilter } from '@trk/service/types.js';
import type { Context } from '../context/context.js';
import { EXIT } from '../core/exit-codes.js';
import type { CarrierResolver } from './check.js';
import { isReadOnly, type ItemOperation, type RowValues } from './fields.js';
import type { ItemResultsWriter } from '../output/render.js';
import { runItems, type ItemFlags, type ItemPlan, type ItemReport } from './run.js';
import type { SourceFlags } from './source.js';
import { stateDir } from '../config/paths.js';

export type { ItemFlags, ItemPlan } from './run.js';

export interface ItemCommandSpec {
  operation: ItemOperation;
  flags: ItemFlags;
  /** Values of the command's field flags for every row, by field (a row's own cell wins). */
  fields?: FieldValues | undefined;
  /** Rejection codes counted as done (delete --ignore-missing). */
  alsoAlready?: readonly number[] | undefined;
  /** Carrier names in the input → codes. */
  resolveCarrier?: CarrierResolver | undefined;
  /** Opens the writer of the command's items, in its usual shape; called only when they are printed. */
  print(): Promise<ItemResultsWriter>;
  /** Asked once the input is checked, before anything is sent (delete asks for confirmation). */
  confirm?: ((plan: ItemPlan) => Promise<void>) | undefined;
}

export async function runItemCommand(ctx: Context, spec: ItemCommandSpec): Promise<number> {
  const printing = isReadOnly(spec.operation) || ctx.global.output !== undefined || spec.flags.numbers.length > 0;
  const writer = printing ? await spec.print() : undefined;
  let ended = false;
  const end = async () => {
    ended = true;
    await writer?.end();
  };
  let report: ItemReport;
  try {
    report = await runItems(ctx, {
      operation: spec.operation,
      flags: spec.flags,
      defaults: rowValuesOf(spec.fields),
      alsoAlready: spec.alsoAlready,
      collect: false,
      onItems: writer && ((results) => writer.write(results)),
      beforeSummary: end,
      resolveCarrier: spec.resolveCarrier,
      confirm: spec.confirm,
    });
  } catch (err) {
    if (!ended) await writer?.abort();
    throw err;
  }
  // A dry run, or nothing to send: nothing was written, and nothing is (not even an empty document).
  if (!ended) await writer?.abort();
  return report.exitCode;
}

/** The flags' values as the text of a row's cells (checked as cells are), leaving out the flags not given. */
function rowValuesOf(fields: FieldValues | undefined): RowValues | undefined {
  if (fields === undefined) return undefined;
  const out: RowValues = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k as keyof RowValues] = String(v);
  return out;
}

/**
 * `trk list --number` with more numbers than one call takes: calls of 200 (every page of each), records
 * handed to `onRecords` as each call completes, so nothing is held for the whole list. Exact matches only.
 */
export async function listManyNumbers(
  ctx: Context,
  numbers: readonly string[],
  filter: TrackListFilter,
  onRecords: (records: Record<string, unknown>[]) => void,
): Promise<{ records: number; notFound: number }> {
  const report = await runItems(ctx, {
    operation: 'gettracklist',
    flags: { numbers },
    listFilter: filter,
    collect: false,
    onItems: (r) => onRecords(r.accepted),
  });
  if (report.exitCode !== EXIT.ok && report.summary === undefined) return { records: 0, notFound: 0 };
  return { records: report.summary?.accepted ?? 0, notFound: report.summary?.notFound ?? 0 };
}

/**
 * The numbers of an input (arguments, a file or stdin, in any format the engine reads), with the carrier a row
 * names: for reads that send nothing per number (the mirror's `info --offline`).
 */
export async function* inputNumbers(
  ctx: Context,
  flags: SourceFlags,
): AsyncGenerator<{ number: string; carrier: string | undefined }> {
  const [{ openSource }, { openRows, rowValues }, { apiVersion }] = await Promise.all([
    import('./source.js'),
    import('./read.js'),
    ctx.settings(),
  ]);
  const source = await openSource(flags, ctx.io, path.join(stateDir(ctx.env), 'spool'));
  try {
    const input = await openRows(source, { operation: 'gettrackinfo', version: apiVersion });
    try {
      for await (const row of input.rows) {
        const values = rowValues(row, input.layout);
        if (values.number) yield { number: values.number, carrier: values.carrier };
      }
    } finally {
      input.close();
    }
  } finally {
    await source.cleanup();
  }
}
