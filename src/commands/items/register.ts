// trk register: register tracking numbers for automatic tracking. Costs quota per accepted number (one more
// with --lang). Flags apply to every row without a value of its own.

import type { Context } from '../../context.js';
import { inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';
import { flagDefaults, runItemCommand } from '../../items/command.js';

export interface RegisterOptions extends ItemSourceOptions {
  param?: string | undefined;
  tag?: string | undefined;
  lang?: string | undefined;
  email?: string | undefined;
  finalCarrier?: number | undefined;
  /** false with --no-auto-detection. */
  autoDetection: boolean;
  orderNo?: string | undefined;
  orderTime?: string | undefined;
  remark?: string | undefined;
}

export async function runRegister(opts: RegisterOptions, ctx: Context): Promise<number> {
  return runItemCommand(ctx, {
    operation: 'register',
    flags: opts,
    defaults: flagDefaults({
      carrier: opts.carrier,
      param: opts.param,
      tag: opts.tag,
      lang: opts.lang,
      email: opts.email,
      final_carrier: opts.finalCarrier,
      // Only meaningful for rows without a carrier; the service ignores it otherwise.
      auto_detection: opts.autoDetection ? undefined : false,
      order_no: opts.orderNo,
      order_time: opts.orderTime,
      remark: opts.remark,
    }),
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx, { origin: true }),
  });
}
