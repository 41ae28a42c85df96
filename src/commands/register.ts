// trk register: register tracking numbers for automatic tracking. Costs quota per accepted number (one more
// with --lang).

import { registerBody } from '../api/operations.js';
import type { RegisterAccepted, RegisterRequestItem } from '../api/types.js';
import type { Context } from '../context.js';
import { collectTargets, finishItems, itemResultsPrinter, sendItems, type ItemSourceOptions } from './shared/items.js';

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

/** The service's "number already registered": nothing was charged and the number is tracked, as asked. */
const ALREADY_REGISTERED = -18019901;

export function registerItem(target: { number: string; carrier?: number }, opts: RegisterOptions): RegisterRequestItem {
  const item: RegisterRequestItem = { number: target.number };
  if (target.carrier !== undefined) item.carrier = target.carrier;
  if (opts.param !== undefined) item.param = opts.param;
  if (opts.tag !== undefined) item.tag = opts.tag;
  if (opts.lang !== undefined) item.lang = opts.lang;
  if (opts.email !== undefined) item.email = opts.email;
  if (opts.finalCarrier !== undefined) item.final_carrier = opts.finalCarrier;
  // Only meaningful without a carrier; the service ignores it otherwise.
  if (!opts.autoDetection && target.carrier === undefined) item.auto_detection = false;
  if (opts.orderNo !== undefined) item.order_no = opts.orderNo;
  if (opts.orderTime !== undefined) item.order_time = opts.orderTime;
  if (opts.remark !== undefined) item.remark = opts.remark;
  return item;
}

export async function runRegister(opts: RegisterOptions, ctx: Context): Promise<number> {
  if (opts.file !== undefined) {
    // -f FILE: the bulk path (checked first, journaled, resumable); the flags apply to rows without the column.
    const { flagDefaults, refuseMixedSources, runFileCommand } = await import('../items/command.js');
    refuseMixedSources(opts.numbers, opts.file);
    const print = await itemResultsPrinter(ctx, { origin: true });
    return runFileCommand(ctx, {
      operation: 'register',
      flags: { ...opts, file: opts.file },
      defaults: flagDefaults({
        carrier: opts.carrier,
        param: opts.param,
        tag: opts.tag,
        lang: opts.lang,
        email: opts.email,
        final_carrier: opts.finalCarrier,
        auto_detection: opts.autoDetection ? undefined : false,
        order_no: opts.orderNo,
        order_time: opts.orderTime,
        remark: opts.remark,
      }),
      print,
    });
  }
  const { apiVersion } = await ctx.settings();
  const targets = await collectTargets(opts, ctx, apiVersion);
  const items = targets.map((t) => registerItem(t, opts));
  // Refuses fields the version cannot carry (e.g. --order-no on v2) before anything is sent.
  registerBody(apiVersion, items);
  if (items.length === 0) {
    ctx.info('no numbers to register');
    return 0;
  }
  const api = await ctx.api();
  const run = await sendItems<RegisterRequestItem, RegisterAccepted>(ctx, api, 'register', items, (chunk) =>
    registerBody(api.version, chunk),
  );
  return finishItems(ctx, run, await itemResultsPrinter(ctx, { origin: true }), {
    done: 'registered',
    already: { code: ALREADY_REGISTERED, words: 'already registered' },
  });
}
