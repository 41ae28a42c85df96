// trk list: registered numbers matching filters, page by page (the run in list-run.ts, loaded when it runs; the
// offline list from the mirror in offline.ts).

import {
  DATA_ORIGINS,
  LIMITS,
  ORDER_BY,
  PACKAGE_STATUSES,
  PUSH_STATUSES,
  subStatuses,
  TRACKING_STATUSES,
} from '@trk/service/vocabulary.js';
import { RECORD_COLUMN_NAMES } from '../../output/column-names.js';
import { TERMINAL_LIST_LIMIT } from '../../output/format.js';
import {
  carrierArg,
  choiceList,
  choiceOf,
  examples,
  joined,
  lazy,
  listOf,
  nonNegativeInt,
  notes,
  Option,
  pagerOption,
  positiveInt,
  relativeOption,
  repeated,
  withColumns,
  withWatch,
  type BareCommand,
  type Declare,
} from '../define.js';
import { ageArg, dbOption } from '../mirror/args.js';
import type { Listing } from '../listing.js';

/** Several values of a filter (repeated, or comma separated) mean any of them. */
const OR = 'repeat or separate with commas for any of several';

const filters = (cmd: BareCommand) =>
  cmd
    .addOption(choiceList('--status <status>', `main package status (${OR}; any case)`, PACKAGE_STATUSES))
    .addOption(
      new Option('--carrier <carrier>', 'carrier code or name (repeat for any of several)').argParser(
        (v: string, prev: string[] | undefined) => repeated(carrierArg(v), prev),
      ),
    )
    .addOption(choiceList('--tracking <state>', `tracking state (${OR})`, TRACKING_STATUSES))
    .addOption(choiceList('--origin <origin>', `how the number was registered (${OR})`, DATA_ORIGINS))
    .option('--registered-since <time>', 'registered at or after (ISO time, or 7d, 12h, 30m, 2w ago)')
    .option('--registered-until <time>', 'registered at or before')
    .option('--tracked-since <time>', 'last tracked at or after')
    .option('--tracked-until <time>', 'last tracked at or before')
    .option('--pushed-since <time>', 'last pushed at or after')
    .option('--pushed-until <time>', 'last pushed at or before')
    .addOption(choiceList('--push-status <status>', `result of the last webhook push (${OR})`, PUSH_STATUSES))
    .addOption(
      new Option('--push-code <code>', `HTTP status the webhook answered (${OR})`).argParser(
        (v: string, prev: number[] | undefined) => [
          ...(prev ?? []),
          ...v
            .split(',')
            .filter((s) => s.trim() !== '')
            .map(nonNegativeInt('an HTTP status')),
        ],
      ),
    )
    .option('--stopped-since <time>', 'tracking stopped at or after')
    .option('--stopped-until <time>', 'tracking stopped at or before')
    .addOption(
      new Option(
        '--number <numbers>',
        `only these numbers (comma separated or repeated; one number matches partially, more than ` +
          `${LIMITS.listNumberFilterMax} are looked up ${LIMITS.listNumberFilterMax} at a time)`,
      ).argParser(listOf('tracking number')),
    )
    .addOption(
      new Option(
        '--tag <text>',
        'only records whose tag is this, any case; * matches any text (checked by trk on every page fetched; ' +
          'repeat for any of several)',
      ).argParser(repeated),
    )
    .addOption(
      choiceList(
        '--sub-status <sub-status>',
        `only records whose latest sub-status is this (checked by trk: one extra request a page for the ` +
          `tracking details, no quota; ${OR})`,
        subStatuses('v2.1'),
      ),
    )
    .option(
      '--order <order-no>',
      'only the record of this order number, any case (v2.1 records; instant with --offline)',
    )
    .option(
      '--email <address>',
      'only records of this customer e-mail, any case (v2.1 records; instant with --offline)',
    )
    .option(
      '--search <text>',
      'records whose number, tag, order number or e-mail is this text or starts with it, any case',
    )
    .addOption(
      new Option(
        '--stale <age>',
        'parcels still tracked, not delivered, whose latest event is older than this (7d, 12h)',
      ).argParser(ageArg),
    )
    .option('--offline', 'answer from the mirror ("trk sync") instead of the service: no request, every filter instant')
    .addOption(dbOption())
    .addOption(choiceOf('--order-by <order>', 'sort order (any case)', ORDER_BY))
    .addOption(
      new Option('--limit <n>', `stop after n records (default on a terminal: ${TERMINAL_LIST_LIMIT})`).argParser(
        positiveInt('--limit'),
      ),
    )
    .option('--all', `every record, also on a terminal (where the default is the first ${TERMINAL_LIST_LIMIT})`)
    .addOption(
      new Option('--page <n>', `only this page (${LIMITS.pageSize} records a page)`).argParser(positiveInt('--page')),
    )
    .addOption(relativeOption())
    .addOption(pagerOption());

export const listing = {
  name: 'list',
  summary: 'list registered numbers matching filters (gettracklist)',
  section: 'numbers',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withWatch(withColumns(filters(cmd), RECORD_COLUMN_NAMES), 'the list')
    .addHelpText(
      'after',
      joined(
        notes(
          'Several values of one filter mean any of them: one query per value, merged, each record once. --tag and ' +
            '--sub-status are checked by trk on the records fetched, so every page of the other filters is read.',
          `On a terminal the first ${TERMINAL_LIST_LIMIT} records are shown (--all for every one) through the ` +
            `pager; piped, every record.`,
        ),
        examples(
          'trk list --status delivered --json',
          'trk list --status Exception,DeliveryFailure --columns number,carrier,status,tag',
          'trk list --registered-since 7d --tracking Tracking --csv > week.csv',
          'trk list --tag "order-10*" -o ids',
          'trk list --status Exception -o ids | trk push',
          'trk list --status OutForDelivery --watch --every 5m',
          'trk list --offline --search 10030',
          'trk list --offline --stale 7d --csv > stuck.csv',
        ),
      ),
    )
    .action((o) =>
      lazy(
        invoke,
        // The mirror's reading is a module of its own, chosen here: the online list never loads it.
        () =>
          o.offline ? import('./offline.js').then((m) => ({ runList: m.runOfflineList })) : import('./list-run.js'),
        async (m, ctx) => {
          const { resolveCarrierFlags } = await import('../common/carrier-args.js');
          const carriers: number[] = [];
          for (const value of o.carrier ?? []) {
            const { carrier } = await resolveCarrierFlags(
              ctx,
              { carrier: ['--carrier', value] },
              { refuseNone: 'a list filter needs a carrier: drop --carrier to list every carrier' },
            );
            if (carrier !== undefined && !carriers.includes(carrier)) carriers.push(carrier);
          }
          return m.runList(
            {
              status: o.status,
              carrier: o.carrier === undefined ? undefined : carriers,
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
              tag: o.tag,
              subStatus: o.subStatus,
              orderBy: o.orderBy,
              limit: o.limit,
              all: o.all,
              page: o.page,
              watch: o.watch,
              every: o.every,
              order: o.order,
              email: o.email,
              search: o.search,
              stale: o.stale,
              db: o.db,
            },
            ctx,
          );
        },
        o,
      ),
    );
