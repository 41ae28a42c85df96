// trk update: change the tag, extra parameter or translation language of numbers. The flags apply
// to every row; a file may carry tag, param and lang columns of its own instead.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';
import { runItemCommand } from '../../items/command.js';
import { operationOfCommand } from '@trk/service/operations/index.js';

export type UpdateOptions = ItemSourceOptions;

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<number> {
  // Numbers given as arguments have no columns of their own: without a flag there is nothing to send.
  const { carrier: _which, ...changes } = opts.fields ?? {};
  if (opts.numbers.length > 0 && Object.values(changes).every((v) => v === undefined)) {
    throw new UsageError('nothing to change', 'give --tag, --param or --lang');
  }
  return runItemCommand(ctx, {
    operation: operationOfCommand('update'),
    flags: opts,
    fields: opts.fields,
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx),
  });
}
