// trk update: change the tag, extra parameter or translation language of numbers (changeinfo).

import { changeInfoBody } from '../api/operations.js';
import type { ChangeInfoRequestItem, NumberCarrierAccepted } from '../api/types.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { collectTargets, finishItems, itemResultsPrinter, sendItems, type ItemSourceOptions } from './shared/items.js';

export interface UpdateOptions extends ItemSourceOptions {
  tag?: string | undefined;
  param?: string | undefined;
  lang?: string | undefined;
}

export async function runUpdate(opts: UpdateOptions, ctx: Context): Promise<number> {
  if (opts.file !== undefined) {
    // A file may carry tag, param and lang columns of its own: rows with nothing to change are reported there.
    const { flagDefaults, refuseMixedSources, runFileCommand } = await import('../items/command.js');
    refuseMixedSources(opts.numbers, opts.file);
    const print = await itemResultsPrinter(ctx);
    return runFileCommand(ctx, {
      operation: 'changeinfo',
      flags: { ...opts, file: opts.file },
      defaults: flagDefaults({ carrier: opts.carrier, tag: opts.tag, param: opts.param, lang: opts.lang }),
      print,
    });
  }
  if (opts.tag === undefined && opts.param === undefined && opts.lang === undefined) {
    throw new UsageError('nothing to change', 'give --tag, --param or --lang');
  }
  const { apiVersion } = await ctx.settings();
  const targets = await collectTargets(opts, ctx, apiVersion);
  const items: ChangeInfoRequestItem[] = targets.map((t) => {
    const item: ChangeInfoRequestItem = { number: t.number, items: {} };
    if (t.carrier !== undefined) item.carrier = t.carrier;
    if (opts.tag !== undefined) item.items.tag = opts.tag;
    if (opts.param !== undefined) item.items.param = opts.param;
    if (opts.lang !== undefined) item.items.lang = opts.lang;
    return item;
  });
  // What the version cannot change (v1: only the tag) is refused before anything is sent.
  if (items[0]) changeInfoBody(apiVersion, [items[0]]);
  if (items.length === 0) {
    ctx.info('no numbers given');
    return 0;
  }
  const api = await ctx.api();
  const run = await sendItems<ChangeInfoRequestItem, NumberCarrierAccepted>(ctx, api, 'changeinfo', items, (chunk) =>
    changeInfoBody(api.version, chunk),
  );
  return finishItems(ctx, run, await itemResultsPrinter(ctx), { done: 'updated' });
}
