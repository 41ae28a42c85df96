// trk runs [list] | trk runs forget: what trk remembers of item runs over files and pipes (src/items/runs.ts).

import { stateDir } from '../../config/paths.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { forgetRuns, listRuns, runFolders, type RunEntry } from '../../items/runs.js';
import type { Column } from '../../output/render.js';
import { printRows } from '../../output/render.js';
import { fmt, plural } from '../../core/text.js';
import { RUN_COLUMN_NAMES } from '../../output/column-names.js';
import { columnsByName } from '../../output/columns.js';
import { outputOf } from '../common/output.js';

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

export interface RunsForgetOptions {
  ids: readonly string[];
  all: boolean;
}

export async function runRunsForget(opts: RunsForgetOptions, ctx: Context): Promise<number> {
  if (opts.all === opts.ids.length > 0) {
    throw new UsageError(
      opts.all ? 'give run ids or --all, not both' : 'no run given',
      'give the ids "trk runs" shows, or --all',
    );
  }
  const folders = runFolders(stateDir(ctx.env));
  let forgotten = 0;
  let running = 0;
  const known = listRuns(folders);
  // Each id names one run: a prefix matching several is refused rather than forgetting them all.
  const targets: (string | undefined)[] = opts.all ? [undefined] : [];
  for (const id of opts.ids) {
    const matches = known.filter((r) => r.id.startsWith(id.trim()));
    if (matches.length === 0) throw new UsageError(`no run ${id}`, 'see "trk runs" for the ids');
    if (matches.length > 1) throw new UsageError(`${id} names ${matches.length} runs`, 'give more of the id');
    targets.push(matches[0]!.id);
  }
  for (const prefix of targets) {
    const r = forgetRuns(folders, prefix);
    forgotten += r.forgotten;
    running += r.running;
  }
  if (running > 0) ctx.info(`${plural(running, 'run')} still running: kept`);
  ctx.info(`forgot ${plural(forgotten, 'run')}`);
  return 0;
}
