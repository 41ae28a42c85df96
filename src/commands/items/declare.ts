// Declarations of the item commands: register, stop, retrack, delete, push, info, change-carrier, update, and
// realtime. Every one of them but realtime takes its numbers through the item engine (src/items/): as arguments,
// piped, or from a file, with the same checks, pacing and guarantees, and the same flags.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import { numberPattern, PACKAGE_STATUSES, subStatuses } from '@trk/service/vocabulary.js';
import { dbOption } from '../mirror/args.js';
import { operationOfCommand } from '@trk/service/operations/index.js';
import { fieldFlagValues, resolveCarriers, withFieldFlags } from './field-flags.js';
import type { ItemFlags } from '../../items/run.js';
import { DETAILS_RESULT_COLUMN_NAMES, ITEM_COLUMN_NAMES, REGISTER_COLUMN_NAMES } from '../../output/column-names.js';
import { OUTPUT_FORMATS } from '../../output/format.js';
import {
  Argument,
  carrierArg,
  carrierOption,
  choiceList,
  examples,
  lazy,
  Option,
  pagerOption,
  prints,
  relativeOption,
  repeated,
  withColumns,
  withWatch,
  type Declare,
} from '../define.js';

/** The engine's flags, as declared by `withInput` and `remembered`. */
interface EngineOptions {
  file?: string;
  dryRun?: true;
  rejects?: string;
  skipInvalid?: true;
  column?: string[];
  ignoreColumn?: string[];
  delimiter?: string;
  carrierMap?: string;
  restart?: true;
  again?: true;
}

/** Numbers as arguments, piped, or with -f, and the engine's flags every item command takes. */
function withInput<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
  return c
    .addArgument(new Argument('[numbers...]', 'tracking numbers (or -f FILE, or piped on stdin)'))
    .addOption(
      new Option(
        '-f, --file <file>',
        'read numbers from a file (- for stdin): CSV or TSV with a header (number, carrier, tag, ...), one ' +
          "number a line, or trk's own JSON/NDJSON output",
      ),
    )
    .addOption(
      new Option('--dry-run', 'check the input and report requests, time and the quota a run needs; send nothing'),
    )
    .addOption(
      new Option(
        '--rejects <file>',
        'write rejected and set-aside rows here: the input columns plus input_line, error_code, error_message',
      ),
    )
    .addOption(
      new Option(
        '--skip-invalid',
        'send the valid rows and set the invalid ones aside (in --rejects FILE, or listed), exit 3',
      ),
    )
    .addOption(
      new Option(
        '--column <name=field>',
        'read the input column NAME as FIELD, e.g. tracking_no=number, or Notes=- to pass it over (repeatable)',
      ).argParser(repeated),
    )
    .addOption(
      new Option(
        '--ignore-column <name>',
        'pass the input column NAME over, as --column NAME=- (repeatable)',
      ).argParser(repeated),
    )
    .addOption(
      new Option('--delimiter <char>', "the columns' separator: , ; tab or | (default: the one of the header line)"),
    )
    .addOption(
      new Option(
        '--carrier-map <file>',
        'carrier names of this input and their codes, one name,code row a line (see trk carriers --aliases)',
      ),
    );
}

/** Writes over a file or a pipe are remembered: resumed when interrupted, not sent twice when finished. */
function remembered<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
  return c
    .addOption(new Option('--restart', 'start over instead of resuming an interrupted run of the same input'))
    .addOption(
      new Option(
        '--again',
        'send an input that was fully sent before (runs are remembered, so a re-run does not pay twice)',
      ),
    );
}

function engineFlags(numbers: string[], o: EngineOptions): ItemFlags {
  return {
    numbers,
    file: o.file,
    dryRun: o.dryRun,
    rejects: o.rejects,
    skipInvalid: o.skipInvalid,
    columns: o.column,
    ignoreColumns: o.ignoreColumn,
    delimiter: o.delimiter,
    carrierMap: o.carrierMap,
    restart: o.restart,
    again: o.again,
  };
}

const register: Declare = (cmd, invoke) =>
  withColumns(withFieldFlags(remembered(withInput(cmd)), 'register'), REGISTER_COLUMN_NAMES)
    .addHelpText(
      'after',
      examples(
        'trk register RR123456789CN --carrier 3011',
        'trk register -f numbers.csv --tag batch-7',
        'cut -d, -f1 orders.csv | trk register --json',
      ),
    )
    .action((numbers, o) =>
      lazy(
        invoke,
        () => import('./register.js'),
        async (m, ctx) => {
          const fields = await fieldFlagValues(ctx, 'register', o, o.carrierMap);
          return m.runRegister({ ...engineFlags(numbers, o), fields }, ctx);
        },
        o,
      ),
    );

/** stop, retrack, delete and push: one operation on each number, with an optional carrier. */
function action(name: 'stop' | 'retrack' | 'push', example: string): Declare {
  return (cmd, invoke) =>
    withColumns(withFieldFlags(remembered(withInput(cmd)), operationOfCommand(name)), ITEM_COLUMN_NAMES)
      .addHelpText('after', examples(example, `trk list --status Exception -o ids | trk ${name}`))
      .action((numbers, o) =>
        lazy(
          invoke,
          () => import('./actions.js'),
          async (m, ctx) => {
            const fields = await fieldFlagValues(ctx, operationOfCommand(name), o, o.carrierMap);
            return m.runItemAction(name, { ...engineFlags(numbers, o), fields }, ctx);
          },
          o,
        ),
      );
}

const del: Declare = (cmd, invoke) =>
  withColumns(
    withFieldFlags(remembered(withInput(cmd)), 'deletetrack').option(
      '--ignore-missing',
      'count a number that is not registered as deleted (exit 0) instead of rejected',
    ),
    ITEM_COLUMN_NAMES,
  )
    .addHelpText(
      'after',
      examples(
        'trk delete RR123456789CN',
        'trk delete -f old.csv --yes',
        'trk list --status Expired -o ids | trk delete --yes --ignore-missing',
      ),
    )
    .action((numbers, o) =>
      lazy(
        invoke,
        () => import('./actions.js'),
        async (m, ctx) => {
          const fields = await fieldFlagValues(ctx, 'deletetrack', o, o.carrierMap);
          return m.runItemAction('delete', { ...engineFlags(numbers, o), fields, ignoreMissing: o.ignoreMissing }, ctx);
        },
        o,
      ),
    );

const info: Declare = (cmd, invoke) =>
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
              : import('./info.js'),
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

const changeCarrier: Declare = (cmd, invoke) =>
  withColumns(withFieldFlags(remembered(withInput(cmd)), 'changecarrier'), ITEM_COLUMN_NAMES)
    .addHelpText(
      'after',
      examples('trk change-carrier RR123456789CN --to 190008', 'trk change-carrier RR123456789CN --to "Yanwen"'),
    )
    .action((numbers, o) =>
      lazy(
        invoke,
        () => import('./change-carrier.js'),
        async (m, ctx) => {
          const fields = await fieldFlagValues(ctx, 'changecarrier', o, o.carrierMap);
          return m.runChangeCarrier({ ...engineFlags(numbers, o), fields }, ctx);
        },
        o,
      ),
    );

const update: Declare = (cmd, invoke) =>
  withColumns(withFieldFlags(remembered(withInput(cmd)), operationOfCommand('update')), ITEM_COLUMN_NAMES)
    .addHelpText(
      'after',
      examples('trk update RR123456789CN --tag returned-goods', 'trk update -f orders.csv --column order_id=tag'),
    )
    .action((numbers, o) =>
      lazy(
        invoke,
        () => import('./update.js'),
        async (m, ctx) => {
          const fields = await fieldFlagValues(ctx, operationOfCommand('update'), o, o.carrierMap);
          return m.runUpdate({ ...engineFlags(numbers, o), fields }, ctx);
        },
        o,
      ),
    );

const realtime: Declare = (cmd, invoke) =>
  withColumns(
    prints(cmd, OUTPUT_FORMATS)
      .argument('<number>', 'tracking number')
      .addOption(carrierOption('carrier code or name (default: detected by the service)'))
      .option('--param <value>', 'extra tracking parameter')
      .addOption(new Option('--final-carrier <carrier>', 'last-mile carrier code or name').argParser(carrierArg))
      .option(
        '--fresh',
        'fetch from the carrier now instead of a result up to 3 hours old (10 quota units instead of 1)',
      )
      .addOption(relativeOption())
      .addOption(pagerOption()),
    DETAILS_RESULT_COLUMN_NAMES,
  )
    .addHelpText('after', examples('trk realtime RR123456789CN', 'trk realtime RR123456789CN --fresh --yes --json'))
    .action((number, o) =>
      lazy(
        invoke,
        () => import('./realtime.js'),
        async (m, ctx) => {
          const codes = await resolveCarriers(ctx, {
            carrier: ['--carrier', o.carrier],
            finalCarrier: ['--final-carrier', o.finalCarrier],
          });
          return m.runRealtime(
            {
              number,
              carrier: codes.carrier,
              param: o.param,
              finalCarrier: codes.finalCarrier,
              fresh: o.fresh === true,
            },
            ctx,
          );
        },
        o,
      ),
    );

export const declarations: Readonly<Record<string, Declare>> = {
  register,
  stop: action('stop', 'trk stop RR123456789CN'),
  retrack: action('retrack', 'trk retrack RR123456789CN'),
  delete: del,
  push: action('push', 'trk push RR123456789CN'),
  info,
  'change-carrier': changeCarrier,
  update,
  realtime,
};
