// trk notify remove NAME: the rule goes; its ledger stays (what was sent to whom), and its messages due again are no
// longer sent.

import type { Context } from '../../context/context.js';
import { examples, prints, type Declare } from '../define.js';
import { dbOption } from '../mirror/args.js';

export interface NotifyRemoveOptions {
  name: string;
  db?: string | undefined;
}

export const declaration: Declare = (cmd, invoke) => {
  prints(cmd, [])
    .description('remove a rule (its ledger stays)')
    .argument('<name>', "the rule's name")
    .addOption(dbOption())
    .addHelpText(
      'after',
      examples('trk notify add old --when Delivered --to mailto:ops@example.com', 'trk notify remove old'),
    )
    .action((name, o) => invoke(async () => (ctx) => runRemove({ name, db: o.db }, ctx)));
};

export async function runRemove(opts: NotifyRemoveOptions, ctx: Context): Promise<number> {
  const setup = await import('../../mirror/notify/setup.js');
  const store = await setup.openNotifyMirror(ctx, opts.db);
  try {
    if (!(await store.removeRule(opts.name))) throw setup.noSuchRule(opts.name, await setup.readRules(store));
    ctx.info(`rule ${opts.name} removed`);
    return 0;
  } finally {
    await store.close();
  }
}
