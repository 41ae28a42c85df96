// Declaration of `trk list`: registered numbers matching filters, every page.

import { DATA_ORIGINS, LIMITS, ORDER_BY, PACKAGE_STATUSES, PUSH_STATUSES, TRACKING_STATUSES } from '../../api/spec.js';
import { carrierOption, examples, lazy, listOf, nonNegativeInt, Option, positiveInt, type Declare } from '../define.js';

const list: Declare = (cmd, invoke) =>
  cmd
    .addOption(new Option('--status <status>', 'main package status').choices(PACKAGE_STATUSES))
    .addOption(carrierOption())
    .addOption(new Option('--tracking <state>', 'tracking state').choices(TRACKING_STATUSES))
    .addOption(new Option('--origin <origin>', 'how the number was registered').choices(DATA_ORIGINS))
    .option('--registered-since <time>', 'registered at or after (ISO time, or 7d, 12h, 30m, 2w ago)')
    .option('--registered-until <time>', 'registered at or before')
    .option('--tracked-since <time>', 'last tracked at or after')
    .option('--tracked-until <time>', 'last tracked at or before')
    .option('--pushed-since <time>', 'last pushed at or after')
    .option('--pushed-until <time>', 'last pushed at or before')
    .addOption(new Option('--push-status <status>', 'result of the last webhook push').choices(PUSH_STATUSES))
    .addOption(new Option('--push-code <code>', 'HTTP status the webhook answered').argParser(nonNegativeInt('an HTTP status')))
    .option('--stopped-since <time>', 'tracking stopped at or after')
    .option('--stopped-until <time>', 'tracking stopped at or before')
    .addOption(
      new Option(
        '--number <numbers>',
        `only these numbers (comma separated or repeated; one number matches partially, more than ${LIMITS.listNumberFilterMax} are looked up ${LIMITS.listNumberFilterMax} at a time)`,
      ).argParser(listOf('tracking number')),
    )
    .addOption(new Option('--order-by <order>', 'sort order').choices(ORDER_BY))
    .addOption(new Option('--limit <n>', 'stop after n records').argParser(positiveInt('--limit')))
    .addOption(new Option('--page <n>', `only this page (${LIMITS.pageSize} records a page)`).argParser(positiveInt('--page')))
    .addHelpText(
      'after',
      examples(
        'trk list --status Delivered --json',
        'trk list --registered-since 7d --tracking Tracking --csv > week.csv',
        'trk list --number RR123456789CN,LX987654321CN',
        'trk list --status Exception -o ids | trk push',
      ),
    )
    .action((o) =>
      lazy(invoke, () => import('./list.js'), async (m, ctx) => {
        const { resolveCarrierFlags } = await import('../shared/carrier-args.js');
        const { carrier } = await resolveCarrierFlags(ctx, { carrier: ['--carrier', o.carrier] });
        return m.runList(
          {
            status: o.status,
            carrier,
            tracking: o.tracking,
            origin: o.origin,
            registeredSince: o.registeredSince,
            registeredUntil: o.registeredUntil,
            trackedSince: o.trackedSince,
            trackedUntil: o.trackedUntil,
            pushedSince: o.pushedSince,
            pushedUntil: o.pushedUntil,
            pushStatus: o.pushStatus,
            pushCode: o.pushCode,
            stoppedSince: o.stoppedSince,
            stoppedUntil: o.stoppedUntil,
            numbers: o.number,
            orderBy: o.orderBy,
            limit: o.limit,
            page: o.page,
          },
          ctx,
        );
      }),
    );

export const declarations: Readonly<Record<string, Declare>> = { list };
