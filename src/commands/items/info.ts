// trk info: the stored tracking details of numbers (gettrackinfo), from the service or, offline, from the mirror.

import { numberPattern, PACKAGE_STATUSES, subStatuses } from '@trk/service/vocabulary.js';
import { DETAILS_RESULT_COLUMN_NAMES } from '../../output/column-names.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import { dbOption } from '../mirror/args.js';
import {
  choiceList,
  examples,
  lazy,
  Option,
  pagerOption,
  prints,
  relativeOption,
  withColumns,
  withWatch,
  type Declare,
} from '../define.js';
import { engineFlags, withInput } from './engine-flags.js';
import { fieldFlagValues, withFieldFlags } from './field-flags.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'info',
  summary: 'show stored tracking details of numbers (gettrackinfo)',
  section: 'numbers',
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) =>
  withWatch(
    withColumns(
      withFieldFlags(withInput(prints(cmd, OUTPUT_FORMATS)), 'gettrackinfo')
        .addOption(
          choiceList(
            '--status <status>',
            'show only numbers whose latest main status is this (any case; comma separated for any of several)',
            PACKAGE_STATUSES,
          ),
        )
        .addOption(
          choiceList(
            '--sub-status <sub-status>',
            'show only numbers whose latest sub-status is this (any case; comma separated for any of several)',
            subStatuses('v2.1'),
          ),
        )
        .addOption(
          new Option(
            '--page',
            'the full tracking page of each number, where a table would be printed (by default several numbers ' +
              'make a compact table)',
          ),
        )
        .addOption(new Option('--offline', 'answer from the mirror ("trk sync") instead of the service: no request'))
        .addOption(dbOption())
        .addOption(relativeOption())
        .addOption(pagerOption()),
      DETAILS_RESULT_COLUMN_NAMES,
    ),
    'the tracking page',
  )
    .addHelpText(
      'after',
      examples(
        'trk info RR123456789CN',
        'trk info RR123456789CN --watch --every 30m',
        'trk info RR123456789CN -o text          # a summary to paste into a reply to a customer',
        'trk list --status Exception -o ids | trk info',
        'trk info -f numbers.csv --csv > details.csv',
        'trk info -f numbers.csv --sub-status Exception_Lost --columns number,carrier,latest_event',
        'trk info --offline RR123456789CN',
        'trk info "#10030"            # not a tracking number: found in the mirror by order number, e-mail or tag',
      ),
    )
    .action((numbers, o) =>
      lazy(
        invoke,
        // The mirror answers with --offline, and when no argument is a tracking number (an order number, an
        // e-mail): a module of its own, chosen here, so that the online info never loads it.
        () =>
          o.offline
            ? import('./info-offline.js').then((m) => ({ runInfo: m.runOfflineInfo }))
            : numbers.length > 0 && numbers.every((n) => !numberPattern('v2').test(n.trim()))
              ? import('./info-offline.js').then((m) => ({ runInfo: m.runLookupInfo }))
              : import('./info-online.js'),
        async (m, ctx) => {
          const fields = await fieldFlagValues(ctx, 'gettrackinfo', o, o.carrierMap);
          return m.runInfo(
            {
              db: o.db,
              ...engineFlags(numbers, o),
              fields,
              status: o.status,
              subStatus: o.subStatus,
              pages: o.page,
              watch: o.watch,
              every: o.every,
            },
            ctx,
          );
        },
        o,
      ),
    );
