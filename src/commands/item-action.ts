// trk stop | retrack | delete | push: one operation on each number, with an optional carrier. They differ only
// in the operation and in delete asking first, so they share this run function.

import { numberCarrierBody, type NumberCarrierOperation } from '../api/operations.js';
import type { NumberCarrierAccepted } from '../api/types.js';
import type { Context } from '../context.js';
import {
  collectTargets,
  confirmOrRefuse,
  finishItems,
  itemResultsPrinter,
  plural,
  sendItems,
  type ItemSourceOptions,
  type TargetItem,
} from './shared/items.js';

export type ItemAction = 'stop' | 'retrack' | 'delete' | 'push';

export const ACTION_OPERATION: Readonly<Record<ItemAction, NumberCarrierOperation>> = {
  stop: 'stoptrack',
  retrack: 'retrack',
  delete: 'deletetrack',
  push: 'push',
};

const DONE: Readonly<Record<ItemAction, string>> = {
  stop: 'stopped',
  retrack: 'retracked',
  delete: 'deleted',
  push: 'queued for push',
};

export type ItemActionOptions = ItemSourceOptions;

export async function runItemAction(action: ItemAction, opts: ItemActionOptions, ctx: Context): Promise<number> {
  const op = ACTION_OPERATION[action];
  if (opts.file !== undefined) {
    const { flagDefaults, refuseMixedSources, runFileCommand } = await import('../items/command.js');
    refuseMixedSources(opts.numbers, opts.file);
    const print = await itemResultsPrinter(ctx);
    return runFileCommand(ctx, {
      operation: op,
      flags: { ...opts, file: opts.file },
      defaults: flagDefaults({ carrier: opts.carrier }),
      print,
      // Asked once the file is checked, with the count of what is left to delete.
      ...(action === 'delete'
        ? {
            confirm: async (plan: { items: number; done: { items: number } }) => {
              const what = plural(plan.items - plan.done.items, 'number');
              await confirmOrRefuse(ctx, `Delete ${what} from the account? This cannot be undone.`, { what: `deleting ${what}` });
            },
          }
        : {}),
    });
  }
  const { apiVersion } = await ctx.settings();
  const targets = await collectTargets(opts, ctx, apiVersion);
  // v1 delete needs the carrier: refused here, before the confirmation and before anything is sent.
  numberCarrierBody(apiVersion, op, targets);
  if (targets.length === 0) {
    ctx.info('no numbers given');
    return 0;
  }
  if (action === 'delete') {
    const what = plural(targets.length, 'number');
    await confirmOrRefuse(ctx, `Delete ${what} from the account? This cannot be undone.`, { what: `deleting ${what}` });
  }
  const api = await ctx.api();
  const run = await sendItems<TargetItem, NumberCarrierAccepted>(ctx, api, op, targets, (chunk) =>
    numberCarrierBody(api.version, op, chunk),
  );
  return finishItems(ctx, run, await itemResultsPrinter(ctx), { done: DONE[action] });
}
