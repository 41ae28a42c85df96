// trk runs [list]: the runs of files and pipes trk remembers (src/items/runs.ts), interrupted ones it resumes and
// finished ones it does not send again, newest first.

import { stateDir } from '../../config/paths.js';
import type { Context } from '../../context/context.js';
import { listRuns, runFolders, type RunEntry } from '../../items/runs.js';
import type { Column } from '../../output/render.js';
import { printRows } from '../../output/render.js';
import { fmt } from '../../core/text.js';
import { RUN_COLUMN_NAMES } from '../../output/column-names.js';
import { columnsByName } from '../../output/columns.js';
import { outputOf } from '../common/output.js';
import { examples, relativeOption, running, withColumns, type Declare } from '../define.js';

// What a run is (its id, to resume or forget it), how far it got and over which input never go; on a narrow
// terminal the command, then when it ran (an age in tables, the time in machine formats), then the profile do.
const COLUMNS: readonly Column<RunEntry>[] = columnsByName<RunEntry, (typeof RUN_COLUMN_NAMES)[number]>(
  RUN_COLUMN_NAMES,
  {
    id: { header: 'ID', value: (r) => r.id, id: true },
    state: { header: 'STATE', value: (r) => r.state },
    command: { header: 'COMMAND', value: (r) => r.command, wide: 20 },
    input: { header: 'INPUT', value: (r) => r.input, shrink: 10, keepEnd: true },
    when: { header: 'WHEN', value: (r) => r.when, time: true, age: true, wide: 25 },
    done: {
      header: 'DONE',
      value: (r) => r.done,
      display: (r) => (r.total === undefined ? fmt(r.done) : `${fmt(r.done)} of ${fmt(r.total)}`),
    },
    account: { header: 'PROFILE', value: (r) => r.account, shrink: 10, wide: 30 },
  },
);

export type RunsListOptions = Record<string, never>;

export async function runRunsList(_opts: RunsListOptions, ctx: Context): Promise<number> {
  const runs = listRuns(runFolders(stateDir(ctx.env)));
  if (runs.length === 0) ctx.info('no runs remembered');
  await printRows(ctx.io, runs, COLUMNS, outputOf(ctx));
  return 0;
}

/** Declared by the group (runs.ts) as its default command: `trk runs` lists. */
export const declaration: Declare = (cmd, invoke) =>
  withColumns(cmd, RUN_COLUMN_NAMES)
    .description('list interrupted and finished runs, newest first')
    .addOption(relativeOption())
    .addHelpText('after', examples('trk runs', 'trk runs list --json', 'trk runs --relative'))
    .action((o) => running(invoke, (ctx) => runRunsList({}, ctx), o));
