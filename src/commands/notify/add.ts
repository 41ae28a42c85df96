// trk notify add NAME: a rule kept in the mirror (every host sharing it runs the same rules). Checked whole before
// it is kept: a status of the service's, a target trk can send to, a template whose placeholders it fills (exit 2
// otherwise). It covers the changes recorded from now on, not the past.

import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { PACKAGE_STATUSES } from '@trk/service/vocabulary.js';
import {
  carrierArg,
  choiceList,
  examples,
  joined,
  notes,
  Option,
  positiveInt,
  prints,
  type Declare,
} from '../define.js';
import { dbOption } from '../mirror/args.js';

export interface NotifyAddOptions {
  name: string;
  when?: string[] | undefined;
  stuck?: number | undefined;
  late?: boolean | undefined;
  carrier?: string | undefined;
  tag?: string | undefined;
  to: string;
  digest?: boolean | undefined;
  template?: string | undefined;
  db?: string | undefined;
}

export const declaration: Declare = (cmd, invoke) => {
  prints(cmd, [])
    .description('add a rule: whom to tell, and when')
    .argument('<name>', 'the rule\'s name (letters, digits, ".", "-", "_")')
    .addOption(
      choiceList(
        '--when <status>',
        'when a parcel changes to this main status, comma separated for several (with --stuck or --late: a parcel ' +
          'now in it)',
        [...PACKAGE_STATUSES],
      ),
    )
    .addOption(
      new Option('--stuck <days>', 'when a parcel has had no news for this many days').argParser(
        positiveInt('--stuck'),
      ),
    )
    .option('--late', "when a parcel is past the end of the service's estimated delivery window")
    .addOption(new Option('--carrier <carrier>', 'only parcels of this carrier (code or name)').argParser(carrierArg))
    .option('--tag <tag>', 'only parcels with this tag (whole tag, any case)')
    .requiredOption('--to <target>', 'mailto:ADDRESS[,ADDRESS], customer, an http(s):// chat webhook, or exec:COMMAND')
    .option('--digest', 'one message a run listing every parcel matched, not one per parcel')
    .option('--template <file>', 'the message from this file: {{order}}, {{status}}, ... (see docs/notify.md)')
    .addOption(dbOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'A rule covers the changes the mirror records after it was added ("trk sync" or the webhook listener ' +
            'with --store); "trk notify run" sends its messages, each once.',
        ),
        examples(
          'trk notify add trouble --when Exception,DeliveryFailure --to mailto:ops@example.com --digest',
          'trk notify add stuck --stuck 7 --to mailto:ops@example.com --digest',
          'trk notify add customers --when OutForDelivery,Delivered --to customer',
          'trk notify add chat --when Exception --to https://hooks.slack.com/services/T000/B000/XXXX',
        ),
      ),
    )
    .action((name, o) => invoke(async () => (ctx) => runAdd({ ...o, name }, ctx)));
};

export async function runAdd(opts: NotifyAddOptions, ctx: Context): Promise<number> {
  const [{ checkRule, checkRuleName }, { readTemplateFile }, setup] = await Promise.all([
    import('../../mirror/notify/rules.js'),
    import('../../mirror/notify/template-file.js'),
    import('../../mirror/notify/setup.js'),
  ]);
  checkRuleName(opts.name);
  const template = opts.template === undefined ? undefined : readTemplateFile(opts.template);
  const spec = {
    ...(opts.when?.length ? { when: opts.when } : {}),
    ...(opts.stuck === undefined ? {} : { stuck: opts.stuck }),
    ...(opts.late ? { late: true } : {}),
    ...(opts.tag === undefined ? {} : { tag: opts.tag }),
    to: opts.to.trim(),
    ...(opts.digest ? { digest: true } : {}),
    ...(template === undefined ? {} : { template }),
  };
  checkRule(spec);
  const carrier = await carrierCode(ctx, opts.carrier);
  const store = await setup.openNotifyMirror(ctx, opts.db);
  try {
    const row = await store.addRule(
      opts.name,
      JSON.stringify({ ...spec, ...(carrier === undefined ? {} : { carrier }) }),
      new Date(ctx.now()).toISOString(),
    );
    if (!row) {
      throw new UsageError(
        `there is a rule ${opts.name} already`,
        `choose another name, or remove it first: trk notify remove ${opts.name}`,
      );
    }
    ctx.info(`rule ${opts.name} added: it covers changes from now on ("trk notify run" sends its messages)`);
    const s = await ctx.settings();
    if (/^(mailto:|customer$)/i.test(spec.to) && (s.smtpUrl === undefined || s.smtpFrom === undefined))
      ctx.info('note: set smtp-url and smtp-from before the first run (trk config set smtp-url smtp://...)');
    return 0;
  } finally {
    await store.close();
  }
}

async function carrierCode(ctx: Context, value: string | undefined): Promise<number | undefined> {
  if (value === undefined) return undefined;
  const { resolveCarrierFlags } = await import('../common/carrier-args.js');
  const { carrier } = await resolveCarrierFlags(
    ctx,
    { carrier: ['--carrier', value] },
    { refuseNone: 'a rule of one carrier needs a carrier: leave out --carrier for every carrier' },
  );
  return carrier;
}
