// trk runs forget: forget remembered runs, so that an interrupted one is started over and a finished one may be
// sent again.

import { stateDir } from '../../config/paths.js';
import type { Context } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { plural } from '../../core/text.js';
import { forgetRuns, listRuns, runFolders } from '../../items/runs.js';
import { examples, prints, running, type Declare } from '../define.js';

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

export const declaration: Declare = (cmd, invoke) =>
  prints(cmd, [])
    .description('forget runs: an interrupted one is then started over, a finished one may be sent again')
    .argument('[ids...]', 'run ids as "trk runs" shows them (a prefix is enough)')
    .option('--all', 'forget every run that is not running')
    .addHelpText('after', examples('trk runs forget 3f9c2a1b', 'trk runs forget --all'))
    .action((ids, o) => running(invoke, (ctx) => runRunsForget({ ids, all: o.all === true }, ctx)));
