// What item commands (register, stop, retrack, delete, push, info, change-carrier, update) share around the
// item engine (src/items/): the flags every one of them takes, how they print the service's items, carrier
// names in input columns, and the confirmation before something irreversible.

import type { Context } from '../../context/context.js';
import type { FieldValues } from '@trk/service/fields.js';
import { UsageError } from '../../core/errors.js';
import type { ItemFlags } from '../../items/command.js';
import type { CarrierResolver } from '../../items/check.js';
import { itemColumns } from '../../output/columns.js';
import { createItemResultsWriter, type ItemResultsWriter } from '../../output/render.js';
import { tableNames } from '../common/names.js';
import { outputOf } from '../common/output.js';

/** Where an item command's numbers come from, the engine's flags, and its field flags. */
export interface ItemSourceOptions extends ItemFlags {
  /** The field flags given (`--carrier`, `--tag`, ...), by field: they apply to rows without a value of their own. */
  fields?: FieldValues | undefined;
}

/**
 * How an item command prints the service's items: one row each, carrier names beside codes in a table, written
 * as they come. `origin` adds register's column of how each carrier was settled.
 */
export async function itemResultsPrinter(
  ctx: Context,
  opts: { origin?: boolean } = {},
): Promise<() => Promise<ItemResultsWriter>> {
  const columns = itemColumns({ ...opts, ...(await tableNames(ctx)) });
  return async () => createItemResultsWriter(ctx.io, columns, outputOf(ctx), undefined, { already: true });
}

/**
 * Carrier names in input columns become codes with the carrier list (fetched only when a name is met; the
 * lookup code itself is loaded only when a carrier column is met).
 */
export async function inputCarrierResolver(ctx: Context, carrierMap?: string): Promise<CarrierResolver> {
  let resolve: ReturnType<typeof import('../../carriers/lookup.js').carrierResolver> | undefined;
  let loading: Promise<unknown> | undefined;
  const lazy = (text: string) => {
    // Once loaded, a value seen before is answered at once: no promise per row of a long file.
    if (resolve) return resolve(text);
    loading ??= import('../../carriers/lookup.js').then(
      ({ carrierResolver }) => (resolve = carrierResolver(ctx, { carrierMap })),
    );
    return loading.then(() => resolve!(text));
  };
  return Object.assign(lazy, { notes: () => resolve?.notes() ?? [] });
}

/**
 * Ask before something irreversible or costly. On a terminal the user answers; elsewhere `--yes` is required,
 * and without it nothing is sent (exit 2): a script must say what it means. A question that takes work to put
 * (delete looks its records up) is a function, called only when someone is asked.
 */
export async function confirmOrRefuse(
  ctx: Context,
  question: string | (() => Promise<string>),
  refusal: { what: string },
): Promise<void> {
  if (ctx.global.yes) return;
  if (!ctx.io.canPrompt()) {
    throw new UsageError(`${refusal.what} needs confirmation`, 'pass --yes to confirm; nothing was sent');
  }
  const ok = await ctx.prompter.confirm(typeof question === 'string' ? question : await question(), false);
  if (!ok) throw new UsageError('cancelled', 'nothing was sent');
}
