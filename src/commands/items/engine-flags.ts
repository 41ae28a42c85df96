// The flags of the item engine that every item command but realtime declares: its numbers as arguments, piped,
// or from a file, with the same checks, pacing and guarantees; and the declaration stop, retrack and push share.

import type { Command, OptionValues } from '@commander-js/extra-typings';
import { operationOfCommand } from '@trk/service/operations/index.js';
import { fieldFlagValues, withFieldFlags } from './field-flags.js';
import type { ItemFlags } from '../../items/run.js';
import { ITEM_COLUMN_NAMES } from '../../output/column-names.js';
import { Argument, examples, lazy, Option, repeated, withColumns, type Declare } from '../define.js';
import type { ItemAction } from './actions.js';

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
export function withInput<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
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
export function remembered<A extends unknown[], O extends OptionValues, G extends OptionValues>(c: Command<A, O, G>) {
  return c
    .addOption(new Option('--restart', 'start over instead of resuming an interrupted run of the same input'))
    .addOption(
      new Option(
        '--again',
        'send an input that was fully sent before (runs are remembered, so a re-run does not pay twice)',
      ),
    );
}

export function engineFlags(numbers: string[], o: EngineOptions): ItemFlags {
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

/**
 * The declaration of an item command that sends one operation on each number and prints the items: stop,
 * retrack and push (and a new operation of the same kind). `load` is the command file's import of the run.
 */
export function itemActionDeclaration(
  name: ItemAction,
  example: string,
  load: () => Promise<typeof import('./actions.js')>,
): Declare {
  return (cmd, invoke) =>
    withColumns(withFieldFlags(remembered(withInput(cmd)), operationOfCommand(name)), ITEM_COLUMN_NAMES)
      .addHelpText('after', examples(example, `trk list --status Exception -o ids | trk ${name}`))
      .action((numbers, o) =>
        lazy(
          invoke,
          load,
          async (m, ctx) => {
            const fields = await fieldFlagValues(ctx, operationOfCommand(name), o, o.carrierMap);
            return m.runItemAction(name, { ...engineFlags(numbers, o), fields }, ctx);
          },
          o,
        ),
      );
}
