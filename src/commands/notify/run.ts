// trk notify run: every rule's messages for what it matched since its own last run, each sent once (see
// src/mirror/notify/run.ts for how a killed run or two runs at once keep that). A summary on stderr names what
// failed and when it is tried again; the exit status is 0 when everything was sent, 3 when some messages failed or
// bounced and others went, 1 when none went and some failed.

import type { Context } from '../../context/context.js';
import { EXIT } from '../../core/exit-codes.js';
import { examples, joined, notes, Option, prints, repeated, type Declare } from '../define.js';
import { dbOption } from '../mirror/args.js';

export interface NotifyRunOptions {
  dryRun?: boolean | undefined;
  pace?: string | undefined;
  rule?: string[] | undefined;
  db?: string | undefined;
}

export const declaration: Declare = (cmd, invoke) => {
  prints(cmd, [])
    .description('send what each rule matched since its last run, each message once')
    .option('--dry-run', 'print the messages on stdout instead of sending them; nothing is recorded')
    .option('--pace <n>', 'at most N messages a second to each target (default: the notify-pace setting, else none)')
    .addOption(new Option('--rule <name>', 'run this rule only (repeat for several)').argParser(repeated))
    .addOption(dbOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'Run it after "trk sync" (cron), or let "trk webhook listen --store --notify" run the rules as ' +
            'notifications arrive: both share the ledger, and send each message once.',
          'A message that fails is tried again by later runs (after 1 min, 2, 4, ... at most a day apart); an ' +
            'address the mail server refuses (5xx) is recorded as bounced and not tried again. Exit status: 0 all ' +
            'sent, 3 some failed or bounced, 1 none sent and some failed.',
        ),
        examples(
          'trk notify run',
          'trk notify run --dry-run',
          '*/10 * * * * trk sync -q && trk notify run -q   # in a crontab',
        ),
      ),
    )
    .action((o) => invoke(async () => (ctx) => runNotify(o, ctx)));
};

export async function runNotify(opts: NotifyRunOptions, ctx: Context): Promise<number> {
  const [setup, { NotifyRun }, { parsePace }, { plural }] = await Promise.all([
    import('../../mirror/notify/setup.js'),
    import('../../mirror/notify/run.js'),
    import('../../config/keys.js'),
    import('../../core/text.js'),
  ]);
  const pace = opts.pace === undefined ? (await ctx.settings()).notifyPace : parsePace(opts.pace, '--pace');
  const store = await setup.openNotifyMirror(ctx, opts.db);
  try {
    const rules = await setup.readRules(store, opts.rule);
    if (rules.length === 0) {
      ctx.info('no rules: add one with "trk notify add NAME --when STATUS --to TARGET"');
      return 0;
    }
    const mail = opts.dryRun ? undefined : await setup.mailSettings(ctx, rules);
    const senders = setup.senders(ctx, mail);
    const from = (await ctx.settings()).smtpFrom;
    const run = new NotifyRun(
      store,
      senders,
      await setup.messageContext(ctx),
      { dryRun: opts.dryRun === true, pace, from },
      {
        out: (text) => ctx.io.out(text),
        info: (line) => ctx.info(line),
        signal: ctx.signal,
      },
    );
    try {
      await run.run(rules);
    } finally {
      await senders.close();
    }
    const s = run.summary;
    if (opts.dryRun) {
      ctx.info(`dry run: ${plural(s.printed, 'message')} printed, none sent or recorded`);
      return 0;
    }
    const parts = [`${plural(s.sent, 'message')} sent`];
    if (s.failed) parts.push(`${s.failed} failed (tried again later)`);
    if (s.bounced) parts.push(`${s.bounced} bounced`);
    if (s.noAddress) parts.push(`${plural(s.noAddress, 'parcel')} without a customer e-mail`);
    ctx.info(`notify: ${parts.join(', ')} (${plural(rules.length, 'rule')})`);
    for (const p of s.problems) ctx.warn(p);
    if (ctx.signal.aborted) return EXIT.interrupted;
    if (s.failed + s.bounced === 0) return EXIT.ok;
    return s.sent > 0 ? EXIT.partial : EXIT.failure;
  } finally {
    await store.close();
  }
}
