// Declarations of the mirror's commands: `trk sync` keeps a copy of the account in a local store, `trk changes`
// prints the status changes it learnt, `trk find` looks a customer's parcel up in it. `list --offline` and
// `info --offline` read it too (src/commands/list/offline.ts, src/commands/items/info-offline.ts).

import { PACKAGE_STATUSES } from '@trk/service/vocabulary.js';
import { FIND_COLUMN_NAMES } from '../../output/column-names.js';
import { REPORT_BY } from '../../report/figures.js';
import {
  carrierArg,
  choiceList,
  choiceOf,
  examples,
  joined,
  lazy,
  listOf,
  notes,
  Option,
  pagerOption,
  positiveInt,
  prints,
  relativeOption,
  repeated,
  withColumns,
  type Declare,
} from '../define.js';
import { CHANGE_COLUMN_NAMES } from './change-columns.js';
import { dbOption } from './args.js';

const sync: Declare = (cmd, invoke) =>
  prints(cmd, ['table', 'json'])
    .option(
      '--full',
      'read every record (what a first sync does) and take out of the mirror those the service no longer has',
    )
    .addOption(dbOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'A sync asks only for what changed since the last one (records tracked, registered, pushed or stopped ' +
            'since, ' +
            'and the details of those whose status or tracking time moved); a first sync, and --full, read ' +
            'every record.',
          'An interrupted sync loses nothing: the next one carries on where it stopped.',
        ),
        examples('trk sync', 'trk sync --full --json', '0 * * * * trk sync -q   # in a crontab: hourly'),
      ),
    )
    .action((o) =>
      lazy(
        invoke,
        () => import('./sync.js'),
        (m, ctx) => m.runSync({ full: o.full, db: o.db }, ctx),
      ),
    );

const changes: Declare = (cmd, invoke) =>
  withColumns(cmd, CHANGE_COLUMN_NAMES)
    .addOption(relativeOption())
    .option('--since <time>', 'changes detected since then: an age (24h, 7d) or an ISO time (2026-06-01)')
    .addOption(
      choiceList(
        '--status <status>',
        'changes to this main status (comma separated for any of several; any case)',
        PACKAGE_STATUSES,
      ),
    )
    .option(
      '--cursor <name>',
      'only the changes this named cursor has not seen; it moves past them once they are taken (see below)',
    )
    .option('--exec <command>', 'hand the changes to COMMAND on its stdin (run by sh); the cursor moves if it exits 0')
    .option('--ack', 'move --cursor NAME past the changes its last read wrote into a pipe, once they were taken')
    .addOption(dbOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'Every status change the mirror learnt, from "trk sync" and from the webhook\'s notifications, in the ' +
            'order it learnt them, which cursors follow: a change learnt later may have been detected earlier ' +
            "(DETECTED is the service's time). A record's first sync is no change.",
          'A cursor moves only when trk knows the changes were taken: written to a file or a terminal, or handed to ' +
            "--exec COMMAND that exited 0 (its exit status is trk's otherwise). Into a pipe it stays, and --ack " +
            'moves it once the reader succeeded.',
        ),
        examples(
          'trk changes --since 24h',
          'trk changes --status Exception,DeliveryFailure --json',
          'trk changes --cursor nightly --status Exception,DeliveryFailure -o table --exec \'mail -s "parcels in ' +
            'trouble" ops@example.com\'',
          'trk changes --cursor feed -o ndjson | gzip >> feed.ndjson.gz && trk changes --cursor feed --ack',
        ),
      ),
    )
    .action((o) =>
      lazy(
        invoke,
        () => import('./changes.js'),
        (m, ctx) =>
          m.runChanges({ since: o.since, status: o.status, cursor: o.cursor, exec: o.exec, ack: o.ack, db: o.db }, ctx),
        o,
      ),
    );

const find: Declare = (cmd, invoke) =>
  withColumns(
    cmd.argument('<text>', 'any part of an order number, e-mail, tag or tracking number (letters A to Z in any case)'),
    FIND_COLUMN_NAMES,
  )
    .addOption(dbOption())
    .addOption(relativeOption())
    .addOption(pagerOption())
    .addHelpText(
      'after',
      examples('trk find "#10030"', 'trk find 10030', 'trk find ann@example.com', 'trk find order-10030 --json'),
    )
    .action((text, o) =>
      lazy(
        invoke,
        () => import('../items/info-offline.js'),
        (m, ctx) => m.runFind({ text, db: o.db }, ctx),
        o,
      ),
    );

const report: Declare = (cmd, invoke) =>
  prints(cmd, ['table', 'wide', 'json', 'ndjson', 'csv'])
    .addOption(
      choiceOf(
        '--by <grouping>',
        'group parcels by carrier (the default), lane (origin → destination), both, or week or month of registration',
        REPORT_BY,
      ),
    )
    .option('--since <time>', 'parcels registered since then: an age (30d, 12w) or a date (2026-06-01)')
    .addOption(
      new Option('--carrier <carrier>', 'parcels of this carrier, code or name (repeat for several)').argParser(
        (v: string, prev: string[] | undefined) => repeated(carrierArg(v), prev),
      ),
    )
    .addOption(
      new Option(
        '--from <country>',
        'parcels from this origin country, ISO code or name (comma separated or repeated)',
      ).argParser(listOf('country')),
    )
    .addOption(
      new Option(
        '--to <country>',
        'parcels to this destination country, ISO code or name (comma separated or repeated)',
      ).argParser(listOf('country')),
    )
    .addOption(
      new Option('--stuck-days <days>', 'a parcel still on its way with no news for this many days is stuck')
        .argParser(positiveInt('--stuck-days'))
        .default(7),
    )
    .option('--all', 'list every stuck parcel and parcel in trouble, not the first 20')
    .option(
      '--html <file>',
      'write the report as one page, charts included, that opens offline and in mail (- for stdout)',
    )
    .addOption(dbOption())
    .addOption(pagerOption())
    .addHelpText(
      'after',
      joined(
        notes(
          'Reads the mirror only ("trk sync" keeps it): no request is sent. Per group: registered, delivered, ' +
            'exceptions, ' +
            'delivery_failures, in_transit (on the way: InfoReceived to OutForDelivery), not_found, expired, stuck, ' +
            "transit_days {n, p50, p90, mean, min, max} of delivered parcels (the service's days_of_transit_done; " +
            'percentiles by linear interpolation between the closest ranks), on_time_rate (of delivered parcels ' +
            'with an ' +
            'estimated window, the share delivered by the end of its last day).',
        ),
        examples(
          'trk report',
          'trk report --by lane --since 30d',
          'trk report --carrier "China Post" --to US --by week --json',
          'trk report --since 2026-06-01 --html june.html',
        ),
      ),
    )
    .action((o) =>
      lazy(
        invoke,
        () => import('./report.js'),
        (m, ctx) =>
          m.runReport(
            {
              by: o.by ?? 'carrier',
              since: o.since,
              carrier: o.carrier,
              from: o.from,
              to: o.to,
              stuckDays: o.stuckDays,
              all: o.all,
              html: o.html,
              db: o.db,
            },
            ctx,
          ),
        o,
      ),
    );

export const declarations: Readonly<Record<string, Declare>> = { sync, changes, find, report };
