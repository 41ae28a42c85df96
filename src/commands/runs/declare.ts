// Declaration of `trk runs`: the runs of files and pipes trk remembers (interrupted ones it resumes, finished
// ones it does not send again), and forgetting them.

import { RUN_COLUMN_NAMES } from '../../output/column-names.js';
import { examples, lazy, prints, relativeOption, withColumns, type Declare } from '../define.js';

const runs: Declare = (cmd, invoke) => {
  cmd.addHelpText('after', examples('trk runs', 'trk runs forget 3f9c2a1b', 'trk runs forget --all'));
  withColumns(cmd.command('list', { isDefault: true }), RUN_COLUMN_NAMES)
    .description('list interrupted and finished runs, newest first')
    .addOption(relativeOption())
    .addHelpText('after', examples('trk runs', 'trk runs list --json', 'trk runs --relative'))
    .action((o) =>
      lazy(
        invoke,
        () => import('./runs.js'),
        (m, ctx) => m.runRunsList({}, ctx),
        o,
      ),
    );
  prints(cmd.command('forget'), [])
    .description('forget runs: an interrupted one is then started over, a finished one may be sent again')
    .argument('[ids...]', 'run ids as "trk runs" shows them (a prefix is enough)')
    .option('--all', 'forget every run that is not running')
    .addHelpText('after', examples('trk runs forget 3f9c2a1b', 'trk runs forget --all'))
    .action((ids, o) =>
      lazy(
        invoke,
        () => import('./runs.js'),
        (m, ctx) => m.runRunsForget({ ids, all: o.all === true }, ctx),
      ),
    );
};

export const declarations: Readonly<Record<string, Declare>> = { runs };
