// trk register: register tracking numbers for automatic tracking. Costs quota per accepted number (one more
// with --lang). Flags apply to every row without a value of its own.

import type { Context } from '../../context/context.js';
import { inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';
import { runItemCommand } from '../../items/command.js';

export type RegisterOptions = ItemSourceOptions;

export async function runRegister(opts: RegisterOptions, ctx: Context): Promise<number> {
  return runItemCommand(ctx, {
    operation: 'register',
    flags: opts,
    fields: opts.fields,
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx, { origin: true }),
  });
}
