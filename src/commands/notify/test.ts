// trk notify test NAME: one message of the rule, about a made-up parcel, to its target now (or to --to): the way to
// see a template, a chat webhook or the mail settings work before a parcel moves. Nothing is written to the ledger.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { examples, prints, type Declare } from '../define.js';
import { dbOption } from '../mirror/args.js';

export interface NotifyTestOptions {
  name: string;
  to?: string | undefined;
  db?: string | undefined;
}

export const declaration: Declare = (cmd, invoke) => {
  prints(cmd, [])
    .description('send one sample message of a rule to its target (or to --to)')
    .argument('<name>', "the rule's name")
    .option('--to <target>', 'send it here instead (needed for a rule to "customer": mailto:you@example.com)')
    .addOption(dbOption())
    .addHelpText('after', examples('trk notify test trouble', 'trk notify test customers --to mailto:me@example.com'))
    .action((name, o) => invoke(async () => (ctx) => runTest({ ...o, name }, ctx)));
};

export async function runTest(opts: NotifyTestOptions, ctx: Context): Promise<number> {
  const [setup, rules, messages, { sampleMatch }, { messageIdOf }] = await Promise.all([
    import('../../mirror/notify/setup.js'),
    import('../../mirror/notify/rules.js'),
    import('../../mirror/notify/messages.js'),
    import('../../mirror/notify/sample.js'),
    import('../../mirror/notify/ledger.js'),
  ]);
  const store = await setup.openNotifyMirror(ctx, opts.db);
  let rule: import('../../mirror/notify/rules.js').Rule;
  try {
    [rule] = (await setup.readRules(store, [opts.name])) as [typeof rule];
  } finally {
    await store.close();
  }
  // The message is the rule's own (a customer's, for a customer rule); --to says only where it goes.
  const target = opts.to === undefined ? rule.target : rules.parseTarget(opts.to);
  if (target.kind === 'customer') {
    throw new UsageError(
      `rule ${rule.name} writes to customers: a test goes to you`,
      `add --to mailto:you@example.com`,
    );
  }
  const now = ctx.now();
  const to = target.kind === 'mailto' ? target.addresses : [];
  const match = sampleMatch(rule.when?.[0] ?? 'InTransit', 'customer@example.com', now);
  const context = { ...(await setup.messageContext(ctx)), now };
  const message = rule.digest
    ? messages.digestMessage(rule, [messages.digestLine(rule, match, context)])
    : messages.parcelMessage(rule, match, context);
  const senders = setup.senders(ctx, await setup.mailSettings(ctx, [{ ...rule, target }]));
  try {
    const id = messageIdOf(rule.name, ['test', String(now)], (await ctx.settings()).smtpFrom);
    const t = target;
    const outcome =
      t.kind === 'http'
        ? await senders.http(t.url, message)
        : t.kind === 'exec'
          ? await senders.exec(t.command, message)
          : await senders.mail(to, id, message);
    const { shownTarget } = await import('../../mirror/notify/run.js');
    if (outcome.outcome !== 'sent') {
      ctx.io.err(`error: the test message to ${shownTarget(t, to)} ${outcome.outcome}: ${outcome.error}`);
      return 1;
    }
    ctx.info(`sent a test message of rule ${rule.name} to ${shownTarget(t, to)}`);
    return 0;
  } finally {
    await senders.close();
  }
}
