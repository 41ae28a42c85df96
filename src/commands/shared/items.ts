// The common path of item commands (register, stop, retrack, delete, push, info, change-carrier, update): read
// and validate the numbers, send them in chunks of the size the operation allows, print the merged results and
// turn them into the exit code: 0 when everything was accepted (an empty list too), 3 when anything was
// rejected. A request that fails part-way still shows what was done before the error is raised.

import type { ApiClient } from '../../api/client.js';
import { itemsPerRequest } from '../../api/operations.js';
import type { ApiVersion, Operation } from '../../api/spec.js';
import type { Envelope, ItemResults } from '../../api/types.js';
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { itemColumns } from '../../output/columns.js';
import { printItemResults } from '../../output/render.js';
import { chunk, runChunks, type ChunkRun } from './chunks.js';
import { dedupeNumbers, readNumbers, validateNumbers, type NumberItem } from './input.js';
import { tableNames } from './names.js';

/** Where an item command's numbers come from. */
export interface ItemSourceOptions {
  numbers: readonly string[];
  /** `-f FILE`, `-` for stdin. */
  file?: string | undefined;
  /** `--carrier`: applies to rows without their own carrier. */
  carrier?: number | undefined;
  /** With -f: `--dry-run`, `--restart`, `--rejects FILE` (see src/items/command.ts). */
  dryRun?: boolean | undefined;
  restart?: boolean | undefined;
  rejects?: string | undefined;
}

/** A number with the carrier to use for it (its own column first, then --carrier). */
export interface TargetItem {
  number: string;
  carrier?: number;
}

/** Requests in flight at once; the client's pacer keeps starts within the service's 3 per second. */
export const CHUNK_CONCURRENCY = 4;

/** Read, validate (the whole list before anything is sent: a usage error, exit 2) and de-duplicate the numbers. */
export async function collectTargets(src: ItemSourceOptions, ctx: Context, version: ApiVersion): Promise<TargetItem[]> {
  if (src.file === undefined) refuseFileOnlyFlags(src);
  const read: NumberItem[] = await readNumbers({ args: src.numbers, file: src.file }, ctx.io);
  validateNumbers(read, version);
  const unique = dedupeNumbers(read);
  if (unique.length < read.length) {
    const n = read.length - unique.length;
    ctx.info(`skipped ${n} repeated number${n === 1 ? '' : 's'}`);
  }
  return unique.map((item) => {
    const carrier = item.carrier ?? src.carrier;
    return carrier === undefined ? { number: item.number } : { number: item.number, carrier };
  });
}

/**
 * --dry-run, --restart and --rejects belong to the bulk path (-f). Ignored without a file, `--dry-run` would let
 * the command run for real: register charges quota, delete deletes.
 */
export function refuseFileOnlyFlags(src: Pick<ItemSourceOptions, 'dryRun' | 'restart' | 'rejects'>): void {
  const given: string[] = [];
  if (src.dryRun) given.push('--dry-run');
  if (src.restart) given.push('--restart');
  if (src.rejects !== undefined) given.push('--rejects');
  if (given.length === 0) return;
  throw new UsageError(
    `${given.join(', ')} ${given.length === 1 ? 'works' : 'work'} with -f FILE only`,
    'put the numbers in a file, or pipe them in with -f -; nothing was sent',
  );
}

/** The accepted/rejected lists of one envelope (absent lists are empty). */
export function envelopeResults<A>(env: Envelope<A>): ItemResults<A> {
  return { accepted: env.data?.accepted ?? [], rejected: env.data?.rejected ?? [] };
}

/**
 * Send `items` to `op` in chunks. The signal stops new chunks from starting but is not passed to requests in
 * flight: an interrupted register could have charged quota without telling which numbers were accepted.
 */
export async function sendItems<T, A>(
  ctx: Context,
  api: ApiClient,
  op: Operation,
  items: readonly T[],
  body: (chunk: readonly T[]) => unknown,
): Promise<ChunkRun<A>> {
  const size = itemsPerRequest(api.version, op);
  // Build every body first: what a version cannot express is a usage error before anything is sent.
  const bodies = chunk(items, size).map((c) => body(c));
  return runChunks<unknown, A>(
    bodies.map((b) => [b]),
    async (chunk) => envelopeResults(await api.call<A>(op, chunk[0])),
    { concurrency: CHUNK_CONCURRENCY, signal: ctx.signal },
  );
}

/**
 * How an item command prints the service's items: one row each, carrier names beside codes in a table.
 * `origin` adds register's column of how each carrier was settled.
 */
export async function itemResultsPrinter(
  ctx: Context,
  opts: { origin?: boolean } = {},
): Promise<(results: ItemResults<unknown>) => Promise<void>> {
  const columns = itemColumns({ ...opts, ...(await tableNames(ctx)) });
  return (results) => printItemResults(ctx.io, results, columns, ctx.global.output);
}

/** Verb for the summary line: `registered 38, rejected 2`. */
export interface Summary {
  /** Past participle of the operation, e.g. `registered`, `stopped`. */
  done: string;
  /**
   * A rejection code that means the work was done before (register's -18019901 already registered): counted
   * under these words and not as a rejection for the exit code, as the bulk path (-f) counts it.
   */
  already?: { code: number; words: string };
}

/**
 * Print what came back, then report: the summary on stderr, the error that stopped the run (after the results,
 * so that nothing done is hidden), or the exit code.
 */
export async function finishItems<A>(
  ctx: Context,
  run: ChunkRun<A>,
  print: (results: ItemResults<A>) => Promise<void>,
  summary: Summary,
): Promise<number> {
  const { accepted, rejected } = run.results;
  const answered = accepted.length + rejected.length;
  if (answered > 0 || (run.error === undefined && !ctx.signal.aborted)) await print(run.results);
  const already = summary.already;
  const before = already ? rejected.filter((r) => r.error?.code === already.code).length : 0;
  const refused = rejected.length - before;
  const parts = [`${summary.done} ${accepted.length}`];
  if (before > 0) parts.push(`${already!.words} ${before}`);
  if (refused > 0) parts.push(`rejected ${refused}`);
  if (run.unanswered > 0) parts.push(`no answer for ${run.unanswered}`);
  // When the first request already failed as a whole, the error line says it all: "registered 0, no answer
  // for 1" before "invalid API key" would only suggest the service was silent.
  if (answered > 0 || (run.unanswered > 0 && run.error === undefined)) ctx.info(parts.join(', '));
  if (run.error !== undefined) throw run.error;
  if (run.unanswered > 0 && ctx.signal.aborted) {
    throw new InterruptedError(`interrupted: ${run.unanswered} item${run.unanswered === 1 ? '' : 's'} not sent`);
  }
  return refused > 0 ? EXIT.partial : EXIT.ok;
}

/**
 * Ask before something irreversible or costly. On a terminal the user answers; elsewhere `--yes` is required,
 * and without it nothing is sent (exit 2): a script must say what it means.
 */
export async function confirmOrRefuse(ctx: Context, question: string, refusal: { what: string }): Promise<void> {
  if (ctx.global.yes) return;
  if (!ctx.io.canPrompt()) {
    throw new UsageError(`${refusal.what} needs confirmation`, 'pass --yes to confirm; nothing was sent');
  }
  const ok = await ctx.prompter.confirm(question, false);
  if (!ok) throw new UsageError('cancelled', 'nothing was sent');
}

/** `1 number`, `2 numbers`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
