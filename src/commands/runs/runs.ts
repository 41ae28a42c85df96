// trk runs: the runs of files and pipes trk remembers (interrupted ones it resumes, finished ones it does not send
// again), and forgetting them; each subcommand in its own file.

import { examples, type Declare } from '../define.js';
import { declaration as forget } from './forget.js';
import { declaration as list } from './list.js';
import type { Listing } from '../listing.js';

export const listing = {
  name: 'runs',
  summary: 'list and forget the runs of files and pipes trk remembers',
  section: 'account',
  group: true,
} satisfies Listing;

export const declaration: Declare = (cmd, invoke) => {
  cmd.addHelpText('after', examples('trk runs', 'trk runs forget 3f9c2a1b', 'trk runs forget --all'));
  list(cmd.command('list', { isDefault: true }), invoke);
  forget(cmd.command('forget'), invoke);
};
