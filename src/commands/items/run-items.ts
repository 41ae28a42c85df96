// The run of an item command that is the engine's run and nothing more (register, change-carrier, update, stop,
// ...): carrier names of its input resolved, its items printed as the answers come. Its command file imports it
// when the command runs, so that a declaration loads no part of the engine.

import type { Context } from '../../context/context.js';
import { runItemCommand, type ItemCommandSpec } from '../../items/command.js';
import type { ItemOperation } from '@trk/service/operations/index.js';
import { inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';

/** What a command adds to the engine's run: register's column of carriers' origins, codes counted as done. */
export interface ItemRunExtras extends Pick<ItemCommandSpec, 'alsoAlready' | 'confirm'> {
  origin?: boolean;
}

export async function runItems(
  ctx: Context,
  operation: ItemOperation,
  opts: ItemSourceOptions,
  extras: ItemRunExtras = {},
): Promise<number> {
  const { origin, ...more } = extras;
  return runItemCommand(ctx, {
    operation,
    flags: opts,
    fields: opts.fields,
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx, origin ? { origin } : {}),
    ...more,
  });
}
