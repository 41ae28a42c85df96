// trk runs [list] | trk runs forget: what trk remembers of item runs over files and pipes (src/items/runs.ts).

import { stateDir } from '../../config/paths.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { forgetRuns, listRuns, runFolders, type RunEntry } from '../../items/runs.js';
import type { Column } from '../../output/render.js';
import { printRows } from '../../output/render.js';
import { plural } from '../../text.js';

const COLUMNS: readonly Column<RunEntry>[] = [
  { key: 'id', header: 'ID', value: (r) => r.id },
  { key: 'state', header: 'STATE', value: (r) => r.state },
  { key: 'command', header: 'COMMAND', value: (r) => r.command },
  { key: 'input', header: 'INPUT', value: (r) => r.input },
  { key: 'when', header: 'WHEN', value: (r) => r.when },
  { key: 'done', header: 'DONE', value: (r) => r.done, display: (r) => (r.total === undefined ? r.done : `${r.done} of ${r.total}`) },
  { key: 'account', header: 'PROFILE', value: (r) => r.account },
];

export type RunsListOptions = Record<string, never>;

export async function runRunsList(_opts: RunsListOptions, ctx: Context): Promise<number> {
  const runs = listRuns(runFolders(stateDir(ctx.env)));
  if (runs.length === 0) ctx.info('no runs remembered');
  await printRows(ctx.io, runs, COLUMNS, ctx.global.output);
  return 0;
}

export interface RunsForgetOptions {
  ids: readonly string[];
  all: boolean;
}

export async function runRunsForget(opts: RunsForgetOptions, ctx: Context): Promise<number> {
  if (opts.all === (opts.ids.length > 0)) {
    throw new UsageError(opts.all ? 'give run ids or --all, not both' : 'no run given', 'give the ids "trk runs" shows, or --all');
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
