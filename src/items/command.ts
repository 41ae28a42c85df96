// What an item command does with `-f FILE` (or `-f -`): the bulk path, then its output and exit code.
//
// Output decision: a bulk write (register, stop, ...) reports on stderr (the summary, rejected rows in
// --rejects FILE); the service's items go to stdout only when a format is asked for (--json, --csv, -o), since
// a table of a hundred thousand "accepted" rows helps nobody and costs memory. Reads (info, list) print their
// results always: they are the point of the command.

import type { ItemResults, TrackListFilter } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { BulkOperation, RowValues } from './fields.js';
import { isReadOnly } from './fields.js';
import type { BulkPlan } from './run-file.js';

/** The flags of the bulk path, as item commands take them. */
export interface BulkFlags {
  /** `-f FILE`; `-` is stdin. */
  file?: string | undefined;
  /** `--dry-run`: check and report, send nothing. */
  dryRun?: boolean | undefined;
  /** `--restart`: ignore (and replace) the journal of an interrupted run. */
  restart?: boolean | undefined;
  /** `--rejects FILE`: the rejected rows, ready to fix and import again. */
  rejects?: string | undefined;
}

export interface FileCommandSpec {
  operation: BulkOperation;
  flags: BulkFlags & { file: string };
  /** Values from the command's flags for every row, by column (a row's own cell wins). */
  defaults?: RowValues | undefined;
  listFilter?: TrackListFilter | undefined;
  /** Print the merged results in the command's usual shape. */
  print(results: ItemResults): Promise<void>;
  /** Asked once the input is checked, before anything is sent (delete asks for confirmation). */
  confirm?: ((plan: BulkPlan) => Promise<void>) | undefined;
}

/** Numbers given as arguments beside -f: one source at a time, so nothing is sent twice or forgotten. */
export function refuseMixedSources(numbers: readonly string[], file: string | undefined): void {
  if (file !== undefined && numbers.length > 0) {
    throw new UsageError('give the numbers as arguments or with -f, not both', 'put them all in the file');
  }
}

export async function runFileCommand(ctx: Context, spec: FileCommandSpec): Promise<number> {
  const [{ runBulkFromFile }, { carrierResolver }] = await Promise.all([import('./run-file.js'), import('../carriers/lookup.js')]);
  const resolve = carrierResolver(ctx);
  const read = isReadOnly(spec.operation);
  const printing = read || ctx.global.output !== undefined;
  const report = await runBulkFromFile(ctx, {
    operation: spec.operation,
    file: spec.flags.file,
    dryRun: spec.flags.dryRun,
    restart: spec.flags.restart,
    rejectsFile: spec.flags.rejects,
    defaults: spec.defaults,
    listFilter: spec.listFilter,
    collect: printing,
    resolveCarrier: (text) => resolve(text),
    confirm: spec.confirm,
  });
  if (spec.flags.dryRun) {
    if (ctx.global.output === 'json') ctx.io.out(`${JSON.stringify(report.plan, null, 2)}\n`);
    return report.exitCode;
  }
  if (printing && report.summary) await spec.print(report.results);
  return report.exitCode;
}

/** Defaults from flags, by column, leaving out the flags not given. */
export function flagDefaults(values: Partial<Record<keyof RowValues, string | number | boolean | undefined>>): RowValues {
  const out: RowValues = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k as keyof RowValues] = String(v);
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
  const { runBulkFromFile } = await import('./run-file.js');
  const report = await runBulkFromFile(ctx, {
    operation: 'gettracklist',
    numbers,
    listFilter: filter,
    collect: false,
    onItems: (r) => onRecords(r.accepted),
  });
  return { records: report.summary?.accepted ?? 0, notFound: report.summary?.notFound ?? 0 };
}
