// trk stop | retrack | delete | push: one operation on each number, with an optional carrier. They differ only
// in the operation, in delete asking first, and in delete's --ignore-missing, so they share this run function.

import type { NumberCarrierOperation } from '@trk/service/operations/index.js';
import type { Context } from '../../context/context.js';
import { plural } from '../../core/text.js';
import { confirmOrRefuse, inputCarrierResolver, itemResultsPrinter, type ItemSourceOptions } from './shared.js';
import { runItemCommand } from '../../items/command.js';
import { deleteQuestion } from './delete-question.js';

export type ItemAction = 'stop' | 'retrack' | 'delete' | 'push';

export const ACTION_OPERATION: Readonly<Record<ItemAction, NumberCarrierOperation>> = {
  stop: 'stoptrack',
  retrack: 'retrack',
  delete: 'deletetrack',
  push: 'push',
};

/** The service's "number not registered" (-18019902): what delete --ignore-missing counts as done. */
const NOT_REGISTERED = -18019902;

export interface ItemActionOptions extends ItemSourceOptions {
  /** delete: a number that is not registered counts as deleted. */
  ignoreMissing?: boolean | undefined;
}

export async function runItemAction(action: ItemAction, opts: ItemActionOptions, ctx: Context): Promise<number> {
  return runItemCommand(ctx, {
    operation: ACTION_OPERATION[action],
    flags: opts,
    fields: opts.fields,
    alsoAlready: action === 'delete' && opts.ignoreMissing ? [NOT_REGISTERED] : undefined,
    resolveCarrier: await inputCarrierResolver(ctx, opts.carrierMap),
    print: await itemResultsPrinter(ctx),
    // Asked once the input is checked, with the count of what is left to delete.
    ...(action === 'delete'
      ? {
          confirm: async (plan: { items: number; done: { items: number } }) => {
            const left = plan.items - plan.done.items;
            const question = async () => deleteQuestion(ctx, opts, left);
            await confirmOrRefuse(ctx, question, { what: `deleting ${plural(left, 'number')}` });
          },
        }
      : {}),
  });
}
