// trk update: change the tag, extra parameter or translation language of numbers (changeinfo). The flags apply
// to every row; a file may carry tag, param and lang columns of its own instead.

import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';
import { flagDefaults, runItemCommand } from '../../items/command.js';

export interface UpdateOptions extends ItemSourceOptions {
  tag?: string | undefined;
  param?: string | undefined;
  lang?: string | undefined;
}

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<number> {
  // Numbers given as arguments have no columns of their own: without a flag there is nothing to send.
  if (opts.numbers.length > 0 && opts.tag === undefined && opts.param === undefined && opts.lang === undefined) {
    throw new UsageError('nothing to change', 'give --tag, --param or --lang');
  }
  return runItemCommand(ctx, {
    operation: 'changeinfo',
    flags: opts,
    defaults: flagDefaults({ carrier: opts.carrier, tag: opts.tag, param: opts.param, lang: opts.lang }),
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx),
  });
}
